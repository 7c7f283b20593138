/**
 * Request bodies, bounded (docs/RELIABILITY.md, "Bounded requests"). Every body is read with a size
 * limit and a deadline, before the request queues for its turn (admission.server.ts), so a client that
 * sends slowly or too much holds no admission slot and no more memory than its limit:
 *
 * - Forms and API JSON: at most FORM_MAX_BYTES (the import page: IMPORT_FORM_MAX_BYTES, its CSV comes
 *   back in a hidden field), read within BODY_DEADLINE_MS. A declared Content-Length above the limit is
 *   answered 413 from the headers, before any byte of the body is read; a body that grows past it is
 *   cut off (413); one still incomplete at the deadline gets 408. Either way the connection closes.
 * - Uploads: multipart posts to the upload endpoints (UPLOAD_PATHS) stream through untouched, to a
 *   parser with its own limits; they are the only large bodies, and each route checks who may upload
 *   before it reads a byte.
 */
import { Readable } from "node:stream";
import { data, type ActionFunctionArgs, type ServerBuild } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { ApiError } from "../modules/api/errors.ts";
import { routedPath } from "../modules/auth/access.ts";
import { MAX_IMPORT_FILE_BYTES } from "../modules/imports/schema.ts";
import { messages } from "../modules/messages.ts";
import { DEFAULT_LANGUAGE } from "../modules/i18n/i18n.ts";
import { translateMessage } from "../modules/i18n/server-messages.ts";
import { acceptedLanguage, cookieLanguage } from "./language.server.ts";

/** Every form of the site and every JSON call but the import fits in far less. */
export const FORM_MAX_BYTES = 256 * 1024;
/** The import's confirm step posts the file's text back (URL-encoded: up to 3 bytes a byte). */
export const IMPORT_FORM_MAX_BYTES = 3 * MAX_IMPORT_FILE_BYTES + 64 * 1024;
/** A 256 KB form at 20 KB/s (a poor mobile link) takes 13 s. */
export const BODY_DEADLINE_MS = 20_000;

/**
 * Where multipart bodies stream to a parser of their own (the only large bodies): every path whose action reads a
 * file through app/glue/multipart.server.ts. A path missing here has its files cut at FORM_MAX_BYTES (413), whatever
 * its own limit says.
 */
export const UPLOAD_PATHS: readonly RegExp[] = [
  /^\/submition\/[^/]+(\/upload)?$/,
  /^\/api\/v1\/challenges\/[^/]+\/submission$/,
  /^\/api\/v1\/challenges$/,
  /^\/dashboard\/challenges$/,
  /^\/dashboard\/import$/,
  // Code: a program (64 KB) and the admin's tests archive and checker.
  /^\/code\/[^/]+$/,
  /^\/api\/v1\/challenges\/[^/]+\/runs$/,
  /^\/dashboard\/code\/[^/]+$/,
  // Predictions: a team's file, the admin's hidden labels.
  /^\/predictions\/[^/]+$/,
  /^\/api\/v1\/challenges\/[^/]+\/predictions$/,
  /^\/dashboard\/predictions\/[^/]+$/,
  // Integrity: the starter files.
  /^\/dashboard\/signals$/,
];

const BODYLESS = new Set(["GET", "HEAD", "OPTIONS"]);

export type BodyRule = { kind: "none" } | { kind: "stream" } | { kind: "buffer"; maxBytes: number };

/** How this request's body is read, for its path as the router will match it (`/dashboard/code/..` is /dashboard's). */
export function bodyRule(method: string, rawPath: string, contentType: string | undefined): BodyRule {
  if (BODYLESS.has(method.toUpperCase())) return { kind: "none" };
  const path = routedPath(rawPath);
  const multipart = mediaType(contentType ?? null) === "multipart/form-data";
  if (multipart && UPLOAD_PATHS.some((pattern) => pattern.test(path))) return { kind: "stream" };
  return { kind: "buffer", maxBytes: path === "/dashboard/import" ? IMPORT_FORM_MAX_BYTES : FORM_MAX_BYTES };
}

/** The body read by `boundedBodies`, for the Remix handler. */
const BODY = Symbol("gatekeeper.body");
type WithBody = ExpressRequest & { [BODY]?: Buffer };

/** How long a connection whose request was answered before its body was all in stays open, for the client to read the answer. */
export const LINGER_MS = 2_000;

type ClosingSocket = ExpressRequest["socket"] & { destroySoon?: () => void; [OWN_DESTROY_SOON]?: () => void };
const OWN_DESTROY_SOON = Symbol("gatekeeper.destroySoon");

