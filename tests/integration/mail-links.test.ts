/**
 * Mail and set-password links end to end (docs/domain.md "Mail"), with the project's own SMTP server (started
 * by the services, as Postgres is) and a real BullMQ worker running the `mail` queue: the mail arrives, in the
 * user's language, as text and HTML with the event's name; its link works once; a forgotten password is
 * answered alike whether or not an account has the address, and queues a job either way; hostile input
 * (header injection, a 10,000-character address, a replayed link, a deleted user's link, 1,000 requests for
 * one address) is a clear 4xx or a silent no-op, and nothing is mailed that should not be.
 */
import { Worker } from "bullmq";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventSettings, mails, passwordLinks, sessions, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { closeMail } from "../../app/infrastructure/mail.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix, getQueue } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import { startSession } from "../../app/modules/auth/sessions.server.ts";
import { deliverMail } from "../../app/modules/mail/delivery.server.ts";
import { RESET_PER_ADDRESS } from "../../app/modules/mail/reset.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import { importAccounts } from "../../app/modules/imports/accounts-import.server.ts";
import { register } from "../../app/modules/registrations/registrations.server.ts";
import { createUser, deleteUser } from "../../app/modules/users/users.server.ts";
import * as forgotRoute from "../../app/routes/forgot-password.tsx";
import * as setPasswordRoute from "../../app/routes/set-password.tsx";
import { processMail } from "../../workers/processors/mail.ts";
import { actorFor, ensureEventSettings, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";
import { linkIn, mailsTo, waitForMails } from "../support/mailbox.ts";
import { answerOf, callRoute } from "../support/route-manifest.ts";

const started = Date.now();
let worker: Worker;
let serial = 0;
/** An address no other test (of this run or another) uses. */
const address = (domain = "example.org") => `mail-${process.pid}-${started}-${++serial}@${domain}`;

beforeAll(async () => {
  await ensureEventSettings();
  await getDb().update(eventSettings).set({ name: "Gatekeeper Cup" }).where(eq(eventSettings.id, 1));
  worker = new Worker(queues.mail.name, processMail, { connection: createRedis("worker"), prefix: bullPrefix(), concurrency: 4 });
});

afterAll(async () => {
  await worker.close();
  closeMail();
});

async function mailRowsOf(userId: number) {
  return getDb().select().from(mails).where(eq(mails.userId, userId)).orderBy(mails.id);
}

/** Waits until every mail of the user has left "queued". */
async function settled(userId: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await mailRowsOf(userId);
    if (rows.length > 0 && rows.every((row) => row.status !== "queued")) return rows;
    if (Date.now() > deadline) throw new Error(`mails of user ${userId} still queued: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const linkPage = (token: string) => new Request(`http://localhost/set-password?${new URLSearchParams({ token })}`);

async function openLink(token: string) {
  return answerOf(await callRoute(setPasswordRoute as never, "loader", { request: linkPage(token), params: {}, context: {} }));
}

async function useLink(token: string, password: string, confirm = password) {
  const request = new Request("http://localhost/set-password", { method: "POST", body: new URLSearchParams({ token, password, confirm }) });
  return answerOf(await callRoute(setPasswordRoute as never, "action", { request, params: {}, context: {} }));
}

async function askReset(email: string, ip = "198.51.100.7") {
  const request = new Request("http://localhost/forgot-password", { method: "POST", body: new URLSearchParams({ email }), headers: { "x-gatekeeper-client-ip": ip } });
  return answerOf(await callRoute(forgotRoute as never, "action", { request, params: {}, context: {} }));
}

const formError = (answer: { body: unknown }) => (answer.body as { error?: Record<string, string[]> }).error;

describe("a new account's set-password link", () => {
  it("is mailed through the SMTP server in the user's language, and works once", async () => {
    const team = await makeTeam();
    const to = address();
    const { id, linkMailed } = await createUser(actorFor(0, "Admin", "admin"), { name: `amina-${process.pid}-${serial}`, role: "participant", teamId: team.id, email: to, language: "ar" });
    expect(linkMailed).toBe(true);
    // Nobody signs in to it before a password is chosen.
    const [user] = await getDb().select().from(users).where(eq(users.id, id));
    expect(await verifyLogin(user.name, "")).toBeNull();

    const [mail] = await waitForMails(to, started);
    expect(mail.subject).toContain("Gatekeeper Cup");
    expect(mail.text).toContain("اختر كلمة مرورك");
    expect(mail.text).toContain(user.name);
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.headerLines.some((line) => /^Content-Language: ar/i.test(line))).toBe(true);
    const [row] = await settled(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, kind: "set_password", toAddress: to });
    expect(row.smtpResponse).toMatch(/^250 /);

    const { token } = linkIn(mail);
    // Stored hashed: no column of the table holds the token or its verifier.
    const dump = JSON.stringify(await getDb().select().from(passwordLinks));
    expect(dump).not.toContain(token.split(".")[1]);
    // The link's validity: 72 hours.
    const [link] = await getDb().select().from(passwordLinks).where(eq(passwordLinks.userId, id));
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBeCloseTo(72 * 3_600_000, -4);

    // Opening it (a mail scanner, the person) spends nothing.
    expect((await openLink(token)).status).toBe(200);
    expect((await openLink(token)).body).toMatchObject({ userName: user.name, purpose: "set", refusal: null });
    const used = await useLink(token, "a-new-password-1");
    expect(used.status).toBe(302);
    expect(used.location).toBe(`/login?${new URLSearchParams({ name: user.name })}`);
    expect(await verifyLogin(user.name, "a-new-password-1")).toMatchObject({ id });

    // Replayed: refused with a sentence, the password unchanged.
    const replay = await useLink(token, "someone-elses-1");
    expect(replay.status).toBe(410);
    expect((replay.body as { error?: Record<string, string[]> }).error?.[""]).toEqual([messages.mail.linkUsed]);
    expect((await openLink(token)).body).toMatchObject({ refusal: messages.mail.linkUsed });
    expect(await verifyLogin(user.name, "someone-elses-1")).toBeNull();
  });

  it("refuses a mistyped link, one for a deleted user, and an expired one, each with its sentence; nothing else is spent", async () => {
    const admin = actorFor(0, "Admin", "admin");
    const to = address();
    const { id } = await createUser(admin, { name: `gone-${process.pid}-${serial}`, role: "judge", email: to });
    const { token } = linkIn((await waitForMails(to, started))[0]);
    const [selector] = token.split(".");
    expect((await openLink(`${selector}.${"A".repeat(43)}`)).body).toMatchObject({ refusal: messages.mail.linkUnknown });
    expect((await useLink(`${selector}.${"A".repeat(43)}`, "whatever-123")).status).toBe(404);
    expect((await useLink("not-a-token", "whatever-123")).status).toBe(404);

    await getDb().update(passwordLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordLinks.selector, selector));
    expect((await openLink(token)).body).toMatchObject({ refusal: messages.mail.linkExpired });
    await getDb().update(passwordLinks).set({ expiresAt: new Date(Date.now() + 60_000) }).where(eq(passwordLinks.selector, selector));

    await deleteUser(admin, id);
    const gone = await useLink(token, "whatever-123");
    expect(gone.status).toBe(404);
    expect(formError(gone)?.[""]).toEqual([messages.mail.linkUnknown]);
  });

  it("goes to every account made from registrations, none of them with a password shown", async () => {
    const to = address();
    await register({ name: "Lina", lastName: "Haddad", email: to, phone: "0555", nationalId: "1", skill: "AI", tshirtSize: "M", hasTeam: "no" }, "203.0.113.50", "ar");
    // The same address registered again: kept, and refused an account of its own.
    await register({ name: "Lina", lastName: "Again", email: to.toUpperCase(), phone: "0555", nationalId: "1", skill: "AI", tshirtSize: "M", hasTeam: "no" }, "203.0.113.50");
    const ids = (await getDb().execute<{ id: number }>(sql`select id from registrations where lower(email) = ${to.toLowerCase()} order by id`)).map((row) => Number(row.id));
    const result = await createAccountsFromRegistrations(testAdmin, ids);
    expect(result.linksMailed).toBe(true);
    expect(result.created).toHaveLength(1);
    expect(result.created[0].password).toBeNull();
    expect(result.refused).toEqual([expect.objectContaining({ registrationId: ids[1], message: messages.mail.addressTaken })]);
    const [mail] = await waitForMails(to, started);
    expect(mail.text).toContain(result.created[0].userName);
    expect(mail.html).toContain('lang="ar"');
  });
});

