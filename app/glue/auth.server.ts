import { data, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { rolesForPath, rolesUnder, type Role } from "../modules/auth/access.ts";
import { LoginSchema } from "../modules/auth/login-schema.ts";
import { checkLoginAttempt, recordLoginFailure, recordLoginSuccess, returnAccountAttempt, type LoginAttempt } from "../modules/auth/login-throttle.server.ts";
import { verifyLogin, type SessionUser, type VerifiedUser } from "../modules/auth/login.server.ts";
import { passwordRefusalFor } from "../modules/auth/password-sign-in.server.ts";
import { messages } from "../modules/messages.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { deleteExpiredSessions, endSessionByToken, startSession } from "../modules/auth/sessions.server.ts";
import { findSessionCaller, type Caller } from "./caller.server.ts";
import { languageOf } from "./language.server.ts";
import { clientIp } from "./request.server.ts";
import { clearedSessionCookie, deviceSetCookie, knownAccountsIn, knownAccountsSetCookie, readDeviceId, readSessionToken, sessionSetCookie } from "./session.server.ts";
import { newDeviceId, recordSignIn } from "../modules/integrity/sign-ins.server.ts";
import { nameKey } from "../modules/names/names.ts";
import { createToastHeaders } from "./toast.server.ts";

/** Thrown by the form strategy when the name or password is wrong. */
export class InvalidCredentialsError extends Error {
  constructor() {
    super(messages.login.invalidCredentials);
  }
}

/**
 * Thrown by the form strategy while a name/IP pair or an IP is locked out, or while the account waits
 * between attempts from addresses it does not know (`accountWide`: the message says a known one passes).
 */
export class LoginThrottledError extends Error {
  constructor(
    public readonly retryAfterSeconds: number,
    public readonly accountWide = false,
  ) {
    super(accountWide ? messages.login.accountThrottled(retryAfterSeconds) : messages.login.throttled(retryAfterSeconds));
  }
}

/**
 * The throttle needs Redis; if Redis is down we let the attempt through (argon2 still slows
 * guessing) rather than lock every participant out of the event.
 */
async function throttled<T>(operation: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    getLogger().warn({ err: error }, "login throttle unavailable");
    return fallback;
  }
}

/**
 * Checks a name and password under the login throttle; throws LoginThrottledError or
 * InvalidCredentialsError, or the DomainError of passwords off for a participant. Shared by /login and the API's login, so both count the same failures.
 */
export async function verifyThrottledLogin(name: string, password: string, request: Request): Promise<VerifiedUser> {
  const ip = clientIp(request);
  const goAhead: LoginAttempt = { retryAfterSeconds: 0, accountWide: false, knownAddress: false, claimed: false };
  // A browser the account signed in from before (its signed cookie) passes the account's wait, as a known address.
  const knownBrowser = (await knownAccountsIn(request.headers.get("Cookie"))).includes(nameKey(name));
  const attempt = await throttled(() => checkLoginAttempt(name, ip, { knownBrowser }), goAhead);
  if (attempt.retryAfterSeconds > 0) throw new LoginThrottledError(attempt.retryAfterSeconds, attempt.accountWide);
  let user: VerifiedUser | null;
  try {
    user = await verifyLogin(name, password);
  } catch (error) {
    // Not checked (Postgres unreachable: a 503): the attempt costs the account no turn.
    if (attempt.claimed) await throttled(() => returnAccountAttempt(name), undefined);
    throw error;
  }
  if (!user) {
    await throttled(() => recordLoginFailure(name, ip), undefined);
    throw new InvalidCredentialsError();
  }
  await throttled(() => recordLoginSuccess(name, ip), undefined);
  // Passwords off for participants (docs/domain.md): refused with its sentence only once the password was right,
  // so the answer tells a guesser of names nothing about who is a participant.
  const refusal = await passwordRefusalFor(user.role);
  if (refusal) throw refusal;
  return user;
}

export const authenticator = new Authenticator<VerifiedUser>();
authenticator.use(
  new FormStrategy(({ form, request }) => {
    // The login form's own schema (the action has already refused an invalid form): the same cleaned values.
    const { username, password } = LoginSchema.parse(Object.fromEntries(form));
    return verifyThrottledLogin(username, password, request);
  }),
  "form",
);

/**
 * Pages, their `.data` and the resource routes outside /api/v1 take no token: a request that carries an
 * Authorization header (any scheme, any value) is known by that header alone, so here it is nobody and
 * gets a 401 with a sentence, whatever session cookie comes with it (docs/decisions/009-http-api.md,
 * "Authorization header"). `lang`: the page's language, for the error page when the root's loader is
 * the one refusing.
 */
