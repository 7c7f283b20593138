/**
 * Sign-in with the organisers' identity provider (docs/domain.md "Sign-in with the organisers' identity
 * provider") against a real OpenID Connect provider: oidc-provider, started here on a free port, its login and
 * consent answered programmatically for the person a test names. Each flow is driven as a browser would: the
 * login page's POST /auth/oidc, every redirect at the provider with a cookie jar of its own, then the app's
 * callback with the app's cookies; the session it starts is then used.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, oidcIdentities, registrations, signIns, users } from "../../db/schema.ts";
import { findSessionCaller } from "../../app/glue/caller.server.ts";
import { getToast } from "../../app/glue/toast.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { afterLoginLanding } from "../../app/modules/auth/access.ts";
import { messages } from "../../app/modules/messages.ts";
import * as startRoute from "../../app/routes/auth.oidc.tsx";
import * as callbackRoute from "../../app/routes/auth.oidc_.callback.tsx";
import * as loginRoute from "../../app/routes/login.tsx";
import { createPasswordLink, spendPasswordLink } from "../../app/modules/mail/password-links.server.ts";
import { queueMails } from "../../app/modules/mail/mails.server.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import { register } from "../../app/modules/registrations/registrations.server.ts";
import { updateUser } from "../../app/modules/users/users.server.ts";
import { actorFor, ensureEventSettings, makeUser, testAdmin } from "../support/fixtures.ts";
import { startOidcProvider, type PersonClaims, type TestProvider } from "../support/oidc-provider.ts";
import { answerOf, callRoute } from "../support/route-manifest.ts";

const APP_ORIGIN = "http://app.test";
const REDIRECT_URI = `${APP_ORIGIN}/auth/oidc/callback`;
const CLIENT_ID = "gatekeeper";
const CLIENT_SECRET = "a-client-secret-for-the-tests-only";

/** The people the provider knows, by subject, with the claims it gives about them. */
const people = new Map<string, PersonClaims>();
/** Who signs in at the provider's login page in the flow under way. */
let signingIn = "";

let provider: TestProvider;
let issuer = "";

beforeAll(async () => {
  await ensureEventSettings();
  provider = await startOidcProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT_URI, claimsOf: (subject) => people.get(subject), answer: () => signingIn });
  issuer = provider.issuer;
  configure({ OIDC_ISSUER: issuer });
});

