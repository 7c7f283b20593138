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
 *
 * The answer says so in a sentence, in the caller's language (the API's error shape under /api/); nothing
 * is logged: these are the client's mistakes, not the server's.
 */
import type { Socket } from "node:net";
import type { IncomingMessage } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { messages } from "../modules/messages.ts";
import { isApiPath, refusalParts, type RefusedRequest } from "./fitting-answers.server.ts";

/** The methods some address of the app answers (Remix's actions take POST, PUT, PATCH and DELETE). */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const SERVED = new Set<string>(SERVED_METHODS);
const ALLOW = SERVED_METHODS.join(", ");

/** A host name (letters, digits, dots, hyphens…) or a bracketed IPv6 address, then an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::(\d{0,5}))?$/;

/** Whether a Host header's value names a host, with a port from 1 to 65535 if it has one. */
export function isValidHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  const port = match[1];
  return port === undefined || port === "" || (Number(port) >= 1 && Number(port) <= 65_535);
}

export type Malformation = { status: 405; english: string; headers: Record<string, string> } | { status: 400; english: string; headers: Record<string, string> };

/** What is wrong with a request before any route sees it, or null. */
export function malformation(request: { method: string; pathname: string; search: string; host: string | undefined; forwardedHost: string | undefined; hostname: string | undefined; protocol: string }): Malformation | null {
  const method = request.method.toUpperCase();
  if (!SERVED.has(method) && !(method === "OPTIONS" && isApiPath(request.pathname))) {
    return { status: 405, english: messages.errors.methodNotAllowed(method, ALLOW), headers: { Allow: ALLOW } };
  }
  const hosts = [request.host, ...(request.forwardedHost?.split(",") ?? [])].filter((host): host is string => host !== undefined).map((host) => host.trim());
  if (hosts.some((host) => !isValidHost(host))) return { status: 400, english: messages.errors.hostInvalid, headers: {} };
  // The URL the Remix adapter will build (Express's hostname, which may come from X-Forwarded-Host; its protocol).
  try {
    new URL(`${request.protocol}://${request.hostname ?? "localhost"}/`);
  } catch {
    return { status: 400, english: messages.errors.hostInvalid, headers: {} };
  }
  if (request.search.includes("_data") && new URLSearchParams(request.search).has("_data")) {
    return { status: 400, english: messages.errors.dataParameter, headers: {} };
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

/** Express middleware (and a step of the page reads ahead of Express, server.ts): refuses a malformed request. */
export function refuseMalformedRequests(req: Request, res: Response, next: NextFunction) {
  const url = req.url;
  const query = url.indexOf("?");
  const pathname = req.path;
  const wrong = malformation({
    method: req.method,
    pathname,
    search: query === -1 ? "" : url.slice(query),
    host: req.headers.host,
    forwardedHost: req.get("x-forwarded-host"),
    hostname: req.hostname,
    protocol: req.protocol,
  });
  if (!wrong) return next();
  const parts = refusalParts(refusedView(req, pathname), wrong.status, wrong.english, wrong.headers);
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