describe("the accounts import", () => {
  it("mails a link to each row with an address and no password, generates the rest, and refuses an address twice", async () => {
    const [first, second] = [address(), address()];
    const stamp = `${process.pid}-${serial}`;
    const twice = await importAccounts(testAdmin, `name,role,email,language,password\nimp-a-${stamp},judge,${first},ar,\nimp-b-${stamp},judge,${first.toUpperCase()},,\n`);
    expect(twice).toMatchObject({ ok: false, check: { issues: [{ row: 3, messages: [`email: ${messages.imports.duplicateAddressInFile(2)}`] }] } });
    const result = await importAccounts(testAdmin, `name,role,email,language,password\nimp-a-${stamp},judge,${first},ar,\nimp-b-${stamp},judge,${second},,own-password-1\nimp-c-${stamp},judge,,,\n`);
    if (!result.ok) throw new Error(JSON.stringify(result.check));
    expect(result.accounts.map((account) => [account.linkMailedTo, account.generatedPassword === null])).toEqual([
      [first, true],
      [null, true],
      [null, false],
    ]);
    const [mail] = await waitForMails(first, started);
    expect(mail.html).toContain('dir="rtl"');
    // The row with a password of its own is mailed nothing.
    expect(mailsTo(second, started)).toEqual([]);
  });
});

