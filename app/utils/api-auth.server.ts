/**
 * Who is calling the API (decision 009): a personal API token (`Authorization: Bearer gk_…`) or the
 * session cookie of a signed-in browser. Either way the caller is a user with that user's role, and
 * the role rules are the screens' own.
 */
import { ApiError } from "../modules/api/errors.ts";
import { mayReadTeam, type Role } from "../modules/auth/access.ts";
import { messages } from "../modules/messages.ts";
import { bearerIn, carriesSessionCookie, findCaller, type Caller, type CallerHeaders } from "./caller.server.ts";
import { isForgedRequest, isUnsafeMethod } from "./csrf.server.ts";
import { getEnv } from "./env.server.ts";

const m = messages.api;

export type { CallerHeaders };

/** The bearer token of the request, if it sends one. */
export function bearerToken(request: Request): string | null {
  return bearerIn(request.headers.get("Authorization"));
}

/**
 * The caller (app/utils/caller.server.ts); 401 for a visitor, an ended session or an unknown or revoked
 * token. A token wins over a cookie. With `recent`, a remembered answer for a token will do (the
 * scoreboard feed only).
 */
export async function requireApiCaller(headers: CallerHeaders, options: { recent?: boolean } = {}): Promise<Caller> {
  const user = await findCaller(headers, { tokens: true, recentToken: options.recent });
  if (user) return user;
  if (bearerIn(headers.authorization)) throw new ApiError("unauthenticated", m.invalidToken, undefined, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
  throw new ApiError("unauthenticated", m.unauthenticated, undefined, { "WWW-Authenticate": "Bearer" });
}

/** The caller of this request (see requireApiCaller), looked up afresh. */
export async function requireApiUser(request: Request): Promise<Caller> {
  return requireApiCaller({ authorization: request.headers.get("Authorization"), cookie: request.headers.get("Cookie") });
}

/** The caller with one of `allowed` roles; any other role gets a 403, as on the screens. */
export async function requireApiRole(request: Request, ...allowed: Role[]): Promise<Caller> {
  const user = await requireApiUser(request);
  if (!allowed.includes(user.role)) throw new ApiError("forbidden", m.forbidden);
  return user;
}

/** The caller, if they may read this team's submissions and scores (own team, judge, admin). */
export async function requireTeamReader(request: Request, teamId: number): Promise<Caller> {
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
  if (await carriesSessionCookie(request.headers.get("Cookie"))) throw new ApiError("forbidden_origin", m.missingOrigin);
}
