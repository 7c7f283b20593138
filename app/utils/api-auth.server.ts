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
import { isForgedRequest, isUnsafeMethod } from "./csrf.server.ts";
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

/** Our own origins: the one this request was addressed to, and APP_ORIGIN's. */
function ownOrigins(request: Request): string[] {
  const appOrigin = getEnv().APP_ORIGIN;
  return [new URL(request.url).origin, ...(appOrigin ? [new URL(appOrigin).origin] : [])];
}

/**
 * CSRF for the API: the same rule as every route (app/utils/csrf.server.ts, which server.ts also applies
 * in front of everything), answered in the API's JSON shape, plus one stricter case: a change made with
 * the session cookie that names no origin at all is refused (browsers always send Origin on a POST;
 * only a script would omit it, and scripts use tokens). Token requests are exempt: a browser never
 * adds an Authorization header by itself.
 */
export async function rejectCrossSiteRequest(request: Request): Promise<void> {
  const facts = {
    method: request.method,
    origin: request.headers.get("Origin") ?? undefined,
    referer: request.headers.get("Referer") ?? undefined,
    authorization: request.headers.get("Authorization") ?? undefined,
  };
  if (isForgedRequest(facts, ownOrigins(request))) throw new ApiError("forbidden_origin", m.foreignOrigin);
  if (!isUnsafeMethod(request.method) || bearerToken(request) || facts.origin || facts.referer) return;
  if ((await getUserId(request)) !== null) throw new ApiError("forbidden_origin", m.missingOrigin);
}