export function refuseAuthorizationHeader(request: Request): void {
  if (request.headers.has("Authorization")) {
    throw data({ message: messages.errors.authorizationHeader, lang: languageOf(request) }, { status: 401 });
  }
}

/** The signed-in user, or null (a visitor, or a session that has ended or expired); 401 with an Authorization header. */
export async function getOptionalUser(request: Request): Promise<Caller | null> {
  refuseAuthorizationHeader(request);
  return findSessionCaller(request.headers.get("Cookie"));
}

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const redirectTo = `${url.pathname}${url.search}`;
  return redirect(`/login?${new URLSearchParams({ redirectTo })}`);
}

/** The signed-in user; a visitor is sent to /login?redirectTo=<where they were going>. */
export async function requireUser(request: Request): Promise<Caller> {
  const user = await getOptionalUser(request);
  if (!user) throw loginRedirect(request);
  return user;
}

/** The signed-in user with one of `allowed` roles; any other role gets a 403 (not a redirect loop). */
export async function requireRole(request: Request, ...allowed: Role[]): Promise<Caller> {
  const user = await requireUser(request);
  if (!allowed.includes(user.role)) {
    throw data({ message: messages.errors.forbidden, home: user.role }, { status: 403 });
  }
  return user;
}

/**
 * The signed-in user, if the page's entry in the page-roles table (app/modules/auth/access.ts) admits
 * their role: a visitor is sent to /login, another role gets a 403. Pages declare no roles of their own.
 */
export async function requirePage(request: Request): Promise<Caller> {
  const allowed = rolesForPath(new URL(request.url).pathname);
  if (allowed === "public") throw new Error(`${new URL(request.url).pathname} is public: read the user with getOptionalUser`);
  return requireRole(request, ...allowed);
}

/** A layout (and its not-found page): whoever may open some page under `folder`. */
export async function requireLayout(request: Request, folder: string): Promise<Caller> {
  return requireRole(request, ...rolesUnder(folder));
}

/** Expired sessions are refused anyway; deleting them now and then keeps the table small. */
const EXPIRED_SWEEP_MS = 10 * 60_000;
let lastSweep = 0;

function sweepExpiredSessions(now = Date.now()) {
  if (now - lastSweep < EXPIRED_SWEEP_MS) return;
  lastSweep = now;
  deleteExpiredSessions().catch((error: unknown) => getLogger().warn({ err: error }, "cannot delete expired sessions"));
}

/**
 * Starts a new session for the user (a login) and returns its Set-Cookie headers. The session the
 * request came with, if any, ends: a login always gets a new token, so a token planted before the
 * login (session fixation) is worth nothing after it. When the login ended the user's oldest sessions
 * (SESSIONS_PER_USER, app/modules/auth/sessions.server.ts), a toast tells them on the first page. A password
 * login passes the hash it checked (the session starts only while it is still the password); a sign-in through
 * the identity provider (app/glue/oidc.server.ts) has none.
 */
export async function sessionHeadersFor(user: SessionUser & { verifiedPasswordHash?: string }, request: Request): Promise<Headers> {
  const previous = await readSessionToken(request.headers.get("Cookie"));
  if (previous) await endSessionByToken(previous);
  const started = await startSession(user.id, { ip: clientIp(request), userAgent: request.headers.get("User-Agent") }, user.verifiedPasswordHash);
  // The password changed between the check and now: the login did not happen.
  if (!started) throw new InvalidCredentialsError();
  sweepExpiredSessions();
  const headers = started.endedOldest > 0 ? await createToastHeaders({ type: "message", title: messages.login.oldestSessionEnded }) : new Headers();
  headers.append("Set-Cookie", await sessionSetCookie(started.token));
  const known = await knownAccountsSetCookie(request.headers.get("Cookie"), nameKey(user.name));
  if (known) headers.append("Set-Cookie", known);
  // The sign-in log of the integrity signals: this browser's device cookie, made at its first sign-in.
  const device = (await readDeviceId(request.headers.get("Cookie"))) ?? newDeviceId();
  headers.append("Set-Cookie", await deviceSetCookie(device));
  await recordSignIn(user.id, device, clientIp(request));
  return headers;
}

/** Starts a session for the user and redirects. */
export async function createUserSession(user: VerifiedUser, redirectTo: string, request: Request) {
  return redirect(redirectTo, { headers: await sessionHeadersFor(user, request) });
}

/** Ends the request's session on the server (every web process refuses it from now on) and in the browser. */
export async function logout(request: Request, redirectTo = "/") {
  refuseAuthorizationHeader(request);
  const token = await readSessionToken(request.headers.get("Cookie"));
  if (token) await endSessionByToken(token);
  return redirect(redirectTo, { headers: { "Set-Cookie": await clearedSessionCookie() } });
}
