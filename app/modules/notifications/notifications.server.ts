import { desc } from "drizzle-orm";
import { notifications } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { broadcastNotification } from "../realtime/broadcast.server.ts";


/** Stores the notification (history) and pushes it to every browser. */
export async function sendNotification(message: string, senderId: number) {
  const [row] = await getDb().insert(notifications).values({ message, sentBy: senderId }).returning();
  const event = { message: row.message, timestamp: row.createdAt.toISOString() };
  broadcastNotification(event);
  return { id: row.id, ...event };
}

export async function lastNotification() {
  const [row] = await getDb().select().from(notifications).orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(1);
  return row ? { message: row.message, timestamp: row.createdAt.toISOString() } : null;
}
