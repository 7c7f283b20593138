import { createCookieSessionStorage } from "@remix-run/node";
import { getEnv } from "./env.server.ts";

/**
 * The login session: an httpOnly, SameSite=Lax cookie (Secure in production) holding only the user id.
 * The browser never holds a bearer token.
 */
let storage: ReturnType<typeof createSessionStorage> | undefined;

function createSessionStorage() {
  const env = getEnv();
  return createCookieSessionStorage<{ userId: number }>({
    cookie: {
      name: "__gk_session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
      maxAge: 60 * 60 * 24 * 7,
    },
  });
}

export function getSessionStorage() {
  storage ??= createSessionStorage();
  return storage;
}

export function getSession(request: Request) {
  return getSessionStorage().getSession(request.headers.get("Cookie"));
}