describe("a failed send", () => {
  it("refused for good by the SMTP server (550) is failed at once, with the server's answer, and its link dropped", async () => {
    const { id } = await createUser(actorFor(0, "Admin", "admin"), { name: `bounce-${process.pid}-${serial}`, role: "judge", email: address("bounce.invalid") });
    const [row] = await settled(id);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.lastError).toMatch(/550/);
    expect(await getDb().select().from(passwordLinks).where(eq(passwordLinks.userId, id))).toEqual([]);
  });

  it("refused for now (451) is tried again, then shown failed after the last try", async () => {
    const judge = await makeUser("judge");
    await getDb().update(users).set({ email: address("defer.invalid") }).where(eq(users.id, judge.id));
    const [mailId] = (await getDb().insert(mails).values({ userId: judge.id, kind: "set_password", toAddress: (await getDb().select({ email: users.email }).from(users).where(eq(users.id, judge.id)))[0].email!, language: "en" }).returning({ id: mails.id })).map((row) => row.id);
    await expect(deliverMail(mailId, 1, 2)).rejects.toThrow(/not sent yet \(try 1 of 2\)/);
    expect((await mailRowsOf(judge.id))[0]).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/451/) });
    await expect(deliverMail(mailId, 2, 2)).rejects.toThrow(/failed/);
    expect((await mailRowsOf(judge.id))[0]).toMatchObject({ status: "failed", attempts: 2 });
  });
});

