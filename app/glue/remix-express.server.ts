/**
 * Remix behind Express: `@remix-run/express`'s request handler, one per route section (./route-sections.server.ts),
 * but a page rendered whole is sent with one `end()` of its bytes. Remix's own handler reads every answer's body
 * back out of its web stream (a reader, a promise per chunk) and writes it in chunked encoding, then ends it with a
 * second write;
 * a page here is one buffer already (app/entry.server.tsx renders to the end before answering), so that
 * round trip was pure cost on every page. Every other answer (`.data`, resources, redirects, HEAD) goes
 * the way Remix sends it. Only Node's response methods are used, never Express's: page reads reach this
 * handler ahead of Express, with Node's response as it is (app/glue/ahead-of-express.server.ts).
 */
// The package exports this from its server module only (not its index); the same code its handler runs.
import { createRemixRequest } from "@remix-run/express/dist/server.js";
import { createRequestHandler as createRemixHandler, writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { wholeBodyOf } from "./whole-body.ts";
import { withFittingBody } from "./fitting-answers.server.ts";
import { answerMalformation } from "./malformed-requests.server.ts";
import { sectionBuilds, sectionOfPath } from "./route-sections.server.ts";
import { messages } from "../modules/messages.ts";

interface HandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  mode: string;
}

/**
 * `req`: Express's request, or a view with Express's request getters (app/glue/ahead-of-express.server.ts);
 * `res`: Node's response, with or without Express's methods: only Node's are used.
 */
export function createRequestHandler({ build, getLoadContext, mode }: HandlerOptions) {
  // One Remix handler per route section, each given its section's build (./route-sections.server.ts); a build given as
  // a function (development: replaced at each rebuild) is read at each request, its sections derived once.
  const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRemixHandler>>();
  const handlerOf = (sectionBuild: ServerBuild) => {
    const known = handlers.get(sectionBuild);
    if (known) return known;
    const handler = createRemixHandler(sectionBuild, mode);
    handlers.set(sectionBuild, handler);
    return handler;
  };
  if (typeof build !== "function") sectionBuilds(build);
  const handleRequest: ReturnType<typeof createRemixHandler> = async (request, context) => {
    const sections = sectionBuilds(typeof build === "function" ? await build() : build);
    return handlerOf(sections.get(sectionOfPath(new URL(request.url).pathname, sections))!)(request, context);
  };
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request;
    try {
      request = createRemixRequest(req, res);
    } catch {
      // A URL the adapter cannot build from the Host, X-Forwarded-Host and request line that passed the
      // check before any route (a host such as 1.2.3.256, an absolute-form or `*` target): the client's
      // mistake, a 400 in a sentence, never a 500 (app/glue/malformed-requests.server.ts).
      answerMalformation(req, res, { status: 400, english: messages.errors.hostInvalid, headers: {} });
      return;
    }
    try {
      // Remix's own 4xx for a request no route function answered, with a sentence (fitting-answers.server.ts).
      const response = withFittingBody(request, await handleRequest(request, getLoadContext(req, res)));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** Express's rule for a Content-Type without a charset (its `res.set`): text, JavaScript and JSON are UTF-8. */
const CHARSET = /;\s*charset\s*=/;
const UTF8_TYPES = /^text\/|^application\/(javascript|json)/;

/**
 * One header of the answer, as Express's `res.append` adds it: a name set before (a security header, an
 * earlier Set-Cookie) keeps its values and gains this one; a Content-Type of text without a charset gets
 * `; charset=utf-8`. A page's own Referrer-Policy (a mailed link's page: no-referrer) replaces the site's.
 */
export function appendHeader(res: ServerResponse, name: string, value: string): void {
  const before = res.getHeader(name);
  if (name.toLowerCase() === "content-type") {
    if (before !== undefined && before !== "" && before !== 0) throw new TypeError("Content-Type cannot be set to an Array");
    res.setHeader(name, !CHARSET.test(value) && UTF8_TYPES.test(value.split(";")[0]!) ? `${value}; charset=utf-8` : value);
    return;
  }
  if (name.toLowerCase() === "referrer-policy") {
    res.setHeader(name, value);
    return;
  }
  if (before === undefined || before === "" || before === 0) res.setHeader(name, value);
  else res.setHeader(name, Array.isArray(before) ? [...before, value] : [String(before), value]);
}

/**
 * Sends Remix's answer with Node's response methods alone. A page rendered whole goes out with one `end()`
 * of its bytes and their length; anything else as Remix's Express adapter sends it: its web stream written
 * out (chunked), an event stream's headers flushed first.
 */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers.entries()) appendHeader(res, name, value);
  const whole = wholeBodyOf(response);
  if (whole !== null) {
    // Said before the body: the compression middleware writes the headers before it passes end() on, so
    // without it an uncompressed page would still go out in chunks. (When it compresses, it drops it.)
    res.setHeader("Content-Length", whole.byteLength);
    res.end(whole);
    return;
  }
  const body = response.body;
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (body) await writeReadableStreamToWritable(body, res);
  else res.end();
}
