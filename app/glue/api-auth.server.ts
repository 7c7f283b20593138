/**
 * Who is calling the API (decision 009): a personal API token (`Authorization: Bearer gk_…`) or the
 * session cookie of a signed-in browser. Either way the caller is a user with that user's role, and
 * the role rules are the screens' own. A request with an Authorization header is known by that header
 * alone: anything but a live token is a 401, whatever cookie comes with it.
 */
import { ApiError } from "../modules/api/errors.ts";
import type { ApiOperation } from "../modules/api/operations.ts";
import { mayReadTeam } from "../modules/auth/access.ts";
import { refuseTeamReads } from "../modules/judging/blind.server.ts";
import { messages } from "../modules/messages.ts";
import { bearerIn, carriesAuthorization, carriesSessionCookie, findCaller, type Caller, type CallerHeaders } from "./caller.server.ts";
import { isForgedRequest, isUnsafeMethod, type RequestFacts } from "./csrf.server.ts";
import { getEnv } from "../infrastructure/env.server.ts";

const m = messages.api;

export type { CallerHeaders };

/** The bearer token of the request, if it sends one. */
export function bearerToken(request: Request): string | null {
  return bearerIn(request.headers.get("Authorization"));
}

/**
 * The caller (app/glue/caller.server.ts); 401 for a visitor, an ended session, and any Authorization
 * header that is not a live token (unknown, revoked, another scheme, junk): the cookie is not read then.
 * With `recent`, a remembered answer for a token will do (the scoreboard feed only).
 */
export async function requireApiCaller(headers: CallerHeaders, options: { recent?: boolean } = {}): Promise<Caller> {
  const user = await findCaller(headers, { tokens: true, recentToken: options.recent });
  if (user) return user;
  if (carriesAuthorization(headers)) {
    const message = bearerIn(headers.authorization) ? m.invalidToken : m.notAToken;
    throw new ApiError("unauthenticated", message, undefined, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
  }
  throw new ApiError("unauthenticated", m.unauthenticated, undefined, { "WWW-Authenticate": "Bearer" });
}

/**
 * The caller an operation admits, as its catalogue entry (app/modules/api/operations.ts) declares, the one
 * place API access is written: 401 for a visitor, 403 for a role not listed, and for an operation on one
 * team (`ownTeamOnly`) 403 for a participant of another team and for a judge while judging is blind
 * (app/modules/judging/blind.server.ts). `teamId`: the team the call is about.
 */
export async function requireOperationCaller(operation: ApiOperation, headers: CallerHeaders, teamId?: number): Promise<Caller> {
  if (operation.access === "public") throw new Error("a public operation has no caller to require");
  const user = await requireApiCaller(headers, { recent: operation.recentCaller });
  if (!operation.access.includes(user.role)) throw new ApiError("forbidden", m.forbidden);
  if (operation.ownTeamOnly) {
    if (teamId === undefined) throw new Error("an operation on one team needs the team's id");
    if (!mayReadTeam(user, teamId)) throw new ApiError("forbidden", m.notYourTeam);
    await refuseTeamReads(user);
  }
  return user;
}

export function callerHeaders(request: Request): CallerHeaders {
  return { authorization: request.headers.get("Authorization"), cookie: request.headers.get("Cookie") };
}

/** Our own origins: the one this request was addressed to, and APP_ORIGIN's. */
function ownOrigins(request: Request): string[] {
  const appOrigin = getEnv().APP_ORIGIN;
  return [new URL(request.url).origin, ...(appOrigin ? [new URL(appOrigin).origin] : [])];
}

/**
 * CSRF for the API: the same rule as every route (app/glue/csrf.server.ts, which server.ts also applies
 * in front of everything), answered in the API's JSON shape, plus one stricter case: a change made with
 * the session cookie that names no origin at all is refused (browsers always send Origin on a POST;
 * only a script would omit it, and scripts use tokens). `tokens`: the operation takes a caller, so a
 * bearer token is exempt (a browser never adds an Authorization header by itself, and the token alone
 * then decides: a 401 unless it is live). The public operations (signing in) take no token: never exempt.
 */
export async function rejectCrossSiteRequest(request: Request, options: { tokens: boolean }): Promise<void> {
  await rejectCrossSiteFacts(
    {
      method: request.method,
      origin: request.headers.get("Origin") ?? undefined,
      referer: request.headers.get("Referer") ?? undefined,
      authorization: request.headers.get("Authorization") ?? undefined,
      cookie: request.headers.get("Cookie"),
      tokensAccepted: options.tokens,
    },
    ownOrigins(request),
  );
}

/** The same rule from a request's facts (a request served ahead of Express: app/glue/flag-answer-api.server.ts). */
export async function rejectCrossSiteFacts(facts: RequestFacts & { cookie: string | null | undefined }, own: readonly string[]): Promise<void> {
  if (isForgedRequest(facts, own)) throw new ApiError("forbidden_origin", m.foreignOrigin);
  if (!isUnsafeMethod(facts.method) || (facts.tokensAccepted && bearerIn(facts.authorization ?? null)) || facts.origin || facts.referer) return;
  if (await carriesSessionCookie(facts.cookie)) throw new ApiError("forbidden_origin", m.missingOrigin);
}
