import { createCookie, createCookieSessionStorage, type Cookie } from "@remix-run/node";
import { getEnv } from "../infrastructure/env.server.ts";

/**
 * The login cookie: httpOnly, SameSite=Lax (Secure in production), signed, holding only the session's
 * random token (docs/decisions/015-server-side-sessions.md). Who the token belongs to, and whether its
 * session is still live, only the server knows: app/glue/caller.server.ts.
 */
let storage: ReturnType<typeof createSessionStorage> | undefined;

/**
 * The cookie's name. Over HTTPS (production) it carries the `__Host-` prefix: the browser then takes it
 * only from this very host, Secure, for path /, so a site on a sibling subdomain cannot plant or
 * shadow it.
 */
export function sessionCookieName(secure = getEnv().NODE_ENV === "production"): string {
  return secure ? "__Host-gk_session" : "__gk_session";
}

function createSessionStorage() {
  const env = getEnv();
  return createCookieSessionStorage<{ sid: string }>({
    cookie: {
      name: sessionCookieName(env.NODE_ENV === "production"),
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
      // The browser may drop it when the session can no longer be live anyway.
      maxAge: env.SESSION_MAX_HOURS * 3600,
    },
  });
}

function getSessionStorage() {
  storage ??= createSessionStorage();
  return storage;
}

/**
 * Cookie headers already read: what a header says is a pure function of it (and of the secret, fixed for
 * the process's life), and each request asks several times (root, layout and page loaders). Bounded.
 */
const readHeaders = new Map<string, string | null>();
const MAX_READ_HEADERS = 10_000;
const MAX_KEPT_HEADER_LENGTH = 512;

/** The session token in a Cookie header, if it holds a well-signed one. */
export async function readSessionToken(cookieHeader: string | null | undefined): Promise<string | null> {
  if (!cookieHeader) return null;
  const known = readHeaders.get(cookieHeader);
  if (known !== undefined) return known;
  const sid = (await getSessionStorage().getSession(cookieHeader)).get("sid");
  const token = typeof sid === "string" && /^[A-Za-z0-9_-]{43}$/.test(sid) ? sid : null;
  // Only headers of an ordinary size are kept: 10,000 crafted 16 KB headers must not cost 160 MB.
  if (cookieHeader.length > MAX_KEPT_HEADER_LENGTH) return token;
  if (readHeaders.size >= MAX_READ_HEADERS) readHeaders.clear();
  readHeaders.set(cookieHeader, token);
  return token;
}

/** The Set-Cookie value that gives the browser this session token. */
export async function sessionSetCookie(token: string): Promise<string> {
  const session = await getSessionStorage().getSession();
  session.set("sid", token);
  return getSessionStorage().commitSession(session);
}

/** The Set-Cookie value that removes the session cookie. */
export async function clearedSessionCookie(): Promise<string> {
  return getSessionStorage().destroySession(await getSessionStorage().getSession());
}

/**
 * The accounts this browser signed in to lately (their look-alike keys, app/modules/names/names.ts; at most
 * KNOWN_ACCOUNTS, newest first), in a signed cookie of its own that signing out leaves in place: the login
 * throttle lets them past an account's wait across addresses, as it lets an address the account signed in
 * from before (app/modules/auth/login-throttle.server.ts). Signed with the session secret: a rival cannot
 * make one. Kept LOGIN_KNOWN_ADDRESS_DAYS; none when LOGIN_KNOWN_ADDRESSES is 0.
 */
const KNOWN_ACCOUNTS = 10;
const MAX_KEY_LENGTH = 200;
let knownCookie: Cookie | undefined;

function knownAccountsCookie(): Cookie {
  const env = getEnv();
  const secure = env.NODE_ENV === "production";
  knownCookie ??= createCookie(secure ? "__Host-gk_known" : "__gk_known", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [env.SESSION_SECRET],
    maxAge: env.LOGIN_KNOWN_ADDRESS_DAYS * 24 * 3600,
  });
  return knownCookie;
}

/** The account keys a Cookie header's well-signed known-accounts cookie lists (none for any other). */
export async function knownAccountsIn(cookieHeader: string | null | undefined): Promise<string[]> {
  if (!cookieHeader || getEnv().LOGIN_KNOWN_ADDRESSES === 0) return [];
  const value: unknown = await knownAccountsCookie().parse(cookieHeader);
  if (!Array.isArray(value)) return [];
  return value.filter((key): key is string => typeof key === "string" && key.length > 0 && key.length <= MAX_KEY_LENGTH).slice(0, KNOWN_ACCOUNTS);
}

/** The Set-Cookie value that adds this account to the browser's known accounts (null when none are kept). */
export async function knownAccountsSetCookie(cookieHeader: string | null | undefined, accountKey: string): Promise<string | null> {
  if (getEnv().LOGIN_KNOWN_ADDRESSES === 0 || accountKey.length > MAX_KEY_LENGTH) return null;
  const before = await knownAccountsIn(cookieHeader);
  return knownAccountsCookie().serialize([accountKey, ...before.filter((key) => key !== accountKey)].slice(0, KNOWN_ACCOUNTS));
}

/**
 * The device cookie (docs/domain.md "Integrity signals"): a random value a browser gets at its first sign-in and
 * keeps (httpOnly, signed, 400 days: the longest a browser keeps one), which the sign-in log records (hashed) so
 * one browser signing in as members of two teams shows, where a venue's shared address would say nothing.
 */
let deviceCookie: Cookie | undefined;

function getDeviceCookie(): Cookie {
  const env = getEnv();
  const secure = env.NODE_ENV === "production";
  deviceCookie ??= createCookie(secure ? "__Host-gk_device" : "__gk_device", { httpOnly: true, sameSite: "lax", path: "/", secure, secrets: [env.SESSION_SECRET], maxAge: 400 * 24 * 3600 });
  return deviceCookie;
}

/** The browser's device value, if its cookie is well-signed. */
export async function readDeviceId(cookieHeader: string | null | undefined): Promise<string | null> {
  if (!cookieHeader) return null;
  const value: unknown = await getDeviceCookie().parse(cookieHeader);
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** The Set-Cookie value that gives the browser this device value (again: its age starts over). */
export async function deviceSetCookie(device: string): Promise<string> {
  return getDeviceCookie().serialize(device);
}
