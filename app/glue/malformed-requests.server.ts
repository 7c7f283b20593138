/**
 * Requests no browser or script of ours sends, refused before they reach a route (docs/RELIABILITY.md,
 * "Every answer fits its status"). Each used to be a 500 with a stack in the log: the Remix adapter builds
 * a URL from the Host header and a Fetch Request from the method, and both throw on what they cannot take.
 *
 * - A method the app serves none of its addresses with (TRACE, PROPFIND, …): 405 with `Allow`. OPTIONS
 *   goes on to the API, whose dispatcher answers it with the path's own `Allow`; CONNECT never reaches a
 *   request listener (`refuseConnect`, on the server's "connect" event).
 * - A Host (or X-Forwarded-Host) that is not a host name, or whose port is not 1–65535: 400.
 * - A `_data` query parameter (Remix's data requests before single fetch; our pages fetch `.data`
 *   addresses): 400, instead of Remix's 403 "Unexpected Server Error" and an error in the log.
 * - An empty Authorization header: 401, as any Authorization header that holds no token.
 *
 * The answer says so in a sentence, in the caller's language (the API's error shape under /api/); nothing
 * is logged: these are the client's mistakes, not the server's.
 */
import type { Socket } from "node:net";
import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { messages } from "../modules/messages.ts";
import { isApiPath, refusalParts, type RefusedRequest } from "./fitting-answers.server.ts";

/** The methods some address of the app answers (Remix's actions take POST, PUT, PATCH and DELETE). */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const SERVED = new Set<string>(SERVED_METHODS);
const ALLOW = SERVED_METHODS.join(", ");
/** What a page's data address (`/gates.data`) takes: reads, and posts to its actions. */
const DATA_ALLOW = "GET, POST, PUT, PATCH, DELETE";

/** A host name (letters, digits, dots, hyphens…) or a bracketed IPv6 address, then an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::(\d{0,5}))?$/;

/** Whether a Host header's value names a host, with a port from 1 to 65535 if it has one. */
export function isValidHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  const port = match[1];
  return port === undefined || port === "" || (Number(port) >= 1 && Number(port) <= 65_535);
}

export interface Malformation {
  status: 400 | 401 | 405;
  english: string;
  headers: Record<string, string>;
}

/** What is wrong with a request before any route sees it, or null. */
export function malformation(request: {
  method: string;
  pathname: string;
  search: string;
  host: string | undefined;
  forwardedHost: string | undefined;
  authorization: string | undefined;
  /** Express's `req.protocol`, read only when needed. */
  protocol: () => string;
}): Malformation | null {
  const method = request.method.toUpperCase();
  if (!SERVED.has(method) && !(method === "OPTIONS" && isApiPath(request.pathname))) {
    return { status: 405, english: messages.errors.methodNotAllowed(method, ALLOW), headers: { Allow: ALLOW } };
  }
  // Remix takes any method but GET of a `.data` address for an action, a HEAD too (and refuses it with a 500
  // when an Origin comes with it): our pages never send one.
  if (method === "HEAD" && request.pathname.endsWith(".data")) {
    return { status: 405, english: messages.errors.methodNotAllowed(method, DATA_ALLOW), headers: { Allow: DATA_ALLOW } };
  }
  const hosts = [request.host, ...(request.forwardedHost?.split(",") ?? [])].filter((host): host is string => host !== undefined).map((host) => host.trim());
  if (hosts.some((host) => !isValidHost(host))) return { status: 400, english: messages.errors.hostInvalid, headers: {} };
  // The origin the Remix adapter will build a URL of: its host is one of the above; a protocol other than
  // http(s) (X-Forwarded-Proto behind a trusted proxy) is tried as the adapter will.
  const protocol = request.protocol();
  if (protocol !== "http" && protocol !== "https") {
    try {
      new URL(`${protocol}://localhost/`);
    } catch {
      return { status: 400, english: messages.errors.hostInvalid, headers: {} };
    }
  }
  // Decoded as Remix will (`?%5Fdata=` is `_data` too).
  if (request.search.length > 1 && new URLSearchParams(request.search).has("_data")) {
    return { status: 400, english: messages.errors.dataParameter, headers: {} };
  }
  // An Authorization header says who calls, alone, even empty (app/glue/caller.server.ts); Remix's adapter
  // drops a header without a value, so the routes would take the session cookie instead: refused here.
  if (request.authorization !== undefined && request.authorization.trim() === "") {
    return isApiPath(request.pathname)
      ? { status: 401, english: messages.api.notAToken, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } }
      : { status: 401, english: messages.errors.authorizationHeader, headers: {} };
  }
  return null;
}

