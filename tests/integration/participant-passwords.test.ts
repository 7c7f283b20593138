/**
 * Passwords off for participants (docs/domain.md "Passwords off for participants"): the setting on Dashboard →
 * Settings, refused without an identity provider, audited; then /login, the API's login, the mailed links and
 * "Forgot your password?" for a participant, while staff keep their passwords.
 */
import { Worker } from "bullmq";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, eventSettings, mails, sessions, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { closeMail } from "../../app/infrastructure/mail.server.ts";
import { bullPrefix } from "../../app/infrastructure/queue.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { NO_PASSWORD } from "../../app/modules/auth/password.server.ts";
import { sendSetPasswordLink } from "../../app/modules/mail/mails.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { createUser } from "../../app/modules/users/users.server.ts";
import * as loginApi from "../../app/routes/api.v1.auth.login.tsx";
import * as settingsRoute from "../../app/routes/dashboard.settings.tsx";
import * as forgotRoute from "../../app/routes/forgot-password.tsx";
import * as loginRoute from "../../app/routes/login.tsx";
import * as setPasswordRoute from "../../app/routes/set-password.tsx";
import { processMail } from "../../workers/processors/mail.ts";
import { send } from "../support/api.ts";
import { ensureEventSettings, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { linkIn, waitForMails } from "../support/mailbox.ts";
import { answerOf, callRoute } from "../support/route-manifest.ts";

const LABEL = "University account";
const started = Date.now();
let serial = 0;
const address = () => `passwords-${process.pid}-${started}-${++serial}@example.org`;
let worker: Worker;

function provider(on: boolean) {
  if (on) {
    Object.assign(process.env, { APP_ORIGIN: "http://app.test", OIDC_ISSUER: "https://idp.example", OIDC_CLIENT_ID: "gatekeeper", OIDC_CLIENT_SECRET: "secret", OIDC_LABEL: LABEL });
  } else {
    for (const name of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_LABEL"]) delete process.env[name];
  }
  resetEnvForTests();
}

beforeAll(async () => {
  await ensureEventSettings();
  worker = new Worker(queues.mail.name, processMail, { connection: createRedis("worker"), prefix: bullPrefix(), concurrency: 1 });
});

afterAll(async () => {
  await worker.close();
  closeMail();
  provider(false);
  delete process.env.APP_ORIGIN;
  resetEnvForTests();
});

const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields), headers: cookie ? { Cookie: cookie } : {} });

async function saveSetting(cookie: string, off: boolean) {
  return answerOf(await callRoute(settingsRoute as never, "action", { request: post("/dashboard/settings", { intent: "sign-in", ...(off ? { participantPasswordsOff: "on" } : {}) }, cookie), params: {}, context: {} }));
}

async function loginPage() {
  return answerOf(await callRoute(loginRoute as never, "loader", { request: new Request("http://localhost/login"), params: {}, context: {} }));
}

async function logIn(username: string, password = "fixture-password") {
  return answerOf(await callRoute(loginRoute as never, "action", { request: post("/login", { username, password }), params: {}, context: {} }));
}

const formErrors = (answer: { body: unknown }) => (answer.body as { error?: Record<string, string[]> }).error?.[""];
const offSentence = messages.passwordSignIn.participantsUseProvider(LABEL);

