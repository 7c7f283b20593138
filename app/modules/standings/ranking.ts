/**
 * The ranking order, in one place (docs/domain.md "Scoring and standings"): total points descending; equal
 * totals go to the team that reached its total first; then the lower team id, so the order is total and
 * stable. The reached-at time counts to the millisecond (what a JavaScript Date holds).
 *
 * A team reached its total at its latest change of counted points (`reachedAt`): a judge's action that
 * changed what one of its submissions counts, or an award given or revoked (an award moves the total as a
 * judge's score does); a team with neither reached its total (0) when it was created.
 *
 * The order is written here three ways, side by side, and nowhere else:
 * - `compareRank` (and `compareStandings` / `rankStandings` on the shape the browser holds): the rebuild's
 *   ranks, the live board's re-sort in the browser, and every division's board (./divisions.ts);
 * - `rankOrderMember` / `rankOrderScore`: the Redis sorted set the scoreboard reads, whose position is
 *   the rank;
 * - `rankOrderBy`: SQL, for what Postgres lists in that order (the standings export).
 * tests/integration/ranking-order.test.ts checks that the three agree on ties of every kind.
 *
 * No server-only import: the browser bundles this file for `compareStandings` (drizzle-orm declares
 * itself free of side effects, so the SQL helpers are dropped from that bundle).
 */
import { asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";
// The standing as the browser holds it (app/modules/realtime/events.ts calls it TeamStanding); named
// from its declaration so that the event catalogue, which sorts with this module, is not imported back.
import type { StoredTeamStanding as TeamStanding } from "../../../db/schema.ts";

/** What a team's place depends on. */
export interface RankKey {
  teamId: number;
  /** Total points, in hundredths. */
  totalCenti: number;
  /** When the team reached that total. */
  reachedAt: Date;
}

/**
 * When a team reached its total: the latest of its last score change (`submissions.scored_at`, which moves
 * only when the points a submission counts change) and its last award change (given or revoked); with
 * neither, when the team was created. Derived from Postgres alone, so the job and the rebuild agree.
 */
export function reachedAt(changes: { lastScoreChange: Date | null; lastAwardChange: Date | null; createdAt: Date }): Date {
  const { lastScoreChange, lastAwardChange, createdAt } = changes;
  if (lastScoreChange && lastAwardChange) return lastAwardChange > lastScoreChange ? lastAwardChange : lastScoreChange;
  return lastScoreChange ?? lastAwardChange ?? createdAt;
}

/** Total descending; then who reached it first; then the lower id. */
export function compareRank(a: RankKey, b: RankKey): number {
  return b.totalCenti - a.totalCenti || a.reachedAt.getTime() - b.reachedAt.getTime() || a.teamId - b.teamId;
}

/** Ranks 1..n in the ranking order. */
export function rankAll<T extends RankKey>(rows: readonly T[]): Array<T & { rank: number }> {
  return [...rows].sort(compareRank).map((row, index) => ({ ...row, rank: index + 1 }));
}

/** The same order on the standings the browser holds (points with two decimals, reached-at as ISO text). */
export function compareStandings(a: TeamStanding, b: TeamStanding): number {
  return compareRank(rankKeyOf(a), rankKeyOf(b));
}

/**
 * Ranks 1..n of standings the browser holds, in the ranking order: the live board after an update, and a
 * division's board (some of the teams, ranked among themselves by this same rule). A team whose rank is
 * already right keeps its object.
 */
export function rankStandings(teams: readonly TeamStanding[]): TeamStanding[] {
  return [...teams].sort(compareStandings).map((team, index) => (team.rank === index + 1 ? team : { ...team, rank: index + 1 }));
}

export function rankKeyOf(team: TeamStanding): RankKey {
  return { teamId: team.id, totalCenti: Math.round(team.totalScore * 100), reachedAt: new Date(team.reachedAt) };
}

// Redis: a sorted set read highest first (ZREVRANGE, ZREVRANK). The score is the total; among equal
// scores Redis orders members by their bytes, highest first, so the member stores (maximum − reached-at)
// and (maximum − id), zero-padded: an earlier time and a lower id give a higher member.
const MAX_MS = 99_999_999_999_999;
const MAX_ID = 9_999_999_999;

/** The sorted-set score of a team: its total in hundredths. */
export function rankOrderScore(key: Pick<RankKey, "totalCenti">): number {
  return key.totalCenti;
}

/** The sorted-set member of a team, which breaks ties among equal scores. */
export function rankOrderMember(key: Pick<RankKey, "teamId" | "reachedAt">): string {
  return `${String(MAX_MS - key.reachedAt.getTime()).padStart(14, "0")}:${String(MAX_ID - key.teamId).padStart(10, "0")}`;
}

export function teamIdOfRankMember(member: string): number {
  return MAX_ID - Number(member.slice(member.indexOf(":") + 1));
}

/**
 * ORDER BY terms for rows that carry the three columns. A team without a standing yet (an outer join)
 * counts as 0 points and comes after the teams that have one, by id. The time is cut to the millisecond,
 * as the comparator and Redis see it.
 */
export function rankOrderBy(columns: { totalCenti: AnyColumn; reachedAt: AnyColumn; teamId: AnyColumn }): SQL[] {
  return [
    desc(sql`coalesce(${columns.totalCenti}, 0)`),
    sql`date_trunc('milliseconds', ${columns.reachedAt}) asc nulls last`,
    asc(columns.teamId),
  ];
}