afterAll(async () => {
  for (const name of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_LABEL", "OIDC_CREATES_ACCOUNTS", "APP_ORIGIN"]) delete process.env[name];
  resetEnvForTests();
  await provider.close();
});

/** The app's environment for what follows: the provider's settings, and any change to them. */
function configure(changes: Record<string, string | undefined>) {
  const settings: Record<string, string | undefined> = { APP_ORIGIN, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_LABEL: "University account", OIDC_CREATES_ACCOUNTS: undefined, ...changes };
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
}

let serial = 0;
const unique = (what: string) => `${what}-${process.pid}-${++serial}`;

/** A cookie jar: name → value, from Set-Cookie headers (a cookie set empty or expired is dropped). */
function keep(jar: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (value === "" || /max-age=0\b|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/**
 * The login page's button, then the provider's pages as `subject`, up to the provider's redirect back to the app:
 * the callback's URL and the app's cookie jar (the pending sign-in's cookie).
 */
async function throughProvider(subject: string, redirectTo = ""): Promise<{ callbackUrl: string; appJar: Map<string, string> }> {
  signingIn = subject;
  const appJar = new Map<string, string>();
  const start = (await callRoute(startRoute as never, "action", { request: new Request(`${APP_ORIGIN}/auth/oidc`, { method: "POST", body: new URLSearchParams({ redirectTo }) }), params: {}, context: {} })) as Response;
  expect(start.status).toBe(302);
  keep(appJar, start);
  let url = start.headers.get("Location")!;
  expect(url.startsWith(`${issuer}/`)).toBe(true);
  // A fresh browser at the provider each time: its own session there, so it asks who signs in.
  const providerJar = new Map<string, string>();
  for (let hops = 0; hops < 20; hops++) {
    if (url.startsWith(REDIRECT_URI)) return { callbackUrl: url, appJar };
    const response = await fetch(url, { redirect: "manual", headers: { cookie: cookieHeader(providerJar) } });
    keep(providerJar, response);
    const location = response.headers.get("Location");
    if (!location) throw new Error(`the provider answered ${response.status} at ${url}: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error("too many redirects at the provider");
}

/** The app's callback with these cookies: where it sends the browser, the session it gives (if any), its message. */
async function callback(callbackUrl: string, appJar: Map<string, string>) {
  const response = (await callRoute(callbackRoute as never, "loader", { request: new Request(callbackUrl, { headers: { Cookie: cookieHeader(appJar) } }), params: {}, context: {} })) as Response;
  expect(response.status).toBe(302);
  const jar = new Map(appJar);
  keep(jar, response);
  const caller = await findSessionCaller(cookieHeader(jar));
  const { toast } = await getToast(new Request(APP_ORIGIN, { headers: { Cookie: cookieHeader(jar) } }));
  return { location: response.headers.get("Location"), caller, message: toast?.title ?? null, jar };
}

async function signIn(subject: string, redirectTo = "") {
  const { callbackUrl, appJar } = await throughProvider(subject, redirectTo);
  return callback(callbackUrl, appJar);
}

/** An account with an address as an admin enters one (the Users form, the import): confirmed. */
async function participantWithAddress(email: string, role: "participant" | "admin" | "judge" | "mentor" = "participant") {
  const user = await makeUser(role);
  await getDb().update(users).set({ email, emailConfirmed: true }).where(eq(users.id, user.id));
  return user;
}

/** A participant account made from a /register form: its address typed by whoever filled the form in. */
async function registeredParticipant(email: string) {
  await register({ name: "Sami", lastName: "Registered", email, phone: "0555", nationalId: "1", skill: "AI", tshirtSize: "M", hasTeam: "no" }, "203.0.113.60");
  const [registration] = await getDb().select({ id: registrations.id }).from(registrations).where(eq(registrations.email, email));
  const result = await createAccountsFromRegistrations(testAdmin, [registration.id]);
  const [user] = await getDb().select().from(users).where(eq(users.name, result.created[0].userName));
  return user;
}

/** A link mailed to `to` for the user, used: what the person does with the mail that reaches them. */
async function useMailedLink(userId: number, to: string) {
  const token = await getDb().transaction(async (tx) => {
    const [mailId] = await queueMails(tx, [{ userId, kind: "set_password", toAddress: to, language: "en" }]);
    return createPasswordLink(tx, { userId, purpose: "set", mailId });
  });
  await spendPasswordLink(token, "a-chosen-password-1");
}

const identitiesOf = (userId: number) => getDb().select().from(oidcIdentities).where(eq(oidcIdentities.userId, userId));

describe("signing in with the organisers' identity provider", () => {
  it("shows its button on /login with the configured name", async () => {
    const page = answerOf(await callRoute(loginRoute as never, "loader", { request: new Request(`${APP_ORIGIN}/login`), params: {}, context: {} }));
    expect(page.body).toMatchObject({ providerLabel: "University account" });
  });

  it("binds a participant whose address the provider vouches for, signs them in, and uses the binding later even after the address changed", async () => {
    const email = `${unique("alice")}@uni.example`;
    const alice = await participantWithAddress(email);
    const subject = unique("sub");
    people.set(subject, { email: email.toUpperCase(), email_verified: true, preferred_username: "alice" });

    const first = await signIn(subject);
    expect(first.message).toBeNull();
    // Where a password login lands (a participant without a team: the welcome page, through the preloader).
    expect(first.location).toBe(afterLoginLanding("participant", ""));
    expect(first.caller).toMatchObject({ id: alice.id, role: "participant" });
    expect(await identitiesOf(alice.id)).toEqual([expect.objectContaining({ issuer: `${issuer}`, subject })]);
    const [record] = await getDb().select().from(auditLog).where(eq(auditLog.kind, "user.identity-bound"));
    expect(record).toMatchObject({ userId: alice.id });
    // As a password login: the browser's device cookie, and the sign-in log of the integrity signals.
    expect(first.jar.has("__gk_device")).toBe(true);
    expect(await getDb().select().from(signIns).where(eq(signIns.userId, alice.id))).toHaveLength(1);

    // The person's address changes at the provider (and is no longer vouched for): the binding still says who they are.
    people.set(subject, { email: `${unique("renamed")}@uni.example`, email_verified: false });
    // The page the person was going to when sent to /login comes along through the provider.
    const second = await signIn(subject, "/scoreboard");
    expect(second.message).toBeNull();
    expect(second.location).toBe("/scoreboard");
    expect(second.caller).toMatchObject({ id: alice.id });
    expect(second.caller!.sessionId).not.toBe(first.caller!.sessionId);
  });

  it("does not match an address the provider has not verified, and makes a new account only where the event allows it", async () => {
    const email = `${unique("bob")}@uni.example`;
    const bob = await participantWithAddress(email);
    const subject = unique("sub");
    people.set(subject, { email, email_verified: false, preferred_username: bob.name });

    const refused = await signIn(subject);
    expect(refused).toMatchObject({ location: "/login", caller: null, message: messages.oidc.unverified });
    expect(await identitiesOf(bob.id)).toEqual([]);

    configure({ OIDC_ISSUER: issuer, OIDC_CREATES_ACCOUNTS: "1" });
    try {
      const created = await signIn(subject);
      expect(created.message).toBeNull();
      expect(created.caller).not.toBeNull();
      expect(created.caller!.id).not.toBe(bob.id);
      const [account] = await getDb().select().from(users).where(eq(users.id, created.caller!.id));
      // A participant without a team; the unverified address is not kept; the name taken gets a number.
      expect(account).toMatchObject({ role: "participant", teamId: null, email: null, name: `${bob.name}2` });
      expect(await identitiesOf(bob.id)).toEqual([]);
      expect(await identitiesOf(account.id)).toHaveLength(1);
    } finally {
      configure({ OIDC_ISSUER: issuer });
    }
  });

  it("refuses a person with no account here while the event makes none", async () => {
    const subject = unique("sub");
    people.set(subject, { email: `${unique("nobody")}@uni.example`, email_verified: true });
    expect(await signIn(subject)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.noAccount });
  });

  it("never binds or signs in an admin, judge or mentor account, even with the same verified address", async () => {
    configure({ OIDC_ISSUER: issuer, OIDC_CREATES_ACCOUNTS: "1" });
    try {
      for (const role of ["admin", "judge", "mentor"] as const) {
        const email = `${unique(role)}@uni.example`;
        const staff = await participantWithAddress(email, role);
        const subject = unique("sub");
        people.set(subject, { email, email_verified: true, preferred_username: staff.name });
        const answer = await signIn(subject);
        expect(answer, role).toMatchObject({ location: "/login", caller: null, message: messages.oidc.staffAccount });
        expect(await identitiesOf(staff.id)).toEqual([]);
      }
    } finally {
      configure({ OIDC_ISSUER: issuer });
    }
  });

  it("keeps one identity to an account, and refuses a bound participant once made staff", async () => {
    const email = `${unique("dana")}@uni.example`;
    const dana = await participantWithAddress(email);
    const first = unique("sub");
    people.set(first, { email, email_verified: true });
    expect((await signIn(first)).caller).toMatchObject({ id: dana.id });

    // Another person at the provider given the same (recycled) address: the account is not theirs.
    const second = unique("sub");
    people.set(second, { email, email_verified: true });
    expect(await signIn(second)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.boundElsewhere });
    expect(await identitiesOf(dana.id)).toEqual([expect.objectContaining({ subject: first })]);

    await getDb().update(users).set({ role: "judge" }).where(eq(users.id, dana.id));
    expect(await signIn(first)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.staffAccount });
  });

  it("binds by an address typed at /register only once a link mailed to it was used, and never makes a second account for it", async () => {
    const email = `${unique("typed")}@uni.example`;
    // Someone registered with this address (theirs or not) and was given the account.
    const typed = await registeredParticipant(email);
    expect(typed.emailConfirmed).toBe(false);
    // The address's owner signs in at the provider, which vouches for it: neither bound nor given a duplicate.
    const subject = unique("sub");
    people.set(subject, { email, email_verified: true, preferred_username: "owner" });
    configure({ OIDC_ISSUER: issuer, OIDC_CREATES_ACCOUNTS: "1" });
    try {
      expect(await signIn(subject)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.unconfirmedAddress });
      expect(await identitiesOf(typed.id)).toEqual([]);
      expect(await getDb().select({ id: users.id }).from(users).where(eq(users.name, "owner"))).toEqual([]);
      configure({ OIDC_ISSUER: issuer });
      expect(await signIn(subject)).toMatchObject({ caller: null, message: messages.oidc.unconfirmedAddress });

      // An admin saving the account for another reason (its name) does not vouch for the address already on it.
      const admin = await makeUser("admin");
      await updateUser(actorFor(admin.id, admin.name, "admin"), { id: typed.id, name: `${typed.name}x`, role: "participant", teamId: typed.teamId ?? undefined, email, language: "en" });
      expect(await signIn(subject)).toMatchObject({ caller: null, message: messages.oidc.unconfirmedAddress });

      // A link mailed to another address does not confirm this one; the one mailed to it does.
      await useMailedLink(typed.id, `${unique("elsewhere")}@uni.example`);
      expect(await signIn(subject)).toMatchObject({ caller: null, message: messages.oidc.unconfirmedAddress });
      await useMailedLink(typed.id, email);
      const [confirmed] = await getDb().select({ emailConfirmed: users.emailConfirmed }).from(users).where(eq(users.id, typed.id));
      expect(confirmed.emailConfirmed).toBe(true);
      expect((await signIn(subject)).caller).toMatchObject({ id: typed.id });
    } finally {
      configure({ OIDC_ISSUER: issuer });
    }
  });

  it("refuses a replayed callback, a wrong state, and a callback without the sign-in's cookie", async () => {
    const email = `${unique("carol")}@uni.example`;
    const carol = await participantWithAddress(email);
    const subject = unique("sub");
    people.set(subject, { email, email_verified: true });

    const { callbackUrl, appJar } = await throughProvider(subject);
    const wrongState = new URL(callbackUrl);
    wrongState.searchParams.set("state", "a-state-this-browser-never-started");
    expect(await callback(wrongState.href, appJar)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.failed });
    expect(await callback(callbackUrl, new Map())).toMatchObject({ location: "/login", caller: null, message: messages.oidc.failed });
    // A cookie written by someone else (not signed with the session secret) is none.
    const forged = new Map([["__gk_oidc", Buffer.from(JSON.stringify({ state: "s", nonce: "n", verifier: "v".repeat(43), redirectTo: "", startedAt: Date.now() })).toString("base64")]]);
    expect(await callback(callbackUrl, forged)).toMatchObject({ location: "/login", caller: null, message: messages.oidc.failed });
    expect(await identitiesOf(carol.id)).toEqual([]);

    // A wrong state did not spend the code: the right answer signs in, once.
    const signedIn = await callback(callbackUrl, appJar);
    expect(signedIn.caller).toMatchObject({ id: carol.id });
    // The same answer again, even with the cookie it came with: the provider has spent the code.
    const replayed = await callback(callbackUrl, appJar);
    expect(replayed).toMatchObject({ location: "/login", caller: null, message: messages.oidc.failed });
    // A browser that followed the first answer has no pending sign-in left.
    expect(signedIn.jar.has("__gk_oidc")).toBe(false);
    expect(await callback(callbackUrl, signedIn.jar)).toMatchObject({ location: "/login", message: messages.oidc.failed });
  });
});

describe("without OIDC_ISSUER", () => {
  it("shows no button and answers 404 at the sign-in's addresses", async () => {
    configure({ OIDC_ISSUER: undefined });
    try {
      const page = answerOf(await callRoute(loginRoute as never, "loader", { request: new Request(`${APP_ORIGIN}/login`), params: {}, context: {} }));
      expect(page.body).toMatchObject({ providerLabel: null });
      const start = answerOf(await callRoute(startRoute as never, "action", { request: new Request(`${APP_ORIGIN}/auth/oidc`, { method: "POST", body: new URLSearchParams() }), params: {}, context: {} }));
      expect(start.status).toBe(404);
      const back = answerOf(await callRoute(callbackRoute as never, "loader", { request: new Request(`${REDIRECT_URI}?code=x&state=y`), params: {}, context: {} }));
      expect(back.status).toBe(404);
    } finally {
      configure({ OIDC_ISSUER: issuer });
    }
  });
});
