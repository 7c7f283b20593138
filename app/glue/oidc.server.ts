/**
 * The HTTP side of signing in with the organisers' identity provider (docs/domain.md "Sign-in with the organisers'
 * identity provider"; the rules are app/modules/auth/oidc.server.ts). The start keeps the sign-in's state, nonce and
 * PKCE verifier in a cookie of its own: signed with the session secret (a forged or altered one reads as none),
 * httpOnly, SameSite=Lax (the provider's redirect back is a top-level GET, which Lax lets through), ten minutes,
 * and spent by the callback, which then signs the person in exactly as a password login does (sessionHeadersFor).
 */
import { createCookie, redirect, type Cookie } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "../infrastructure/env.server.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { afterLoginLanding } from "../modules/auth/access.ts";
import { findSessionUser } from "../modules/auth/login.server.ts";
import { accountForIdentity, finishOidcSignIn, OidcSignInError, oidcSettings, PENDING_SIGN_IN_MS, startOidcSignIn, type PendingSignIn } from "../modules/auth/oidc.server.ts";
import { messages } from "../modules/messages.ts";
import { InvalidCredentialsError, sessionHeadersFor } from "./auth.server.ts";
import { languageOf } from "./language.server.ts";
import { auditIp } from "./request.server.ts";
import { notFound } from "./responses.server.ts";
import { redirectWithToast } from "./toast.server.ts";

let pendingCookie: Cookie | undefined;

function getPendingCookie(): Cookie {
  const env = getEnv();
  const secure = env.NODE_ENV === "production";
  pendingCookie ??= createCookie(secure ? "__Host-gk_oidc" : "__gk_oidc", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [env.SESSION_SECRET],
    maxAge: PENDING_SIGN_IN_MS / 1000,
  });
  return pendingCookie;
}

const PendingSchema = z.object({
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  verifier: z.string().min(43).max(128),
  redirectTo: z.string().max(2_000),
  startedAt: z.number().int(),
});

async function readPending(request: Request): Promise<PendingSignIn | null> {
  const parsed = PendingSchema.safeParse(await getPendingCookie().parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : null;
}

/** A 404 when this event has no sign-in through a provider: the routes do not exist then. */
function requireSettings() {
  const settings = oidcSettings();
  if (!settings) throw notFound();
  return settings;
}

/** Back to /login with the sentence (a toast, and a line in the page without JavaScript); the pending sign-in ends. */
async function refuse(error: unknown): Promise<Response> {
  if (!(error instanceof OidcSignInError)) throw error;
  if (error.cause !== undefined) getLogger().warn({ err: error.cause }, "sign-in with the identity provider refused");
  return redirectWithToast("/login", { type: "error", title: error.message }, { headers: { "Set-Cookie": await getPendingCookie().serialize("", { maxAge: 0 }) } });
}

/** POST /auth/oidc: to the provider's sign-in page, the sign-in's secrets kept in the signed cookie. */
export async function startProviderSignIn(request: Request): Promise<Response> {
  const settings = requireSettings();
  const form = await request.formData();
  const redirectTo = String(form.get("redirectTo") ?? "").slice(0, 2_000);
  try {
    const { url, pending } = await startOidcSignIn(settings, redirectTo);
    return redirect(url, { headers: { "Set-Cookie": await getPendingCookie().serialize(pending) } });
  } catch (error) {
    return refuse(error);
  }
}

/**
 * GET /auth/oidc/callback: the provider's answer. Without the signed cookie of a sign-in started here (another
 * browser, a replay after it was spent, an expired one) it is refused before the provider is asked anything.
 */
export async function finishProviderSignIn(request: Request): Promise<Response> {
  const settings = requireSettings();
  try {
    const pending = await readPending(request);
    if (!pending) throw new OidcSignInError(messages.oidc.failed, 400);
    const identity = await finishOidcSignIn(settings, new URL(request.url).searchParams, pending);
    const account = await accountForIdentity(identity, { createsAccounts: settings.createsAccounts, ip: auditIp(request), language: languageOf(request) });
    const user = await findSessionUser(account.userId);
    if (!user) throw new OidcSignInError(messages.oidc.failed, 409);
    // The session, its limits, the known-browser and device cookies and the sign-in log: as a password login.
    const headers = await sessionHeadersFor(user, request);
    headers.append("Set-Cookie", await getPendingCookie().serialize("", { maxAge: 0 }));
    return redirect(afterLoginLanding(user.role, pending.redirectTo), { headers });
  } catch (error) {
    // The account was deleted between finding it and starting its session.
    return refuse(error instanceof InvalidCredentialsError ? new OidcSignInError(messages.oidc.failed, 409) : error);
  }
}
