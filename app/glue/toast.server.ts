import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "../infrastructure/env.server.ts";

/** Toasts that survive a redirect: flashed into a cookie, read once by the root loader. */
export const ToastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  type: z.enum(["message", "success", "error"]).default("message"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = z.input<typeof ToastSchema>;

const flashKey = "toast";
const TOAST_COOKIE = "__gk_toast";
let storage: ReturnType<typeof createToastStorage> | undefined;

function createToastStorage() {
  const env = getEnv();
  return createCookieSessionStorage({
    cookie: {
      name: TOAST_COOKIE,
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
    },
  });
}

function getToastStorage() {
  storage ??= createToastStorage();
  return storage;
}

/** The Set-Cookie header that flashes a toast for the next page. */
export async function createToastHeaders(toast: ToastInput): Promise<Headers> {
  const session = await getToastStorage().getSession();
  session.flash(flashKey, ToastSchema.parse(toast));
  return new Headers({ "Set-Cookie": await getToastStorage().commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const [name, value] of await createToastHeaders(toast)) headers.append(name, value);
  return redirect(url, { ...init, headers });
}

/** The pending toast, if any, and the header that clears it. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookie = request.headers.get("Cookie");
  // Most requests carry no toast: no cookie to parse or verify.
  if (!cookie?.includes(`${TOAST_COOKIE}=`)) return { toast: null, headers: null };
  const session = await getToastStorage().getSession(cookie);
  const parsed = ToastSchema.safeParse(session.get(flashKey));
  if (!parsed.success) return { toast: null, headers: null };
  return {
    toast: parsed.data,
    headers: new Headers({ "Set-Cookie": await getToastStorage().destroySession(session) }),
  };
}
