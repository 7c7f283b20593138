import { and, count, desc, eq, gt, isNull, lt, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { anyOf } from "../../../db/any-of.ts";
import { announcements, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { sharedReadBy, type EventVersions } from "../event-data/shared.server.ts";
import { broadcastAnnouncement } from "../realtime/broadcast.server.ts";
import type { AnnouncementEvent } from "../realtime/events.ts";
import { arabicOrNull, CONTENT_TEXTS, shownIn } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { type AnnouncementSchema } from "./schema.ts";


/** An announcement as the API and live events carry it: both languages (docs/domain.md "Event content in two languages"). */
function toEvent(row: typeof announcements.$inferSelect): AnnouncementEvent {
  return { id: row.id, title: row.title, content: row.content, titleAr: row.titleAr, contentAr: row.contentAr, createdAt: row.createdAt.toISOString() };
}

/** Announcements as a viewer of `language` reads them: one language. */
export function announcementsIn(list: readonly AnnouncementEvent[], language: Language) {
  return list.map((announcement) => shownIn(announcement, language, CONTENT_TEXTS.announcement));
}

/**
 * Stores the announcement (history), then tells every browser, in both languages (each shows its viewer's).
 * `challengeId`: a question's answer, linked from that challenge's page.
 */
export async function createAnnouncement(actor: Actor & { id: number }, input: z.infer<typeof AnnouncementSchema> & { challengeId?: number | null }) {
  const values = { title: input.title, content: input.content, titleAr: arabicOrNull(input.titleAr), contentAr: arabicOrNull(input.contentAr), challengeId: input.challengeId };
  const row = await getDb().transaction(async (tx) => {
    const [created] = await tx.insert(announcements).values({ ...values, createdBy: actor.id }).returning();
    const arabic = created.titleAr !== null || created.contentAr !== null ? { titleAr: created.titleAr, contentAr: created.contentAr } : {};
    await recordAudit(tx, actor, { kind: "announcement.created", subjectId: created.id, after: { title: created.title, content: created.content, ...arabic, challengeId: created.challengeId } });
    return created;
  });
  const event = toEvent(row);
  broadcastAnnouncement(event);
  return event;
}

/** The answers published for a challenge (its page links them), newest first. */
const answersOf = sharedReadBy(["announcements"], async (challengeId: number) =>
  (await getDb().select().from(announcements).where(eq(announcements.challengeId, challengeId)).orderBy(desc(announcements.createdAt), desc(announcements.id)).limit(50)).map(toEvent),
);

export async function challengeAnswers(challengeId: number, versions: EventVersions | null = null): Promise<AnnouncementEvent[]> {
  return (await answersOf(challengeId, versions)).map((event) => ({ ...event }));
}

/** The newest announcements, read once per version when given the request's (app/modules/event-data/shared.server.ts). */
const newestAnnouncements = sharedReadBy(["announcements"], async (limit: number) =>
  (await getDb().select().from(announcements).orderBy(desc(announcements.createdAt), desc(announcements.id)).limit(limit)).map(toEvent),
  8,
);

export async function listAnnouncements(limit = 200, versions: EventVersions | null = null): Promise<AnnouncementEvent[]> {
  return (await newestAnnouncements(limit, versions)).map((event) => ({ ...event }));
}

/** Announcements newer than the user's last visit to /announcement (kept on the server), as a scalar subquery. */
export function unreadAnnouncementsSql(userId: number | Placeholder): SQL<number> {
  return sql<number>`(${getDb()
    .select({ n: count() })
    .from(announcements)
    .innerJoin(users, eq(users.id, userId))
    .where(or(isNull(users.announcementsSeenAt), gt(announcements.createdAt, users.announcementsSeenAt)))})`;
}

export async function countUnreadAnnouncements(userId: number): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(sql`select ${unreadAnnouncementsSql(userId)}::int as n`);
  return Number(row?.n ?? 0);
}

/**
 * Opening /announcement: what it shows is seen. The instant kept is the newest shown announcement's own
 * `created_at` (Postgres's, to the microsecond), not a clock's: one the page did not show (committed
 * while the request ran) stays unread, whatever the web and database clocks say. Never moves back.
 */
export async function markShownAnnouncementsSeen(userId: number, shownIds: readonly number[]) {
  if (shownIds.length === 0) return;
  const newest = sql<Date>`(select max(${announcements.createdAt}) from ${announcements} where ${anyOf(announcements.id, shownIds)})`;
  await getDb()
    .update(users)
    .set({ announcementsSeenAt: newest })
    .where(and(eq(users.id, userId), or(isNull(users.announcementsSeenAt), lt(users.announcementsSeenAt, newest))));
}

/** An announcement arrived live on the open page: the unread count resets to now. */
export async function markAnnouncementsSeen(userId: number, at = new Date()) {
  await getDb()
    .update(users)
    .set({ announcementsSeenAt: at })
    .where(and(eq(users.id, userId), or(isNull(users.announcementsSeenAt), lt(users.announcementsSeenAt, at))));
}
