/**
 * What is kept, and for how long (docs/domain.md "Mail", "Retention"): a password link that was used or has
 * expired is kept LINK_RETENTION_DAYS (so a link replayed in that week is still told "already used" or
 * "expired" rather than "not valid"), then deleted; a mail row (what an admin reads per user: the address,
 * the server's answer, never a link) is kept MAIL_RETENTION_DAYS; a team invitation that expired or was revoked
 * is kept LINK_RETENTION_DAYS. Every worker prunes at start and hourly (workers/index.ts); deletes are
 * idempotent, so several workers pruning at once only find less to do.
 */
import { and, isNotNull, lt, or, sql } from "drizzle-orm";
import { mails, passwordLinks, teamInvites } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";

export const LINK_RETENTION_DAYS = 7;
export const MAIL_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

export async function pruneMailRecords(now = new Date()): Promise<{ links: number; mails: number; invites: number }> {
  const linkCutoff = new Date(now.getTime() - LINK_RETENTION_DAYS * DAY_MS);
  const mailCutoff = new Date(now.getTime() - MAIL_RETENTION_DAYS * DAY_MS);
  const db = getDb();
  const links = await db
    .delete(passwordLinks)
    .where(or(lt(passwordLinks.expiresAt, linkCutoff), and(isNotNull(passwordLinks.usedAt), lt(passwordLinks.usedAt, linkCutoff))))
    .returning({ id: passwordLinks.id });
  // A mail still waiting for its worker is never pruned, however old: it is sent or fails first.
  const oldMails = await db
    .delete(mails)
    .where(and(lt(mails.createdAt, mailCutoff), sql`${mails.status} <> 'queued'`))
    .returning({ id: mails.id });
  const invites = await db
    .delete(teamInvites)
    .where(or(lt(teamInvites.expiresAt, linkCutoff), and(isNotNull(teamInvites.revokedAt), lt(teamInvites.revokedAt, linkCutoff))))
    .returning({ id: teamInvites.id });
  return { links: links.length, mails: oldMails.length, invites: invites.length };
}
