/**
 * One try at sending one mail, run by a worker (workers/processors/mail.ts; docs/domain.md "Mail"). The row
 * says to whom and what; the link it carries is made now (./password-links.server.ts), in a transaction of
 * its own that commits before the send, and replaces the link of an earlier try. The SMTP server's answer is
 * kept on the row: accepted (sent), refused for good (a 5xx: failed at once), or refused for now / not
 * reached (tried again with backoff by BullMQ; failed after the last try). A failed try drops its link. A
 * mail whose user was deleted, or whose user's address changed since, is not sent.
 */
import { UnrecoverableError } from "bullmq";
import { eq } from "drizzle-orm";
import { eventSettings, mails, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import { isMailOff, MailSendError, mailSettings, sendMail } from "../../infrastructure/mail.server.ts";
import { readParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { emailKey } from "./addresses.ts";
import { mailContent } from "./content.ts";
import { createPasswordLink, dropLinksOfMail, RESET_LINK_MINUTES } from "./password-links.server.ts";

export type DeliveryOutcome = { sent: true; response: string } | { sent: false; reason: "gone" | "done" | "address-changed" | "passwords-off" };

/** The page a link opens: the token in the query (the access log and the proxy's log keep the path only). */
export function passwordLinkUrl(origin: string, token: string): string {
  return `${origin}/set-password?${new URLSearchParams({ token })}`;
}

async function markFailed(mailId: number, attempts: number, reason: string, now = new Date()) {
  await getDb().transaction(async (tx) => {
    await tx.update(mails).set({ status: "failed", attempts, lastError: reason, failedAt: now }).where(eq(mails.id, mailId));
    await dropLinksOfMail(tx, mailId);
  });
}

/**
 * Sends mail `mailId`, this being try `attempt` of at most `of` (BullMQ's count). Throws to be tried again;
 * an UnrecoverableError when trying again is useless (the row then says failed).
 */
export async function deliverMail(mailId: number, attempt: number, of: number): Promise<DeliveryOutcome> {
  const [row] = await getDb()
    .select({
      status: mails.status,
      kind: mails.kind,
      toAddress: mails.toAddress,
      language: mails.language,
      attempts: mails.attempts,
      userId: users.id,
      userName: users.name,
      role: users.role,
      currentAddress: users.email,
    })
    .from(mails)
    .innerJoin(users, eq(users.id, mails.userId))
    .where(eq(mails.id, mailId));
  // Deleted with its user (cascade): nothing to send, nobody to tell.
  if (!row) return { sent: false, reason: "gone" };
  if (row.status !== "queued") return { sent: false, reason: "done" };
  const attempts = row.attempts + 1;
  if (!row.currentAddress || emailKey(row.currentAddress) !== emailKey(row.toAddress)) {
    await markFailed(mailId, attempts, "not sent: the user's address changed since it was asked for");
    return { sent: false, reason: "address-changed" };
  }
  const settings = mailSettings();
  if (isMailOff(settings)) {
    await markFailed(mailId, attempts, "not sent: mail is off on this server (SMTP_HOST)");
    throw new UnrecoverableError("mail is off");
  }
  const purpose = row.kind === "set_password" ? "set" : "reset";
  // A participant's mail while passwords are off: a new account's link confirms the address (password-links.server.ts);
  // a reset asked before passwords were turned off resets nothing any more.
  const passwords = await readParticipantPasswords();
  const participantWithoutPassword = row.role === "participant" && !passwords.on;
  if (participantWithoutPassword && row.kind === "password_reset") {
    await markFailed(mailId, attempts, "not sent: participants sign in with the identity provider");
    return { sent: false, reason: "passwords-off" };
  }
  const [token, [event]] = await Promise.all([
    getDb().transaction((tx) => createPasswordLink(tx, { userId: row.userId, purpose, mailId })),
    getDb().select({ name: eventSettings.name }).from(eventSettings).where(eq(eventSettings.id, 1)),
  ]);
  const confirmOnly = participantWithoutPassword && row.kind === "set_password";
  const content = mailContent({
    kind: confirmOnly ? "confirm_address" : row.kind,
    provider: passwords.providerLabel ?? "",
    language: row.language,
    eventName: event?.name ?? "Gatekeeper",
    userName: row.userName,
    link: passwordLinkUrl(settings.origin, token),
    validHours: getEnv().PASSWORD_LINK_HOURS,
    validMinutes: RESET_LINK_MINUTES,
  });
  try {
    const sent = await sendMail(settings, { to: row.toAddress, language: row.language, ...content });
    await getDb().update(mails).set({ status: "sent", attempts, smtpResponse: sent.response, lastError: null, sentAt: new Date() }).where(eq(mails.id, mailId));
    return { sent: true, response: sent.response };
  } catch (error) {
    const reason = error instanceof MailSendError ? error.message : "the mail was not sent";
    const permanent = error instanceof MailSendError && error.permanent;
    if (permanent || attempt >= of) {
      await markFailed(mailId, attempts, reason);
      throw new UnrecoverableError(`mail ${mailId} failed: ${reason}`);
    }
    await getDb().transaction(async (tx) => {
      await tx.update(mails).set({ attempts, lastError: reason }).where(eq(mails.id, mailId));
      await dropLinksOfMail(tx, mailId);
    });
    throw new Error(`mail ${mailId} not sent yet (try ${attempt} of ${of}): ${reason}`);
  }
}