function refusedView(req: IncomingMessage, pathname: string): RefusedRequest {
  return {
    pathname,
    method: req.method ?? "GET",
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : (value ?? null);
    },
  };
}

/** What is wrong with this request (Express's request, or the page reads' view of it), or null. */
export function malformationOf(req: Request): Malformation | null {
  const url = req.url;
  const query = url.indexOf("?");
  return malformation({
    method: req.method,
    pathname: req.path,
    search: query === -1 ? "" : url.slice(query),
    host: req.headers.host,
    forwardedHost: req.get("x-forwarded-host"),
    authorization: req.headers.authorization,
    protocol: () => req.protocol,
  });
}

/** Answers a malformed request with Node's response methods (the page reads ahead of Express use Node's response). */
export function answerMalformation(req: Request, res: Response, wrong: Malformation) {
  sendRefusal(req, res, wrong.status, wrong.english, wrong.headers);
}

/** A refusal of an Express request in a sentence, in the caller's language (the API's shape under /api/), with Node's response methods. */
export function sendRefusal(req: Request, res: Response, status: number, english: string, headers: Record<string, string> = {}) {
  const parts = refusalParts(refusedView(req, req.path), status, english, headers);
  res.statusCode = parts.status;
  for (const [name, value] of Object.entries(parts.headers)) res.setHeader(name, value);
  const body = Buffer.from(parts.body);
  res.setHeader("Content-Length", body.byteLength);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The http.Server's "connect" listener: a CONNECT (a proxy's tunnel) never reaches the request listener,
 * and without a listener Node drops the connection with no answer. A 405 in a sentence, then the close.
 */
export function refuseConnect(req: IncomingMessage, socket: Socket) {
  const parts = refusalParts(refusedView(req, "/"), 405, messages.errors.methodNotAllowed("CONNECT", ALLOW), { Allow: ALLOW });
  const body = Buffer.from(parts.body);
  const head = [`HTTP/1.1 405 Method Not Allowed`, ...Object.entries(parts.headers).map(([name, value]) => `${name}: ${value}`), `Content-Length: ${body.byteLength}`, "Connection: close", "", ""].join("\r\n");
  socket.on("error", () => {});
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]));
}

/** The method and path a request line names, as far as they can be read ("FOO /api/v1/teams"). */
function requestLineOf(rawPacket: Buffer | undefined): { method: string; pathname: string } {
  const line = /^([A-Za-z_-]{1,24}) (\/[^\s?]*)/.exec(rawPacket?.subarray(0, 2048).toString("latin1") ?? "");
  return { method: line?.[1] ?? "such", pathname: line?.[2] ?? "/" };
}

/** What Node's parser could not read, by its error code: the status and the sentence (the request's language is unknown: English). */
function clientErrorAnswer(code: string | undefined, method: string): { status: number; reason: string; english: string; headers: Record<string, string> } | null {
  if (code === "ECONNRESET" || code === "EPIPE") return null;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return { status: 408, reason: "Request Timeout", english: messages.errors.bodyTooSlow, headers: {} };
  if (code === "HPE_HEADER_OVERFLOW") return { status: 431, reason: "Request Header Fields Too Large", english: messages.errors.headersTooLarge, headers: {} };
  // A method the parser does not know (FOO): none the app serves.
  if (code === "HPE_INVALID_METHOD") return { status: 405, reason: "Method Not Allowed", english: messages.errors.methodNotAllowed(method, ALLOW), headers: { Allow: ALLOW } };
  return { status: 400, reason: "Bad Request", english: messages.errors.unparsable, headers: {} };
}

/**
 * The http.Server's "clientError" listener: a request Node's parser cannot read (a method it does not know,
 * a broken header or request line, headers too large) is answered, as Node does, but in a sentence; a
 * client that went away gets nothing. Never logged: the client's fault.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) {
  const line = requestLineOf(error.rawPacket);
  const answer = clientErrorAnswer(error.code, line.method);
  if (!answer || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  // The headers were not read: English, the API's shape under /api/.
  const parts = refusalParts({ pathname: line.pathname, method: line.method, header: () => null }, answer.status, answer.english, answer.headers);
  const body = Buffer.from(parts.body);
  const head = [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    ...Object.entries(parts.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.byteLength}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  socket.on("error", () => {});
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]));
}
