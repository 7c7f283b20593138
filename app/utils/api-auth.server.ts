/**
 * Who is calling the API (decision 009): a personal API token (`Authorization: Bearer gk_…`) or the
 * session cookie of a signed-in browser. Either way the caller is a user with that user's role, and
 * the role rules are the screens' own.
 */
import { ApiError } from "../modules/api/errors.ts";
import { findUserByApiToken, hashToken } from "../modules/api-tokens/tokens.server.ts";
import { mayReadTeam, type Role } from "../modules/auth/access.ts";
import { findSessionUser, type SessionUser } from "../modules/auth/login.server.ts";
import { recentUser } from "../modules/auth/recent-users.server.ts";
import { messages } from "../modules/messages.ts";
import { getUserId } from "./auth.server.ts";
import { isForgedRequest, isUnsafeMethod } from "./csrf.server.ts";
import { getEnv } from "./env.server.ts";
import { getSessionStorage } from "./session.server.ts";

const m = messages.api;

/** The bearer token in an Authorization header's value, if it holds one. */
function bearerIn(authorization: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : null;
}

/** The bearer token of the request, if it sends one. */
export function bearerToken(request: Request): string | null {
  return bearerIn(request.headers.get("Authorization"));
}

/** What identifies an API caller: the request's Authorization and Cookie headers. */
export interface CallerHeaders {
  authorization: string | null;
  cookie: string | null;
}

/**
 * The caller; 401 for a visitor or an unknown or revoked token. A token wins over a cookie. With
 * `recent`, a remembered answer will do: until Postgres reports a change to users, teams or tokens,
 * or 2 s while it is not heard (the scoreboard feed only: see recent-users.server.ts).
 */
export async function requireApiCaller(headers: CallerHeaders, options: { recent?: boolean } = {}): Promise<SessionUser> {
  const token = bearerIn(headers.authorization);
  if (token) {
    const lookup = () => findUserByApiToken(token);
    const user = await (options.recent ? recentUser(`token:${hashToken(token)}`, lookup) : lookup());
    if (!user) throw new ApiError("unauthenticated", m.invalidToken, undefined, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
    return user;
  }
  const userId = (await getSessionStorage().getSession(headers.cookie)).get("userId");
  const lookup = () => findSessionUser(userId as number);
  const user = typeof userId !== "number" ? null : await (options.recent ? recentUser(`user:${userId}`, lookup) : lookup());
  if (!user) throw new ApiError("unauthenticated", m.unauthenticated, undefined, { "WWW-Authenticate": "Bearer" });
  return user;
}

/** The caller of this request (see requireApiCaller), looked up afresh. */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  return requireApiCaller({ authorization: request.headers.get("Authorization"), cookie: request.headers.get("Cookie") });
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
