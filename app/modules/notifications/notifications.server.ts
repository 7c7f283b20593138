import { desc } from "drizzle-orm";
import { notifications } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { arabicOrNull } from "../i18n/content.ts";
import { broadcastNotification } from "../realtime/broadcast.server.ts";

/**
 * Stores the notification (history) and pushes it to every browser, in both languages: the Arabic beside
 * the English (empty: none); each browser shows its viewer's (docs/domain.md "Event content in two languages").
 */
export async function sendNotification(actor: Actor & { id: number }, message: string, arabic?: string | null) {
  const messageAr = arabicOrNull(arabic);
  const row = await getDb().transaction(async (tx) => {
    const [sent] = await tx.insert(notifications).values({ message, messageAr, sentBy: actor.id }).returning();
    await recordAudit(tx, actor, { kind: "notification.sent", subjectId: sent.id, after: { message, ...(messageAr === null ? {} : { messageAr }) } });
    return sent;
  });
  const event = { message: row.message, messageAr: row.messageAr, timestamp: row.createdAt.toISOString() };
  broadcastNotification(event);
  return { id: row.id, ...event };
}

/** The last notification sent, both languages. */
export async function lastNotification() {
  const [row] = await getDb().select().from(notifications).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(1);
  return row ? { message: row.message, messageAr: row.messageAr, timestamp: row.createdAt.toISOString() } : null;
}
