/**
 * The full rebuild (`npm run standings:rebuild`, and the check the property test compares the
 * incremental writer against): every team's standing, rank and history point, and every user's
 * statistics, recomputed from submissions, scores and awards alone (awards count for teams, not users).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { eventSettings, standings, standingsHistory, standingsOutbox, teams, userStatistics, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { broadcastStandingsRefresh } from "../realtime/broadcast.server.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { allAwards, allScoredSubmissions, awardTotalsOf, groupBy, historyPointAt, teamStandingValues, toTeamStanding, totalsOf, userStatisticsValues } from "./compute.server.ts";
import type { OwnPoints } from "./frozen-view.ts";
import { atFreezeValues, frozenCentiByChallenge, frozenSolvesOf, frozenSolvesSql, ownPointsOf } from "./frozen-values.server.ts";
import { lockBoardExclusive } from "./locks.ts";
import { nextStandingsVersion } from "./outbox.server.ts";
import { rankAll } from "./ranking.ts";
import { shownOf } from "./shown.ts";
import { writeWholeSnapshot } from "./snapshot.server.ts";

export type ComputedStanding = ReturnType<typeof teamStandingValues> & { teamId: number; name: string; division: string | null; rank: number };

/**
 * The standings as a from-scratch computation says they must be (no writes); while frozen, also each team's
 * own points as its members see them, where they differ from its live ones (./frozen-values.server.ts).
 */
export async function computeAllStandings(tx: Queryable) {
  const [teamRows, scored, awarded, userRows, [frozen]] = await Promise.all([
    tx.select({ id: teams.id, name: teams.name, division: teams.division, createdAt: teams.createdAt }).from(teams),
    allScoredSubmissions(tx),
    allAwards(tx),
    tx.select({ id: users.id }).from(users),
    tx.execute<{ solves: unknown }>(sql`select ${frozenSolvesSql(null)} as solves`),
  ]);
  const byTeam = groupBy(scored, (row) => row.teamId);
  const awardsByTeam = groupBy(awarded, (row) => row.teamId);
  const own = new Map<number, OwnPoints>();
  const teamsById = new Map(teamRows.map((team) => [team.id, team]));
  for (const [teamId, solves] of groupBy(frozenSolvesOf(frozen?.solves), (solve) => solve.teamId)) {
    const team = teamsById.get(teamId);
    if (!team) continue;
    const rows = byTeam.get(teamId) ?? [];
    const awards = awardTotalsOf(awardsByTeam.get(teamId) ?? []);
    const points = ownPointsOf(
      teamStandingValues(totalsOf(atFreezeValues(rows, frozenCentiByChallenge(solves))), awards, team.createdAt),
      teamStandingValues(totalsOf(rows), awards, team.createdAt),
    );
    if (points) own.set(teamId, points);
  }
  const ranked = rankAll(
    teamRows.map((team) => {
      const values = teamStandingValues(totalsOf(byTeam.get(team.id) ?? []), awardTotalsOf(awardsByTeam.get(team.id) ?? []), team.createdAt);
      return { ...values, teamId: team.id, name: team.name, division: team.division, totalCenti: values.totalCenti, reachedAt: values.totalReachedAt };
    }),
  ).map(({ reachedAt: _reachedAt, ...row }) => row satisfies ComputedStanding);
  const byUser = groupBy(scored, (row) => row.userId);
  const userStats = userRows.map((user) => ({ userId: user.id, ...userStatisticsValues(totalsOf(byUser.get(user.id) ?? [])) }));
  return { standings: ranked, userStats, own };
}

export function toBoard(rows: readonly ComputedStanding[], version: number): TeamStanding[] {
  return rows.map((row) => toTeamStanding({ id: row.teamId, name: row.name, division: row.division }, row, version));
}

/** Rewrites the derived tables and the Redis snapshot from Postgres; clients re-read the board. */
export async function rebuildStandings(): Promise<{ teams: number; users: number }> {
  const outcome = await getDb().transaction(async (tx) => {
    await lockBoardExclusive(tx);
    const pending = await tx.select({ teamId: standingsOutbox.teamId, version: standingsOutbox.version }).from(standingsOutbox);
    const previous = new Map((await tx.select({ teamId: standings.teamId, totalCenti: standings.totalCenti, reachedAt: standings.totalReachedAt }).from(standings)).map((row) => [row.teamId, row]));
    const computed = await computeAllStandings(tx);

    await tx.delete(standings);
    for (const chunk of chunks(computed.standings, 1000)) {
      await tx.insert(standings).values(
        chunk.map(({ name, division, rank, ...row }) => ({ ...row, shown: shownOf(toTeamStanding({ id: row.teamId, name, division }, { ...row, rank }, 0)) })),
      );
    }
    const changed = computed.standings.filter((row) => previous.get(row.teamId)?.totalCenti !== row.totalCenti);
    const now = new Date();
    for (const chunk of chunks(changed, 1000)) {
      await tx
        .insert(standingsHistory)
        .values(chunk.map((row) => ({ teamId: row.teamId, totalCenti: row.totalCenti, at: historyPointAt(previous.get(row.teamId)?.reachedAt, row.totalReachedAt, now) })));
    }
    await tx.delete(userStatistics);
    for (const chunk of chunks(computed.userStats, 1000)) await tx.insert(userStatistics).values(chunk);

    // What was pending is now done; a version that moved since stays for its own job.
    for (const { teamId, version } of pending) {
      await tx.delete(standingsOutbox).where(and(eq(standingsOutbox.teamId, teamId), eq(standingsOutbox.version, version)));
    }

    const version = await nextStandingsVersion(tx);
    const board = toBoard(computed.standings, version);
    const freeze = await readFreeze(tx);
    await writeWholeSnapshot(getRedis(), board, { ...freeze, own: computed.own, version });
    return { teams: computed.standings.length, users: computed.userStats.length };
  });
  broadcastStandingsRefresh();
  return outcome;
}

/** The freeze flag and, while frozen, the board participants see; the event's divisions. */
export async function readFreeze(tx: Queryable) {
  const [settings] = await tx
    .select({ frozen: eventSettings.scoreboardFrozen, frozenBoard: eventSettings.frozenBoard, divisions: eventSettings.divisions })
    .from(eventSettings)
    .where(eq(eventSettings.id, 1));
  return { frozen: settings?.frozen ?? false, frozenBoard: settings?.frozen ? (settings.frozenBoard ?? []) : null, divisions: settings?.divisions ?? [] };
}

function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let index = 0; index < rows.length; index += size) yield rows.slice(index, index + size);
}
