/**
 * The navigation's two counts for a signed-in viewer, in one statement: the announcements they have not
 * read (root layout) and their team's answered threads (participant layout), with the event data's
 * versions (the page's shared reads check them). Each count's rule stays in its module (announcements,
 * requests); this only sends them together, as a statement built once per pool (building it per request
 * cost more CPU than running it).
 *
 * A page whose own rows are the viewer's (the team's results on a gate, a challenge with the team's
 * submission, the team's awards, its threads) gets them in the same statement, as one JSON column: one
 * Postgres transaction for the whole page. Each page's SQL and its parser stay in the module that owns
 * the rows, which reads the same SQL alone when the page was not read with the badges.
 */
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { oneRow } from "../../../db/json.ts";
import { preparedOnce } from "../../infrastructure/db.server.ts";
import { unreadAnnouncementsSql } from "../announcements/announcements.server.ts";
import { parseTeamAwards, teamAwardsSql, type TeamAward } from "../awards/awards.server.ts";
import { eventVersionsSql, parseEventVersions, type EventVersions } from "../event-data/shared.server.ts";
import { answeredThreadsSql, parseTeamThreads, teamThreadsSql, type TeamThread } from "../requests/threads.server.ts";
import { challengeWithSubmissionSql, gateResultsSql, parseChallengeWithSubmission, parseGateResults, type ChallengeRow, type TeamResult } from "./board.server.ts";

/** What each page's own rows are, once parsed. */
export interface PageRowsByKind {
  /** /gate/:wave: the team's results on the gate's challenges (key: the wave). */
  gateResults: TeamResult[];
  /** /submition/:id: the challenge with its gate's opening and the team's submission (key: the challenge's id). */
  challenge: ChallengeRow | null;
  /** /status: the team's awards that count (no key: 0). */
  teamAwards: TeamAward[];
  /** /home: the team's threads (no key: 0). */
  teamThreads: TeamThread[];
}
export type PageRowsKind = keyof PageRowsByKind;

/** The page's rows to read with the badges: which, and the one number that names them (0 if none does). */
export interface PageRowsWant {
  kind: PageRowsKind;
  key: number;
}

export type PageRows = { [Kind in PageRowsKind]: { kind: Kind; key: number; rows: PageRowsByKind[Kind] } }[PageRowsKind];

const pageKinds: { [Kind in PageRowsKind]: { sql: (teamId: Placeholder, key: Placeholder) => SQL; parse: (column: unknown) => PageRowsByKind[Kind] } } = {
  gateResults: { sql: (teamId, wave) => gateResultsSql(teamId, wave), parse: parseGateResults },
  challenge: { sql: (teamId, challengeId) => challengeWithSubmissionSql(challengeId, teamId), parse: parseChallengeWithSubmission },
  teamAwards: { sql: (teamId) => teamAwardsSql(teamId), parse: parseTeamAwards },
  teamThreads: { sql: (teamId) => teamThreadsSql(teamId), parse: parseTeamThreads },
};

export interface ViewerBadges {
  unreadAnnouncements: number;
  answeredThreads: number;
  /** The event data's versions at the same instant (app/modules/event-data/shared.server.ts). */
  versions: EventVersions | null;
  /** The team the threads and the page's rows are of (the viewer's when read). */
  teamId: number | null;
  /** The page's own rows when they were asked for (`viewerBadges`'s `page`) and could be read, else null. */
  page: PageRows | null;
}

/** No team has this id: a viewer without a team has no threads, awards or submissions. */
const NO_TEAM = -1;

/** The badges alone (null) or with one kind of page rows: a statement of its own each, built once per pool. */
function badgesStatement(name: string, page: ((teamId: Placeholder, key: Placeholder) => SQL) | null) {
  return preparedOnce((db) =>
    db
      .select({
        unread: sql<number>`${unreadAnnouncementsSql(sql.placeholder("userId"))}::int`,
        answered: sql<number>`${answeredThreadsSql(sql.placeholder("teamId"))}::int`,
        versions: eventVersionsSql(),
        page: page ? page(sql.placeholder("teamId"), sql.placeholder("key")) : sql<null>`null`,
      })
      .from(oneRow())
      .prepare(name),
  );
}

const statements = {
  none: badgesStatement("viewer_badges", null),
  gateResults: badgesStatement("viewer_badges_gate_results", pageKinds.gateResults.sql),
  challenge: badgesStatement("viewer_badges_challenge", pageKinds.challenge.sql),
  teamAwards: badgesStatement("viewer_badges_team_awards", pageKinds.teamAwards.sql),
  teamThreads: badgesStatement("viewer_badges_team_threads", pageKinds.teamThreads.sql),
};

function parsePage(want: PageRowsWant, column: unknown): PageRows {
  switch (want.kind) {
    case "gateResults":
      return { kind: want.kind, key: want.key, rows: pageKinds.gateResults.parse(column) };
    case "challenge":
      return { kind: want.kind, key: want.key, rows: pageKinds.challenge.parse(column) };
    case "teamAwards":
      return { kind: want.kind, key: want.key, rows: pageKinds.teamAwards.parse(column) };
    case "teamThreads":
      return { kind: want.kind, key: want.key, rows: pageKinds.teamThreads.parse(column) };
  }
}

/**
 * `page`: the page's own rows to read in the same statement (the viewer's team's only), or null. If that
 * statement fails, the badges are read alone: the counts never depend on a page's SQL (the page's module
 * then reads its rows itself, and says so if they fail again).
 */
export async function viewerBadges(viewer: { id: number; teamId: number | null }, page: PageRowsWant | null = null): Promise<ViewerBadges> {
  const values = { userId: viewer.id, teamId: viewer.teamId ?? NO_TEAM, key: page?.key ?? 0 };
  let row;
  try {
    [row] = await statements[page?.kind ?? "none"]().execute(values);
  } catch (error) {
    if (page === null) throw error;
    return viewerBadges(viewer, null);
  }
  return {
    unreadAnnouncements: Number(row?.unread ?? 0),
    answeredThreads: Number(row?.answered ?? 0),
    versions: parseEventVersions(row?.versions),
    teamId: viewer.teamId,
    page: page && row ? parsedOrNull(page, row.page) : null,
  };
}

/** Rows that cannot be parsed fail the page, not the badges: left out, the page's module reads them and says so. */
function parsedOrNull(want: PageRowsWant, column: unknown): PageRows | null {
  try {
    return parsePage(want, column);
  } catch {
    return null;
  }
}
