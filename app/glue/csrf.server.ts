/**
 * Cross-site request forgery: a state-changing request (POST, PUT, PATCH, DELETE) that carries the session
 * cookie must come from one of our own pages. Browsers say where a request comes from (Origin, else
 * Referer); a request without either is not a browser's cross-site form (curl, scripts) and passes. Where
 * API tokens are accepted (/api/v1), a request with a bearer token passes too: browsers never add an
 * Authorization header to a cross-site form or a simple request, and the token alone then says who calls
 * (a 401 unless it is live). Anywhere else an Authorization header waives nothing. Remix checks Origin
 * for page actions only; this covers every route, resource routes and the queue dashboard included.
 */
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

export interface RequestFacts {
  method: string;
  origin?: string;
  referer?: string;
  authorization?: string;
  /** API tokens are accepted here (caller.server.ts, `acceptsTokensAt`): only then does a bearer token waive the check. */
  tokensAccepted?: boolean;
  /** The request's path (without its query). */
  path?: string;
}

/**
 * Forms whose authority is the token they carry, never the session cookie: a mailed link's page
 * (/set-password). The page sends `Referrer-Policy: no-referrer` (its URL holds the token), so the browser
 * posts its form with `Origin: null`; that origin passes here. A forged post could only do what the token
 * already lets its holder do, and the page signs nobody in (docs/decisions/040-mail-and-password-links.md).
 */
export const TOKEN_FORM_PATHS: ReadonlySet<string> = new Set(["/set-password"]);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** True when the request must be refused. `ownOrigins` are the site's own origins (e.g. https://gates.example.org). */
export function isForgedRequest(request: RequestFacts, ownOrigins: readonly string[]): boolean {
  if (!isUnsafeMethod(request.method)) return false;
  // Only a bearer token, only where tokens are accepted: a browser attaches HTTP Basic credentials (a
  // staging proxy) to cross-site posts, and a page takes no token, so a header there proves nothing.
  if (request.tokensAccepted && request.authorization && /^Bearer\s+\S+/i.test(request.authorization)) return false;
  if (request.path !== undefined && TOKEN_FORM_PATHS.has(request.path) && (request.origin === undefined || request.origin === "null") && request.referer === undefined) return false;
  // "null" is what a sandboxed frame or a cross-site redirect chain sends: never one of our pages.
  if (request.origin !== undefined) return request.origin === "null" || !ownOrigins.includes(request.origin);
  if (request.referer !== undefined) {
    const from = originOf(request.referer);
    return from === null || !ownOrigins.includes(from);
  }
  return false;
}

/**
 * For requests that are not state changes but act with the cookie all the same: the Socket.IO
 * handshake. True when the request names an origin (every browser does) that is not the host it was
 * addressed to nor APP_ORIGIN. No Origin at all is not a browser on another site (scripts, tests).
 */
export function isForeignOrigin(origin: string | undefined, host: string | undefined, appOrigin: string | undefined): boolean {
  if (origin === undefined) return false;
  if (origin === "null") return true;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return true;
  }
  if (appOrigin) {
    const app = new URL(appOrigin);
    if (from.origin === app.origin) return false;
    // Addressed by another name (an internal address): the same host, but never a weaker scheme.
    if (from.protocol !== app.protocol) return true;
  }
  return host === undefined || from.host !== host.toLowerCase();
}