describe("forgot your password?", () => {
  it("answers alike for an address with an account and one without, queues a job for each, and mails only the account", async () => {
    const user = await makeUser("participant");
    const to = address();
    await getDb().update(users).set({ email: to, language: "en" }).where(eq(users.id, user.id));
    await startSession(user.id, { ip: null, userAgent: "laptop" });
    await startSession(user.id, { ip: null, userAgent: "phone" });
    const nobody = address();
    const known = await askReset(to.toUpperCase(), "198.51.100.21");
    const unknown = await askReset(nobody, "198.51.100.22");
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ status: 302, location: "/forgot-password?sent" });
    const jobs = await getQueue("mail").getJobs(["completed", "active", "waiting", "delayed"]);
    // The address as kept (its domain in lower case), whatever its case as typed.
    expect(jobs.map((job) => (job.data as { address?: string }).address?.toLowerCase())).toEqual(expect.arrayContaining([to, nobody]));

    const [mail] = await waitForMails(to, started);
    expect(mail.subject).toBe("Gatekeeper Cup: choose a new password");
    const [link] = await getDb().select().from(passwordLinks).where(eq(passwordLinks.userId, user.id));
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBeCloseTo(30 * 60_000, -4);
    // Using the link ends every session of the user.
    expect((await useLink(linkIn(mail).token, "brand-new-pass")).status).toBe(302);
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    // Nothing went to the address without an account (the queue drained: the known one's mail arrived after).
    expect(mailsTo(nobody, started)).toEqual([]);
  });

  it("refuses a 10,000-character address and one carrying a header with a clear 400, and queues nothing", async () => {
    const before = await getQueue("mail").count();
    for (const email of [`${"a".repeat(10_000)}@example.org`, `${address()}\r\nBcc: thief@example.org`, "x@y.example>\r\nSubject: hi"]) {
      const answer = await askReset(email, "198.51.100.23");
      expect(answer.status).toBe(400);
      expect(formError(answer)?.email?.[0]).toMatch(/Too long|valid email/);
    }
    expect(await getQueue("mail").count()).toBe(before);
  });

  it(`mails one address at most ${RESET_PER_ADDRESS.points} times an hour, whatever 1,000 requests from many networks ask; a network past its own limit is told to wait`, async () => {
    const user = await makeUser("participant");
    const to = address();
    await getDb().update(users).set({ email: to }).where(eq(users.id, user.id));
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      // 50 networks, 20 requests each: each network's last ones are past its limit.
      const answer = await askReset(to, `192.0.2.${i % 50}`);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    expect(statuses.get(302)).toBe(1000 - (statuses.get(429) ?? 0));
    const one = await askReset(to, "192.0.2.0");
    expect(one.status).toBe(429);
    expect(formError(one)?.[""]?.[0]).toMatch(/^Too many requests from your network\. Try again in/);
    const arrived = await waitForMails(to, started, RESET_PER_ADDRESS.points);
    // The sentinel: a mail to another address, asked after, arrives; by then nothing more came to this one.
    const sentinel = await makeUser("participant");
    const other = address();
    await getDb().update(users).set({ email: other }).where(eq(users.id, sentinel.id));
    await askReset(other, "198.51.100.99");
    await waitForMails(other, started);
    await settled(user.id);
    expect(mailsTo(to, started)).toHaveLength(arrived.length);
    expect(arrived).toHaveLength(RESET_PER_ADDRESS.points);
  });

  it("never lets a name or the event's name become a header", async () => {
    await getDb().update(eventSettings).set({ name: "Cup\r\nBcc: thief@example.org\r\nX-Evil: 1" }).where(eq(eventSettings.id, 1));
    try {
      const to = address();
      const { id } = await createUser(actorFor(0, "Admin", "admin"), { name: `evil\r\nBcc: thief@example.org-${process.pid}-${serial}`, role: "judge", email: to });
      const [mail] = await waitForMails(to, started);
      await settled(id);
      expect(mail.envelope.to).toEqual([to]);
      expect(mail.headerLines.filter((line) => /^(bcc|cc|x-evil)\s*:/im.test(line))).toEqual([]);
      expect(mail.subject).not.toMatch(/[\r\n]/);
    } finally {
      await getDb().update(eventSettings).set({ name: "Gatekeeper Cup" }).where(eq(eventSettings.id, 1));
    }
  });
});

describe("without an SMTP server", () => {
  it("refuses what needs mail with its sentence, and the forgotten-password page says so", async () => {
    process.env.SMTP_HOST = "none";
    resetEnvForTests();
    try {
      await expect(createUser(actorFor(0, "Admin", "admin"), { name: `nomail-${process.pid}`, role: "judge", email: address() })).rejects.toThrow(messages.mail.passwordNeeded);
      const answer = await askReset(address(), "198.51.100.30");
      expect(answer.status).toBe(409);
      expect(formError(answer)?.[""]).toEqual([messages.mail.off]);
      const page = answerOf(await callRoute(forgotRoute as never, "loader", { request: new Request("http://localhost/forgot-password"), params: {}, context: {} }));
      expect(page.body).toMatchObject({ mailOn: false });
    } finally {
      delete process.env.SMTP_HOST;
      resetEnvForTests();
    }
  });
});