/**
 * For every request, before any handler sees it (server.ts): a connection that closes after an answer given
 * before the request's body was all in (a refusal from the headers, a visitor's upload sent to the login, a body
 * over its limit or too slow) closes gently. Node ends a `Connection: close` answer with socket.destroySoon(): a
 * FIN, then at once a destroy; with body bytes still arriving, the destroyed socket answers them with a TCP reset,
 * which can overtake the answer. A proxy still sending the body (nginx streams it) then reads a reset instead of
 * the answer and shows its 503 page (the web-tier drill found it twice: first for a 413, then for a visitor's
 * upload, 302, on a busy machine). Here the answer goes out with a FIN and the socket is destroyed LINGER_MS later
 * (sooner if the client closes and the socket is still being read). Meanwhile the rest of the body is read and
 * dropped (Node dumps what a handler left unread) or, where a handler paused it, held back by TCP's flow control;
 * never kept. A request whose body was all received (read or not) closes as Node closes it.
 *
 * Set for the request's answer only: put back once the answer is done, so that an idle keep-alive connection
 * holds no request.
 */
export function closeGentlyIfIncomplete(req: Pick<ExpressRequest, "socket" | "complete">, res: Pick<ExpressResponse, "once">) {
  const socket = req.socket as ClosingSocket;
  const own = (socket[OWN_DESTROY_SOON] ??= socket.destroySoon);
  if (typeof own !== "function") return;
  const gentle = () => {
    if (req.complete) return own.call(socket);
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  // A pipelined request's own may already have replaced it: the last one decides, as each comes after the other's body.
  socket.destroySoon = gentle;
  // Node calls destroySoon as the answer finishes, before any "close" listener of the answer runs.
  res.once("close", () => {
    if (socket.destroySoon === gentle) socket.destroySoon = own;
  });
}

function refuse(req: ExpressRequest, res: ExpressResponse, status: 408 | 413, maxBytes: number) {
  const english = status === 413 ? messages.errors.bodyTooLarge(maxBytes) : messages.errors.bodyTooSlow;
  // The rest of the body is never read: the connection closes after the answer (gently: closeGentlyIfIncomplete).
  res.setHeader("Connection", "close");
  // In the caller's language (decision 025): the API by Accept-Language, as its other errors; a page by the cookie first.
  const api = req.path.startsWith("/api/");
  const accepted = acceptedLanguage(req.get("accept-language") ?? null);
  const language = (api ? accepted : (cookieLanguage(req.get("cookie") ?? null) ?? accepted)) ?? DEFAULT_LANGUAGE;
  const text = translateMessage(english, language);
  res.setHeader("Content-Language", language);
  res.vary(api ? "Accept-Language" : "Cookie, Accept-Language");
  if (api) {
    res.status(status).json(new ApiError(status === 413 ? "payload_too_large" : "request_timeout", text).body);
  } else {
    res.status(status).type("text/plain").send(text);
  }
}

/**
 * Express middleware: reads a form or JSON body within its limits, before the admission queue.
 * `deadlineMs` for tests.
 */
export function boundedBodies(options: { deadlineMs?: number } = {}) {
  const deadlineMs = options.deadlineMs ?? BODY_DEADLINE_MS;
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const rule = bodyRule(req.method, req.path, req.get("content-type"));
    if (rule.kind !== "buffer") return next();
    const declared = req.get("content-length");
    if (declared !== undefined && Number(declared) > rule.maxBytes) return refuse(req, res, 413, rule.maxBytes);
    if (declared === "0" || (declared === undefined && !req.get("transfer-encoding"))) {
      (req as WithBody)[BODY] = Buffer.alloc(0);
      return next();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: "ok" | 408 | 413) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onError);
      if (outcome === "ok") {
        (req as WithBody)[BODY] = Buffer.concat(chunks, size);
        return next();
      }
      req.pause();
      chunks.length = 0;
      refuse(req, res, outcome, rule.maxBytes);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > rule.maxBytes) return finish(413);
      chunks.push(chunk);
    };
    const onEnd = () => finish("ok");
    // The client went away: nothing to answer.
    const onError = () => {
      settled = true;
      clearTimeout(timer);
      chunks.length = 0;
    };
    const timer = setTimeout(() => finish(408), deadlineMs);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("aborted", onError);
  };
}

/**
 * The request as the Remix adapter reads it: the original, or (when `boundedBodies` read its body) a
 * stream of the bytes read, with the request's own method, URL and headers.
 */
