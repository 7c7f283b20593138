/**
 * The navigation's two counts for a signed-in viewer, in one statement: the announcements they have not
 * read (root layout) and their team's answered threads (participant layout), with the event data's
 * versions (the page's shared reads check them). Each count's rule stays in its module (announcements,
 * requests); this only sends them together, as a statement built once per pool (building it per request
 * cost more CPU than running it).
 */
import { sql } from "drizzle-orm";
import { preparedOnce } from "../../infrastructure/db.server.ts";
import { unreadAnnouncementsSql } from "../announcements/announcements.server.ts";
import { eventVersionsSql, parseEventVersions, type EventVersions } from "../event-data/shared.server.ts";
import { answeredThreadsSql } from "../requests/threads.server.ts";

export interface ViewerBadges {
  unreadAnnouncements: number;
  answeredThreads: number;
  /** The event data's versions at the same instant (app/modules/event-data/shared.server.ts). */
  versions: EventVersions | null;
}

/** No team has this id: a viewer without a team has no threads. */
const NO_TEAM = -1;

const badgesStatement = preparedOnce((db) =>
  db
    .select({
      unread: sql<number>`${unreadAnnouncementsSql(sql.placeholder("userId"))}::int`,
      answered: sql<number>`${answeredThreadsSql(sql.placeholder("teamId"))}::int`,
      versions: eventVersionsSql(),
    })
    .from(sql`(values (1)) as one (x)`)
    .prepare("viewer_badges"),
);

export async function viewerBadges(viewer: { id: number; teamId: number | null }): Promise<ViewerBadges> {
  const statement = badgesStatement();
  const [row] = await statement.execute({ userId: viewer.id, teamId: viewer.teamId ?? NO_TEAM });
  return { unreadAnnouncements: Number(row?.unread ?? 0), answeredThreads: Number(row?.answered ?? 0), versions: parseEventVersions(row?.versions) };
}
