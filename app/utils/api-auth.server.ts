/**
 * Who is calling the API (decision 009): a personal API token (`Authorization: Bearer gk_…`) or the
 * session cookie of a signed-in browser. Either way the caller is a user with that user's role, and
 * the role rules are the screens' own.
 */
import { ApiError } from "../modules/api/errors.ts";
import { findUserByApiToken } from "../modules/api-tokens/tokens.server.ts";
import { mayReadTeam, type Role } from "../modules/auth/access.ts";
import type { SessionUser } from "../modules/auth/login.server.ts";
import { messages } from "../modules/messages.ts";
import { getOptionalUser, getUserId } from "./auth.server.ts";
import { getEnv } from "./env.server.ts";

const m = messages.api;

/** The bearer token of the request, if it sends one. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  return match ? match[1] : null;
}

/** The caller; 401 for a visitor or an unknown or revoked token. A token wins over a cookie. */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const token = bearerToken(request);
  if (token) {
    const user = await findUserByApiToken(token);
    if (!user) throw new ApiError("unauthenticated", m.invalidToken, undefined, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
    return user;
  }
  const user = await getOptionalUser(request);
  if (!user) throw new ApiError("unauthenticated", m.unauthenticated, undefined, { "WWW-Authenticate": "Bearer" });
  return user;
}

/** The caller with one of `allowed` roles; any other role gets a 403, as on the screens. */
export async function requireApiRole(request: Request, ...allowed: Role[]): Promise<SessionUser> {
  const user = await requireApiUser(request);
  if (!allowed.includes(user.role)) throw new ApiError("forbidden", m.forbidden);
  return user;
}

/** The caller, if they may read this team's submissions and scores (own team, judge, admin). */
export async function requireTeamReader(request: Request, teamId: number): Promise<SessionUser> {
  const user = await requireApiUser(request);
  if (!mayReadTeam(user, teamId)) throw new ApiError("forbidden", m.notYourTeam);
  return user;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function hostOf(value: string): string | null {
  try {
    return new URL(value).host;
  } catch {
    return null;
  }
}

/** Our own hosts: the one this request was addressed to (as Remix's check uses) and APP_ORIGIN's. */
function isOwnOrigin(source: string, request: Request): boolean {
  const host = hostOf(source);
  if (!host) return false; // includes the opaque origin "null"
  const appOrigin = getEnv().APP_ORIGIN;
  return host === new URL(request.url).host || (appOrigin !== undefined && host === hostOf(appOrigin));
}

/**
 * CSRF: the session cookie is sent by the browser on its own, so a change made with it must come
 * from one of our pages. Remix checks the Origin of document and data requests but not of resource
 * routes, so the API checks it here, for every route: an unsafe method without a bearer token is
 * refused when its Origin (or, failing that, its Referer) is another site's, and also when it names
 * no origin at all yet carries a session cookie (browsers always send Origin on a cross-site POST;
 * only a script would omit it, and scripts use tokens). Token requests are exempt: a browser never
 * adds an Authorization header by itself.
 */
export async function rejectCrossSiteRequest(request: Request): Promise<void> {
  if (!UNSAFE_METHODS.has(request.method) || bearerToken(request)) return;
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (source !== null) {
    if (!isOwnOrigin(source, request)) throw new ApiError("forbidden_origin", m.foreignOrigin);
    return;
  }
  if ((await getUserId(request)) !== null) throw new ApiError("forbidden_origin", m.missingOrigin);
}
