import { eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { awards, challenges, submissions, teams, users } from "../../../db/schema.ts";
import { awardTotalsOf, type AwardTotals, type CountedAward } from "../awards/rules.ts";
import { fromCenti, totalsOf, type ScoredSubmission, type Totals } from "../scoring/rules.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { reachedAt } from "./ranking.ts";

/** The columns every standings computation reads, joined once (no N+1). */
const scoredColumns = {
  teamId: submissions.teamId,
  userId: submissions.userId,
  category: challenges.category,
  points: challenges.points,
  rejected: submissions.rejected,
  scoreCenti: submissions.scoreCenti,
  scoredAt: submissions.scoredAt,
};

export type ScoredRow = ScoredSubmission & { teamId: number; userId: number | null };

export async function scoredSubmissionsOfTeam(tx: Queryable, teamId: number): Promise<ScoredRow[]> {
  return tx.select(scoredColumns).from(submissions).innerJoin(challenges, eq(challenges.id, submissions.challengeId)).where(eq(submissions.teamId, teamId));
}

/**
 * What the users of usersAffectedByTeam are credited with (one query, no round trip for the ids
 * first). `= any(array(...))` makes the ids an init plan and the lookup an index scan on
 * submissions.user_id whatever the statistics say: as `in (subquery)` the planner chose a hash join
 * over every submission when the tables had not been analyzed yet (49 ms at 100,000 submissions).
 */
export async function scoredSubmissionsOfUsersAffectedByTeam(tx: Queryable, teamId: number): Promise<ScoredRow[]> {
  return tx
    .select(scoredColumns)
    .from(submissions)
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(sql`${submissions.userId} = any(array(${affectedUserIds(teamId)}))`);
}

/** The users whose statistics a recompute of the team writes: its members, and whoever is credited with one of its submissions. */
export const affectedUserIds = (teamId: number) => sql`
    select ${users.id} from ${users} where ${users.teamId} = ${teamId}
    union
    select ${submissions.userId} from ${submissions} where ${submissions.teamId} = ${teamId} and ${submissions.userId} is not null`;

export async function allScoredSubmissions(tx: Queryable): Promise<ScoredRow[]> {
  return tx.select(scoredColumns).from(submissions).innerJoin(challenges, eq(challenges.id, submissions.challengeId));
}

/** The columns an award's count reads (revoked ones included: their revoke is a change of the total). */
const awardColumns = {
  teamId: awards.teamId,
  pointsCenti: awards.pointsCenti,
  category: awards.category,
  createdAt: awards.createdAt,
  revokedAt: awards.revokedAt,
};

export type AwardRow = CountedAward & { teamId: number };

export async function awardsOfTeam(tx: Queryable, teamId: number): Promise<AwardRow[]> {
  return tx.select(awardColumns).from(awards).where(eq(awards.teamId, teamId));
}

export async function allAwards(tx: Queryable): Promise<AwardRow[]> {
  return tx.select(awardColumns).from(awards);
}

/** Everyone whose statistics a change to this team can move: its members and the users credited. */
export async function usersAffectedByTeam(tx: Queryable, teamId: number): Promise<number[]> {
  const rows = await tx.execute<{ id: number }>(sql`select id from (${affectedUserIds(teamId)}) affected(id)`);
  return rows.map((row) => Number(row.id));
}

export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The per-category and total columns that standings and user statistics share. */
function pointColumns(totals: Totals) {
  return {
    aiCenti: totals.categories.AI,
    csCenti: totals.categories.CS,
    psCenti: totals.categories.PS,
    gdCenti: totals.categories.GD,
    totalCenti: totals.totalCenti,
  };
}

/**
 * A team's standing: its submissions' points plus its awards' (team points: an award counts in the total and
 * in its category, never in a solved count), and when it reached that total (app/modules/standings/ranking.ts).
 */
export function teamStandingValues(totals: Totals, awarded: AwardTotals, createdAt: Date) {
  return {
    aiCenti: totals.categories.AI + awarded.categories.AI,
    csCenti: totals.categories.CS + awarded.categories.CS,
    psCenti: totals.categories.PS + awarded.categories.PS,
    gdCenti: totals.categories.GD + awarded.categories.GD,
    totalCenti: totals.totalCenti + awarded.totalCenti,
    solvedCount: totals.solvedCount,
    totalReachedAt: reachedAt({ lastScoreChange: totals.lastScoredAt, lastAwardChange: awarded.lastChangedAt, createdAt }),
  };
}

export function userStatisticsValues(totals: Totals) {
  return {
    ...pointColumns(totals),
    aiSolved: totals.solvedByCategory.AI,
    csSolved: totals.solvedByCategory.CS,
    psSolved: totals.solvedByCategory.PS,
    gdSolved: totals.solvedByCategory.GD,
  };
}

export function toTeamStanding(
  team: { id: number; name: string; division: string | null },
  row: ReturnType<typeof teamStandingValues> & { rank: number },
  version: number,
): TeamStanding {
  return {
    id: team.id,
    version,
    name: team.name,
    totalScore: fromCenti(row.totalCenti),
    categories: { AI: fromCenti(row.aiCenti), CS: fromCenti(row.csCenti), PS: fromCenti(row.psCenti), GD: fromCenti(row.gdCenti) },
    solvedCount: row.solvedCount,
    rank: row.rank,
    reachedAt: row.totalReachedAt.toISOString(),
    division: team.division,
  };
}

export { awardTotalsOf, totalsOf };

export async function teamNameAndCreation(tx: Queryable, teamId: number) {
  const [team] = await tx.select({ id: teams.id, name: teams.name, division: teams.division, createdAt: teams.createdAt }).from(teams).where(eq(teams.id, teamId));
  return team ?? null;
}