describe("passwords off for participants", () => {
  it("is refused without an identity provider, saying why, and audited when it changes", async () => {
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    provider(false);
    const refused = await saveSetting(cookie, true);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(messages.passwordSignIn.needsProvider);
    const [row] = await getDb().select({ on: eventSettings.participantPasswords }).from(eventSettings);
    expect(row.on).toBe(true);

    provider(true);
    const saved = await saveSetting(cookie, true);
    expect(saved.status).toBe(302);
    const [after] = await getDb().select({ on: eventSettings.participantPasswords }).from(eventSettings);
    expect(after.on).toBe(false);
    const records = await getDb().select().from(auditLog).where(eq(auditLog.kind, "event.participant-passwords"));
    expect(records).toEqual([expect.objectContaining({ actorId: admin.id, before: { participantPasswords: true }, after: { participantPasswords: false } })]);
    const page = answerOf(await callRoute(settingsRoute as never, "loader", { request: new Request("http://localhost/dashboard/settings", { headers: { Cookie: cookie } }), params: {}, context: {} }));
    expect(page.body).toMatchObject({ signIn: { stored: false, on: false, providerLabel: LABEL } });

    // A provider removed from the environment since: participants' passwords count as on again (no one is locked out).
    provider(false);
    expect((await loginPage()).body).toMatchObject({ participantPasswords: true, providerLabel: null });
    provider(true);
    expect((await loginPage()).body).toMatchObject({ participantPasswords: false, providerLabel: LABEL });
  });

  it("refuses a participant's right password with the sentence, a wrong one as any wrong one, and lets staff in", async () => {
    const participant = await makeUser("participant");
    const right = await logIn(participant.name);
    expect(right.status).toBe(403);
    expect(formErrors(right)).toEqual([offSentence]);
    // A wrong password says nothing of the account's role.
    const wrong = await logIn(participant.name, "not-the-password");
    expect(formErrors(wrong)).toEqual([messages.login.invalidCredentials]);
    for (const role of ["admin", "judge", "mentor"] as const) {
      const staff = await makeUser(role);
      const answer = await logIn(staff.name);
      expect(answer.status, role).toBe(302);
      expect((answer.body as Response).headers.get("Set-Cookie"), role).toBeTruthy();
    }

    const api = await send(loginApi as never, "POST", "/auth/login", { json: { username: participant.name, password: "fixture-password" } });
    expect(api.status).toBe(403);
    expect(api.body).toMatchObject({ code: "forbidden", message: offSentence });
    expect(api.headers.get("Set-Cookie")).toBeNull();
    const judge = await makeUser("judge");
    expect((await send(loginApi as never, "POST", "/auth/login", { json: { username: judge.name, password: "fixture-password" } })).status).toBe(200);
  });

  it("turns a participant's mailed link into one that confirms the address, never a password, and keeps staff's", async () => {
    // A participant's link mailed before passwords were turned off.
    await getDb().update(eventSettings).set({ participantPasswords: true });
    const to = address();
    const { id } = await createUser(testAdmin, { name: `linked-${process.pid}-${++serial}`, role: "participant", email: to, language: "en" });
    const [mail] = await waitForMails(to, started);
    const { token } = linkIn(mail);
    await getDb().update(users).set({ emailConfirmed: false }).where(eq(users.id, id));
    await getDb().update(eventSettings).set({ participantPasswords: false });

    // Opened: the page offers to confirm the address, and names the provider; nothing is spent.
    const open = () => callRoute(setPasswordRoute as never, "loader", { request: new Request(`http://localhost/set-password?${new URLSearchParams({ token })}`), params: {}, context: {} });
    const opened = answerOf(await open());
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ refusal: null, confirm: { address: to, provider: LABEL } });
    // Used to choose a password: refused with the sentence, the password untouched.
    const used = answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token, password: "a-new-password-1", confirm: "a-new-password-1" }), params: {}, context: {} }));
    expect(used.status).toBe(403);
    expect(JSON.stringify(used.body)).toContain(offSentence);
    const confirmedYet = async () => (await getDb().select({ passwordHash: users.passwordHash, confirmed: users.emailConfirmed }).from(users).where(eq(users.id, id)))[0];
    expect(await confirmedYet()).toEqual({ passwordHash: NO_PASSWORD, confirmed: false });

    // Used to confirm: the address is confirmed, the person is sent to sign in with the provider, every session of the
    // account ends (whoever held one may not share it with the address's owner), and it is recorded.
    await sessionCookie(id);
    const confirmed = answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token, intent: "confirm" }), params: {}, context: {} }));
    expect(confirmed.status).toBe(302);
    expect((confirmed.body as Response).headers.get("Location")).toBe("/login");
    expect(await confirmedYet()).toEqual({ passwordHash: NO_PASSWORD, confirmed: true });
    const records = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "user.address-confirmed"), eq(auditLog.subjectId, id)));
    expect(records).toEqual([expect.objectContaining({ actorId: id, after: { email: to, sessionsEnded: 1 } })]);
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    // Once.
    expect(answerOf(await open()).status).toBe(410);
    const again = answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token, intent: "confirm" }), params: {}, context: {} }));
    expect(again.status).toBe(410);

    // A link mailed to an address the account no longer has confirms nothing: refused with the sentence.
    await getDb().update(eventSettings).set({ participantPasswords: true });
    const moved = address();
    const other = await createUser(testAdmin, { name: `moved-${process.pid}-${++serial}`, role: "participant", email: moved, language: "en" });
    const { token: movedToken } = linkIn((await waitForMails(moved, started))[0]);
    await getDb().update(users).set({ email: address(), emailConfirmed: false }).where(eq(users.id, other.id));
    await getDb().update(eventSettings).set({ participantPasswords: false });
    const movedAnswer = answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token: movedToken, intent: "confirm" }), params: {}, context: {} }));
    expect(movedAnswer.status).toBe(403);
    expect((await getDb().select({ confirmed: users.emailConfirmed }).from(users).where(eq(users.id, other.id)))[0].confirmed).toBe(false);

    // An admin's new link: a mail that confirms the address, saying so. "Forgot your password?": the same answer, and no mail.
    await getDb().update(users).set({ emailConfirmed: false }).where(eq(users.id, id));
    expect(await sendSetPasswordLink(testAdmin, id)).toEqual({ address: to, confirms: true });
    const [, confirmMail] = await waitForMails(to, started, 2);
    expect(confirmMail.subject).toContain("confirm your address");
    expect(confirmMail.text).toContain(LABEL);
    expect(confirmMail.text).not.toMatch(/choose your password/i);
    // Passwords back on before it is used: the link chooses a password again, and says so to a confirm.
    const confirmToken = linkIn(confirmMail).token;
    await getDb().update(eventSettings).set({ participantPasswords: true });
    const turned = answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token: confirmToken, intent: "confirm" }), params: {}, context: {} }));
    expect(turned.status).toBe(409);
    expect(JSON.stringify(turned.body)).toContain(messages.mail.linkSetsPassword);
    await getDb().update(eventSettings).set({ participantPasswords: false });
    expect(answerOf(await callRoute(setPasswordRoute as never, "action", { request: post("/set-password", { token: confirmToken, intent: "confirm" }), params: {}, context: {} })).status).toBe(302);
    expect((await confirmedYet()).confirmed).toBe(true);
    const asked = answerOf(await callRoute(forgotRoute as never, "action", { request: post("/forgot-password", { email: to }), params: {}, context: {} }));
    expect(asked.status).toBe(302);
    const forgotPage = answerOf(await callRoute(forgotRoute as never, "loader", { request: new Request("http://localhost/forgot-password"), params: {}, context: {} }));
    expect(forgotPage.body).toMatchObject({ providerOnly: LABEL });

    // A judge asking at the same time gets their mail: the worker has handled both requests once the judge's arrives.
    const judgeAddress = address();
    const judge = await makeUser("judge");
    await getDb().update(users).set({ email: judgeAddress }).where(eq(users.id, judge.id));
    await callRoute(forgotRoute as never, "action", { request: post("/forgot-password", { email: judgeAddress }, undefined), params: {}, context: {} });
    await waitForMails(judgeAddress, started);
    const resets = await getDb().select().from(mails).where(and(eq(mails.userId, id), eq(mails.kind, "password_reset")));
    expect(resets).toEqual([]);
  });
});
