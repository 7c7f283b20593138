import { and, count, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { z } from "zod";
import { announcements, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { broadcastAnnouncement } from "../realtime/broadcast.server.ts";
import type { AnnouncementEvent } from "../realtime/events.ts";
import { type AnnouncementSchema } from "./schema.ts";


function toEvent(row: typeof announcements.$inferSelect): AnnouncementEvent {
  return { id: row.id, title: row.title, content: row.content, createdAt: row.createdAt.toISOString() };
}

/** Stores the announcement (history), then tells every browser. `challengeId`: a question's answer, linked from that challenge's page. */
export async function createAnnouncement(actor: Actor & { id: number }, input: z.infer<typeof AnnouncementSchema> & { challengeId?: number | null }) {
  const row = await getDb().transaction(async (tx) => {
    const [created] = await tx.insert(announcements).values({ ...input, createdBy: actor.id }).returning();
    await recordAudit(tx, actor, { kind: "announcement.created", subjectId: created.id, after: { title: created.title, content: created.content, challengeId: created.challengeId } });
    return created;
  });
  const event = toEvent(row);
  broadcastAnnouncement(event);
  return event;
}

/** The answers published for a challenge (its page links them), newest first. */
export async function challengeAnswers(challengeId: number): Promise<AnnouncementEvent[]> {
  const rows = await getDb().select().from(announcements).where(eq(announcements.challengeId, challengeId)).orderBy(desc(announcements.createdAt), desc(announcements.id)).limit(50);
  return rows.map(toEvent);
}

export async function listAnnouncements(limit = 200): Promise<AnnouncementEvent[]> {
  const rows = await getDb().select().from(announcements).orderBy(desc(announcements.createdAt), desc(announcements.id)).limit(limit);
  return rows.map(toEvent);
}

/** Announcements newer than the user's last visit to /announcement (kept on the server). */
export async function countUnreadAnnouncements(userId: number): Promise<number> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(announcements)
    .innerJoin(users, eq(users.id, userId))
    .where(or(isNull(users.announcementsSeenAt), gt(announcements.createdAt, users.announcementsSeenAt)));
  return row?.n ?? 0;
}

/** Opening /announcement resets the unread count. */
export async function markAnnouncementsSeen(userId: number, at = new Date()) {
  await getDb()
    .update(users)
    .set({ announcementsSeenAt: at })
    .where(and(eq(users.id, userId), or(isNull(users.announcementsSeenAt), lt(users.announcementsSeenAt, at))));
}
