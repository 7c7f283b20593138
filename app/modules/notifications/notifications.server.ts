import { desc } from "drizzle-orm";
import { notifications } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { broadcastNotification } from "../realtime/broadcast.server.ts";


/** Stores the notification (history) and pushes it to every browser. */
export async function sendNotification(actor: Actor & { id: number }, message: string) {
  const row = await getDb().transaction(async (tx) => {
    const [sent] = await tx.insert(notifications).values({ message, sentBy: actor.id }).returning();
    await recordAudit(tx, actor, { kind: "notification.sent", subjectId: sent.id, after: { message } });
    return sent;
  });
  const event = { message: row.message, timestamp: row.createdAt.toISOString() };
  broadcastNotification(event);
  return { id: row.id, ...event };
}

export async function lastNotification() {
  const [row] = await getDb().select().from(notifications).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(1);
  return row ? { message: row.message, timestamp: row.createdAt.toISOString() } : null;
}
