/**
 * Single-use links to choose a password (docs/domain.md "Mail"): `set` for a new account (valid
 * PASSWORD_LINK_HOURS, 72 by default), `reset` for a forgotten password (30 minutes). A link carries
 * `<selector>.<verifier>`: the selector (128 random bits) names the row, the verifier (256 random bits) proves
 * the link; only the verifier's SHA-256 is stored, and it is compared in constant time, so neither a database
 * leak nor the time an answer takes gives a usable link. Opening a link (GET) reads it; only submitting the
 * form (POST) uses it: mail scanners open links. Using it sets the password, spends the link and every other
 * unused link of the user, and ends every sign-in session of the user, in one transaction.
 *
 * While passwords are off for participants, a participant's mailed link chooses no password: it confirms the
 * address it was mailed to (the person shows they read that mailbox), so a first sign-in through the identity
 * provider may bind by it (docs/domain.md "Passwords off for participants").
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { mails, passwordLinks, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import { participantPasswordRefusal, readParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { hashPassword } from "../auth/password.server.ts";
import { forgetRecentUsers } from "../auth/recent-users.server.ts";
import { endSessionsOf } from "../auth/sessions.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";

export type LinkPurpose = "set" | "reset";

/** A reset link's life: long enough to open the mail, short enough that an old mailbox holds no live one. */
export const RESET_LINK_MINUTES = 30;

/** How long a link of this purpose stays usable. */
export function linkValidityMs(purpose: LinkPurpose): number {
  return purpose === "reset" ? RESET_LINK_MINUTES * 60_000 : getEnv().PASSWORD_LINK_HOURS * 3_600_000;
}

const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function verifierHash(verifier: string): Buffer {
  return createHash("sha256").update(verifier).digest();
}

/**
 * A new link for the user, in the caller's transaction; the token, plain, for the mail only (never stored,
 * never logged). An unused link the same mail carried before (an earlier try of it) is replaced.
 */
export async function createPasswordLink(tx: Queryable, link: { userId: number; purpose: LinkPurpose; mailId: number | null }, now = new Date()): Promise<string> {
  const selector = randomBytes(16).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  if (link.mailId !== null) await tx.delete(passwordLinks).where(and(eq(passwordLinks.mailId, link.mailId), isNull(passwordLinks.usedAt)));
  await tx.insert(passwordLinks).values({
    userId: link.userId,
    purpose: link.purpose,
    selector,
    verifierHash: verifierHash(verifier).toString("hex"),
    mailId: link.mailId,
    expiresAt: new Date(now.getTime() + linkValidityMs(link.purpose)),
  });
  return `${selector}.${verifier}`;
}

/** Removes the unused links a mail carried (its send failed: nobody got them). */
export async function dropLinksOfMail(tx: Queryable, mailId: number): Promise<void> {
  await tx.delete(passwordLinks).where(and(eq(passwordLinks.mailId, mailId), isNull(passwordLinks.usedAt)));
}

export type LinkState =
  | { state: "live"; userId: number; userName: string; purpose: LinkPurpose; expiresAt: Date; mailId: number | null }
  | { state: "unknown" | "used" | "expired" }
  // A participant's link while passwords are off for participants (docs/domain.md "Passwords off for participants"):
  // refused, or, when it was mailed to the account's address as it still is, a link that confirms that address.
  | { state: "refused"; refusal: DomainError }
  | { state: "confirm"; refusal: DomainError; userId: number; userName: string; mailId: number; address: string; providerLabel: string };

/**
 * The state of a link, read (not used): what its page shows. A malformed token is unknown. A live link of a
 * participant while passwords are off for participants is refused, with the sentence that says how to sign in.
 */
export async function readPasswordLink(token: string, db: Queryable = getDb(), now = new Date(), forUpdate = false): Promise<LinkState> {
  const parts = TOKEN.exec(token);
  if (!parts) return { state: "unknown" };
  const query = db
    .select({
      id: passwordLinks.id,
      userId: passwordLinks.userId,
      userName: users.name,
      role: users.role,
      address: users.email,
      mailedTo: mails.toAddress,
      mailId: passwordLinks.mailId,
      purpose: passwordLinks.purpose,
      verifierHash: passwordLinks.verifierHash,
      expiresAt: passwordLinks.expiresAt,
      usedAt: passwordLinks.usedAt,
    })
    .from(passwordLinks)
    .innerJoin(users, eq(users.id, passwordLinks.userId))
    .leftJoin(mails, eq(mails.id, passwordLinks.mailId))
    .where(eq(passwordLinks.selector, parts[1]));
  const [row] = forUpdate ? await query.for("update", { of: passwordLinks }) : await query;
  // The verifier is compared in constant time; a link of a deleted user went with the user (cascade).
  const stored = row ? Buffer.from(row.verifierHash, "hex") : Buffer.alloc(32);
  const matches = timingSafeEqual(stored.length === 32 ? stored : Buffer.alloc(32), verifierHash(parts[2])) && row !== undefined;
  if (!row || !matches) return { state: "unknown" };
  if (row.usedAt) return { state: "used" };
  if (row.expiresAt.getTime() <= now.getTime()) return { state: "expired" };
  const passwords = row.role === "participant" ? await readParticipantPasswords(db) : null;
  const refusal = passwords && participantPasswordRefusal(passwords);
  if (refusal) {
    const mailedHere = row.mailId !== null && row.address !== null && row.mailedTo !== null && row.address.toLowerCase() === row.mailedTo.toLowerCase();
    if (!mailedHere) return { state: "refused", refusal };
    return { state: "confirm", refusal, userId: row.userId, userName: row.userName, mailId: row.mailId!, address: row.address!, providerLabel: passwords?.providerOnly ?? "" };
  }
  return { state: "live", userId: row.userId, userName: row.userName, purpose: row.purpose, expiresAt: row.expiresAt, mailId: row.mailId };
}

