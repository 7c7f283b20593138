/**
 * Mail to users (docs/domain.md "Mail"): a mail is a row of `mails`, written in the transaction that asks
 * for it (an account made, a link an admin sends again, a forgotten password resolved), and a `mail` job
 * that a worker runs after the commit (./delivery.server.ts). Never sent inside a request. A row whose job
 * never reached Redis is found by the workers' sweep and queued again (the job's id is the row's: never twice).
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { mails, users, type MailKind } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { isMailOff, mailSettings } from "../../infrastructure/mail.server.ts";
import { enqueueMany } from "../../infrastructure/queue.server.ts";
import { readParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import type { Language } from "../i18n/i18n.ts";
import { messages } from "../messages.ts";

/** Whether this server sends mail (SMTP configured); when not, the flows that need it say so. */
export function mailIsOn(): boolean {
  return !isMailOff(mailSettings());
}

/** How the Users page and the others say that mail is off (null: it is on). */
export function mailOffMessage(): string | null {
  return mailIsOn() ? null : messages.mail.off;
}

export interface MailToQueue {
  userId: number;
  kind: MailKind;
  toAddress: string;
  language: Language;
}

/** Writes the mails in the caller's transaction; their ids, to dispatch once it has committed. */
export async function queueMails(tx: Queryable, wanted: readonly MailToQueue[]): Promise<number[]> {
  if (wanted.length === 0) return [];
  const rows = await tx.insert(mails).values(wanted.map((mail) => ({ ...mail }))).returning({ id: mails.id });
  return rows.map((row) => row.id);
}

export const mailJobId = (mailId: number) => `mail-${mailId}`;

/**
 * Puts the mails on the queue (after the commit that wrote them). Never throws: a Redis that does not
 * answer leaves them queued in Postgres, where the sweep finds them.
 */
export async function dispatchMails(ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    await enqueueMany(
      "mail",
      ids.map((mailId) => ({ kind: "send" as const, mailId })),
      (payload) => mailJobId(payload.kind === "send" ? payload.mailId : 0),
    );
  } catch (error) {
    getLogger().warn({ err: error, mails: ids.length }, "mail not queued yet: the workers' sweep will queue it");
  }
}

/** A mail left queued this long without a change has lost its job (Redis was away): queued again. */
export const SWEEP_AFTER_MS = 2 * 60_000;

/** Queues again the mails whose job never reached Redis; how many. */
export async function sweepQueuedMails(now = Date.now()): Promise<number> {
  const rows = await getDb()
    .select({ id: mails.id })
    .from(mails)
    .where(and(eq(mails.status, "queued"), lt(mails.updatedAt, new Date(now - SWEEP_AFTER_MS))))
    .orderBy(mails.updatedAt)
    .limit(500);
  if (rows.length === 0) return 0;
  await enqueueMany(
    "mail",
    rows.map((row) => ({ kind: "send" as const, mailId: row.id })),
    (payload) => mailJobId(payload.kind === "send" ? payload.mailId : 0),
  );
  // Touched, so the next sweep waits for this job's tries before queueing it again.
  await getDb()
    .update(mails)
    .set({ updatedAt: new Date(now) })
    .where(sql`${mails.id} in (${sql.join(rows.map((row) => sql`${row.id}`), sql`, `)})`);
  return rows.length;
}

/** What was sent to a user, newest first: what an admin reads on the user's page (never a link). */
export async function listMailsOf(userId: number, limit = 20) {
  const rows = await getDb()
    .select({
      id: mails.id,
      kind: mails.kind,
      toAddress: mails.toAddress,
      status: mails.status,
      attempts: mails.attempts,
      smtpResponse: mails.smtpResponse,
      lastError: mails.lastError,
      createdAt: mails.createdAt,
      sentAt: mails.sentAt,
      failedAt: mails.failedAt,
    })
    .from(mails)
    .where(eq(mails.userId, userId))
    .orderBy(desc(mails.id))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    failedAt: row.failedAt?.toISOString() ?? null,
  }));
}

export type UserMail = Awaited<ReturnType<typeof listMailsOf>>[number];

/**
 * An admin sends a user a new set-password link (Users page, or the API): refused when mail is off or the
 * user has no address. The link is made when the worker sends it. Returns the address it goes to, and whether
 * the link confirms the address instead (a participant while passwords are off for participants: docs/domain.md).
 */
export async function sendSetPasswordLink(actor: Actor, userId: number): Promise<{ address: string; confirms: boolean }> {
  if (!mailIsOn()) throw new DomainError(messages.mail.off, { status: 409 });
  const { id, address, confirms } = await getDb().transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email, language: users.language, role: users.role }).from(users).where(eq(users.id, userId)).for("key share");
    if (!user) throw new DomainError(messages.dashboard.userNotFound, { status: 404 });
    if (!user.email) throw new DomainError(messages.mail.noAddress, { status: 409 });
    const [mailId] = await queueMails(tx, [{ userId, kind: "set_password", toAddress: user.email, language: user.language }]);
    await recordAudit(tx, actor, { kind: "mail.link-sent", userId, subjectId: mailId, after: { to: user.email } });
    return { id: mailId, address: user.email, confirms: user.role === "participant" && !(await readParticipantPasswords(tx)).on };
  });
  await dispatchMails([id]);
  return { address, confirms };
}
