/**
 * POST /api/v1/challenges/{id}/flag, a flag answer through the API (docs/API.md), answered by Node's request
 * listener ahead of Express and Remix (decision 039), as the scoreboard feed is (decision 011): a Remix request
 * costs more CPU than the whole verdict. The route module (app/routes/api.v1.challenges.$id.flag.tsx) answers it
 * with the same function, `answerFlagCall`, for a request that does not take this way (another spelling of the
 * path, a form encoding, a chunked body: server.ts hands those to Express) and for tests that call the module.
 *
 * What Express's middleware does for every request, this does for this one, with the same functions: a malformed
 * request (Host, `_data`, an empty Authorization) is Express's to refuse (the listener does not take it); the
 * cross-site check (csrf.server.ts) with the origin as Express reads it (its compiled `trust proxy`); the flood
 * guard's in-flight count (flag-guard.server.ts, the same map); the body within its limit and deadline; the
 * caller from the operations catalogue (remembered sessions, caller-changes.server.ts); the API's error shape in
 * the caller's language. Answers are not access-logged (attempts are stored rows); failures are logged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import { ApiError } from "../modules/api/errors.ts";
import { apiOperations, type ApiOperation } from "../modules/api/operations.ts";
import { FlagVerdictSchema } from "../modules/api/schemas.ts";
import { sendFlag } from "../modules/flags/guess.server.ts";
import { FlagAnswerSchema } from "../modules/flags/schema.ts";
import { messages } from "../modules/messages.ts";
import { actorFrom } from "./actor.server.ts";
import { rejectCrossSiteFacts, requireOperationCaller } from "./api-auth.server.ts";
import { errorResponse, fieldsOfText, MAX_BODY_BYTES, parseFields } from "./api.server.ts";
import type { Caller } from "./caller.server.ts";
import { acceptsTokensAt } from "./caller.server.ts";
import { isForgedRequest } from "./csrf.server.ts";
import { guessKey, type FlagGuard } from "./flag-guard.server.ts";
import { malformation } from "./malformed-requests.server.ts";
import { mediaType } from "./request-bodies.server.ts";

const flagOperation = apiOperations["/challenges/{id}/flag"].post as ApiOperation;

/** The verdict of a caller's answer, as the API's body: the one function both ways of the call run. */
export async function answerFlagCall(input: { caller: Caller; ip: string; challengeId: number; fields: Record<string, unknown>; begunAt: Date }) {
  const { answer } = parseFields(FlagAnswerSchema, input.fields);
  // The verdict at once: an API caller hears the board move live (its team's standing in this process's next batch).
  const verdict = await sendFlag({ actor: actorFrom(input.caller, input.ip), teamId: input.caller.teamId, challengeId: input.challengeId, answer, begunAt: input.begunAt, boardWaitMs: 0 });
  // The documented shape only: unknown keys dropped, so nothing else leaks.
  return FlagVerdictSchema.parse(verdict);
}

const FLAG_URL = /^\/api\/v1\/challenges\/([1-9]\d{0,8})\/flag$/;

export interface FlagListenerOptions {
  /** Headers every answer carries (server.ts's security headers for JSON). */
  headers: Record<string, string>;
  /** Express's compiled `trust proxy` (app.get("trust proxy fn")): the client's address and protocol as Express reads them. */
  trustProxy: (address: string, hop: number) => boolean;
  appOrigin: string | undefined;
  guard: FlagGuard;
  bodyDeadlineMs: number;
  logWarn: (fields: Record<string, unknown>, message: string) => void;
  logError: (fields: Record<string, unknown>, message: string) => void;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : value?.[0];
}

/** Express's `req.protocol`: the socket's, or X-Forwarded-Proto's first value from a trusted proxy. */
function protocolOf(req: IncomingMessage, trust: FlagListenerOptions["trustProxy"]): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  if (!trust(req.socket.remoteAddress ?? "", 0)) return own;
  const header = headerOf(req, "x-forwarded-proto") ?? own;
  const comma = header.indexOf(",");
  return (comma === -1 ? header : header.slice(0, comma)).trim();
}

/**
 * The challenge's id when this request is one the listener answers: exactly `POST /api/v1/challenges/<id>/flag`
 * (no query, no other spelling), a JSON body of a declared length within the limit, nothing Express would refuse
 * as malformed. Anything else (null) goes to Express.
 */
