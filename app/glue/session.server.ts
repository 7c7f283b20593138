import { createCookieSessionStorage } from "@remix-run/node";
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