export function withReadBody(req: ExpressRequest): ExpressRequest {
  const body = (req as WithBody)[BODY];
  if (body === undefined) return req;
  const replay = Readable.from(body.length > 0 ? [body] : []);
  return Object.assign(replay, {
    method: req.method,
    headers: req.headers,
    url: req.url,
    originalUrl: req.originalUrl,
    protocol: req.protocol,
    hostname: req.hostname,
    get: req.get.bind(req),
    header: req.header.bind(req),
  }) as unknown as ExpressRequest;
}

/*
 * Page actions read their forms with `request.formData()` (Remix, undici). Given a body no form of ours
 * sends (no or another Content-Type, multipart without or with a wrong boundary, a part it cannot read)
 * it throws a TypeError, which used to be a 500. `withReadableBodies` gives every page action a request
 * whose formData() answers those with a 415 or a 400 that says what to do, shown by the route's error
 * page. The API (routes/api.v1.*) reads bodies its own way and answers in its own shape (api.server.ts).
 */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The brand of an UnreadableBodyError, a registered symbol: server.ts loads this module under tsx while the
 * Remix build bundles a copy of its own, so the error a route throws (the build's class) and the guard
 * that answers it (server.ts's) are two classes; `instanceof` across them was false, and the refusal a 500.
 */
const UNREADABLE_BODY = Symbol.for("gatekeeper.unreadableBody");

/**
 * A body no form or call of ours sends: 415 (another Content-Type), 400 (a form that cannot be read: a
 * multipart body without or with a wrong boundary, cut short) or 413 (a part past its limit). One type for
 * every copy of this module: recognise it with `UnreadableBodyError.is` (`instanceof` asks the same).
 */
export class UnreadableBodyError extends Error {
  declare readonly [UNREADABLE_BODY]: true;

  constructor(
    public readonly status: 400 | 413 | 415,
    message: string = status === 415 ? messages.errors.formContentType : messages.errors.formUnreadable,
  ) {
    super(message);
    this.name = "UnreadableBodyError";
    Object.defineProperty(this, UNREADABLE_BODY, { value: true });
  }

  /** True for an UnreadableBodyError of any copy of this module. */
  static is(value: unknown): value is UnreadableBodyError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[UNREADABLE_BODY] === true;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return UnreadableBodyError.is(value);
  }
}

/** The one mapping of an unreadable body to the API's error codes (pages answer the same status, app/glue/fitting-answers.server.ts). */
export const UNREADABLE_BODY_CODES = { 400: "bad_request", 413: "payload_too_large", 415: "unsupported_media_type" } as const;

export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * For the parsers that read multipart themselves (uploads, attachments, the import): true for a
 * multipart body, false for another form encoding; an UnreadableBodyError for multipart without a
 * boundary (no parser can read it) or a body that is no form at all.
 */
export function isMultipartForm(request: Request): boolean {
  const contentType = request.headers.get("Content-Type");
  const type = mediaType(contentType);
  if (!FORM_TYPES.has(type)) throw new UnreadableBodyError(415);
  if (type !== "multipart/form-data") return false;
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType ?? "")) throw new UnreadableBodyError(400);
  return true;
}

/** A request like `request`, whose formData() (and its clones') refuses an unreadable body with a 4xx. */
export function withReadableForm(request: Request): Request {
  const read = request.formData.bind(request);
  const clone = request.clone.bind(request);
  Object.defineProperties(request, {
    formData: {
      value: async () => {
        if (!FORM_TYPES.has(mediaType(request.headers.get("Content-Type")))) throw new UnreadableBodyError(415);
        try {
          return await read();
        } catch (error) {
          if (!(error instanceof TypeError)) throw error;
          throw new UnreadableBodyError(400);
        }
      },
    },
    clone: { value: () => withReadableForm(clone()) },
  });
  return request;
}

type RouteAction = (args: ActionFunctionArgs) => unknown;

/**
 * The build with every page action (not the API's) given a request whose unreadable form is a 4xx: the one
 * place a page, a `.data` post, an upload or an import answers an UnreadableBodyError, thrown by any copy of
 * the code (the API answers it in its own shape, `toApiError`, from the same status).
 */
export function withReadableBodies(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route.module.action || id.startsWith("routes/api.")) return [id, route];
      const action = route.module.action as RouteAction;
      const guarded: RouteAction = async (args) => {
        try {
          return await action({ ...args, request: withReadableForm(args.request) });
        } catch (error) {
          // The route's error page, with the sentence (the guards' 403 travels the same way; a resource
          // route's thrown data() is made a plain answer by app/glue/fitting-answers.server.ts).
          if (UnreadableBodyError.is(error)) throw data({ message: error.message }, { status: error.status });
          throw error;
        }
      };
      return [id, { ...route, module: { ...route.module, action: guarded as typeof route.module.action } }];
    }),
  );
  return { ...build, routes };
}