/** Why a link cannot be used, as the page and the form say it. */
export function linkRefusal(link: Exclude<LinkState, { state: "live" }>): DomainError {
  if (link.state === "refused" || link.state === "confirm") return link.refusal;
  const state = link.state;
  if (state === "used") return new DomainError(messages.mail.linkUsed, { status: 410 });
  if (state === "expired") return new DomainError(messages.mail.linkExpired, { status: 410 });
  return new DomainError(messages.mail.linkUnknown, { status: 404 });
}

/**
 * What every use of a link does, in its transaction: the link is used, every other unused link of the user is
 * spent, and every sign-in session of the user ends. Returns how many sessions ended.
 */
async function spendLinkAndSessions(tx: Queryable, token: string, userId: number, now: Date): Promise<number> {
  const selector = TOKEN.exec(token)![1];
  await tx.update(passwordLinks).set({ usedAt: now }).where(eq(passwordLinks.selector, selector));
  await tx.delete(passwordLinks).where(and(eq(passwordLinks.userId, userId), isNull(passwordLinks.usedAt), ne(passwordLinks.selector, selector)));
  return endSessionsOf(tx, userId);
}

/**
 * Uses a link: the user's password becomes `password`, the link and every other unused link of the user are
 * spent, and every sign-in session of the user ends (the link's page starts none: the user signs in with
 * the new password). Throws the link's refusal when it is not live (used meanwhile: the row is locked, so
 * two submissions of one link cannot both pass). Returns the user's name, for the sign-in form.
 */
export async function spendPasswordLink(token: string, password: string, now = new Date(), ip: string | null = null): Promise<{ userName: string; sessionsEnded: number }> {
  // Hashing is the slow part: before the transaction holds the row. A refused link pays it too (no timing tell).
  const passwordHash = await hashPassword(password);
  const used = await getDb().transaction(async (tx) => {
    const link = await readPasswordLink(token, tx, now, true);
    if (link.state !== "live") throw linkRefusal(link);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, link.userId));
    // The link reached its person through the address it was mailed to: that address, if still the account's, is
    // confirmed (a first sign-in through the identity provider may then bind by it: docs/domain.md).
    if (link.mailId !== null) {
      await tx
        .update(users)
        .set({ emailConfirmed: true })
        .where(and(eq(users.id, link.userId), sql`lower(${users.email}) = (select lower(${mails.toAddress}) from ${mails} where ${mails.id} = ${link.mailId})`));
    }
    const sessionsEnded = await spendLinkAndSessions(tx, token, link.userId, now);
    // The person acted through the link, signed in nowhere: the record names them, "via a mailed link".
    const [user] = await tx.select({ role: users.role, teamId: users.teamId }).from(users).where(eq(users.id, link.userId));
    const actor: Actor = { id: link.userId, name: link.userName, role: user.role, via: "link", sessionId: null, tokenId: null, ip };
    await recordAudit(tx, actor, {
      kind: "user.password-set",
      userId: link.userId,
      teamId: user.teamId,
      subjectId: link.userId,
      after: { purpose: link.purpose, ...(sessionsEnded ? { sessionsEnded } : {}) },
    });
    return { userName: link.userName, sessionsEnded };
  });
  if (used.sessionsEnded > 0) forgetRecentUsers();
  return used;
}

/**
 * Uses a participant's link while passwords are off: the address it was mailed to, still the account's, is
 * confirmed; the link and every other unused link of the user are spent, and every sign-in session of the user
 * ends, as a password link's use ends them: the provider's first sign-in may now bind the account to the address's
 * owner, who must not share it with whoever held a session (someone who registered with another's address). No
 * password is set. Throws the link's refusal when it confirms nothing (used meanwhile, expired, or a password link
 * again: passwords back on, or the person made staff; the page then says to open it again). Returns the provider's
 * label, for the sign-in page.
 */
export async function confirmAddressByLink(token: string, now = new Date(), ip: string | null = null): Promise<{ providerLabel: string }> {
  const confirmed = await getDb().transaction(async (tx) => {
    const link = await readPasswordLink(token, tx, now, true);
    if (link.state === "live") throw new DomainError(messages.mail.linkSetsPassword, { status: 409 });
    if (link.state !== "confirm") throw linkRefusal(link);
    const [user] = await tx
      .update(users)
      .set({ emailConfirmed: true })
      .where(and(eq(users.id, link.userId), sql`lower(${users.email}) = lower(${link.address})`))
      .returning({ role: users.role, teamId: users.teamId });
    // The address changed since the link was read: it confirms nothing.
    if (!user) throw link.refusal;
    const sessionsEnded = await spendLinkAndSessions(tx, token, link.userId, now);
    const actor: Actor = { id: link.userId, name: link.userName, role: user.role, via: "link", sessionId: null, tokenId: null, ip };
    await recordAudit(tx, actor, {
      kind: "user.address-confirmed",
      userId: link.userId,
      teamId: user.teamId,
      subjectId: link.userId,
      after: { email: link.address, ...(sessionsEnded ? { sessionsEnded } : {}) },
    });
    return { providerLabel: link.providerLabel, sessionsEnded };
  });
  if (confirmed.sessionsEnded > 0) forgetRecentUsers();
  return { providerLabel: confirmed.providerLabel };
}