export function flagCallOf(req: IncomingMessage, trust: FlagListenerOptions["trustProxy"]): number | null {
  if (req.method !== "POST" || !req.url) return null;
  const match = FLAG_URL.exec(req.url);
  if (!match) return null;
  if (mediaType(headerOf(req, "content-type") ?? null) !== "application/json") return null;
  const length = headerOf(req, "content-length");
  if (length === undefined || !/^\d{1,7}$/.test(length) || Number(length) > MAX_BODY_BYTES || req.headers["transfer-encoding"] !== undefined) return null;
  const wrong = malformation({
    method: "POST",
    pathname: req.url,
    search: "",
    host: req.headers.host,
    forwardedHost: headerOf(req, "x-forwarded-host"),
    authorization: req.headers.authorization,
    protocol: () => protocolOf(req, trust),
  });
  return wrong === null ? Number(match[1]) : null;
}

/** The body of a declared length (flagCallOf), within the deadline: its text, or the refusal's status. */
function readBody(req: IncomingMessage, length: number, deadlineMs: number): Promise<string | 408 | 413 | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: string | 408 | 413 | null) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("aborted", onGone);
      if (typeof outcome !== "string") req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > length) return finish(413);
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size).toString("utf8"));
    // The client went away: nothing to answer.
    const onGone = () => finish(null);
    const timer = setTimeout(() => finish(408), deadlineMs);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("aborted", onGone);
  });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** The listener for requests flagCallOf took: `challengeId` is its result. */
export function flagAnswerListener(options: FlagListenerOptions) {
  const appOrigin = options.appOrigin ? new URL(options.appOrigin).origin : null;
  const json = { ...options.headers, "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" };

  const refuse = async (req: IncomingMessage, res: ServerResponse, error: unknown, extra: Record<string, string> = {}) => {
    const response = errorResponse(error, headerOf(req, "accept-language") ?? null);
    send(res, response.status, { ...options.headers, ...Object.fromEntries(response.headers), ...extra }, await response.text());
  };

  return async (req: IncomingMessage, res: ServerResponse, challengeId: number): Promise<void> => {
    const begunAt = new Date();
    let release: (() => void) | null = null;
    try {
      // Cross-site request forgery: the check every state change passes (server.ts's refuseForgeries), then the
      // API's own (a change with the session cookie must name its origin: api-auth.server.ts).
      const authorization = req.headers.authorization;
      const own = [`${protocolOf(req, options.trustProxy)}://${req.headers.host}`, ...(appOrigin ? [appOrigin] : [])];
      const facts = { method: "POST", origin: headerOf(req, "origin"), referer: headerOf(req, "referer"), authorization, tokensAccepted: authorization !== undefined && acceptsTokensAt(req.url!) };
      if (isForgedRequest(facts, own)) options.logWarn({ method: "POST", url: req.url, origin: facts.origin, referer: facts.referer }, "cross-site request refused");
      await rejectCrossSiteFacts({ ...facts, tokensAccepted: true, cookie: req.headers.cookie }, own);
      // One caller's flood is refused before anything is read (flag-guard.server.ts).
      const guess = guessKey({ method: "POST", path: req.url!, headers: { authorization, cookie: req.headers.cookie } });
      if (guess) {
        release = options.guard.admit(guess.key);
        if (!release) return await refuse(req, res, new ApiError("throttled", messages.flags.busy), { "Retry-After": "1" });
      }
      const text = await readBody(req, Number(req.headers["content-length"]), options.bodyDeadlineMs);
      if (text === null) return;
      if (typeof text !== "string") {
        // The rest of the body is never read: the connection closes after the answer (gently: request-bodies.server.ts).
        const error = text === 413 ? new ApiError("payload_too_large", messages.errors.bodyTooLarge(MAX_BODY_BYTES)) : new ApiError("request_timeout", messages.errors.bodyTooSlow);
        return await refuse(req, res, error, { Connection: "close" });
      }
      const caller = await requireOperationCaller(flagOperation, { authorization: authorization ?? null, cookie: req.headers.cookie ?? null });
      const body = await answerFlagCall({ caller, ip: proxyaddr(req, options.trustProxy), challengeId, fields: fieldsOfText("application/json", text), begunAt });
      send(res, 200, json, JSON.stringify(body));
    } catch (error) {
      if (res.headersSent) return options.logError({ err: error, url: req.url }, "flag answer failed after its answer began");
      await refuse(req, res, error);
    } finally {
      release?.();
    }
  };
}
