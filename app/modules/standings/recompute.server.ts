/**
 * The incremental standings writer: recompute one team from Postgres, keep its history and its
 * users' statistics, place it in the Redis order (O(log n), no other team touched), then publish
 * `teams:update`. Idempotent: running it twice changes nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { eventSettings, standings, standingsHistory, standingsOutbox, userStatistics } from "../../../db/schema.ts";
import { getDb } from "../../utils/db.server.ts";
import { getRedis } from "../../utils/redis.server.ts";
import { broadcastTeamStanding } from "../realtime/broadcast.server.ts";
import type { TeamStanding } from "../realtime/events.ts";
import {
  groupBy,
  scoredSubmissionsOfTeam,
  scoredSubmissionsOfUsers,
  teamNameAndCreation,
  teamStandingValues,
  toTeamStanding,
  totalsOf,
  userStatisticsValues,
  usersAffectedByTeam,
} from "./compute.server.ts";
import { lockBoardShared, lockTeam } from "./locks.ts";
import { nextStandingsVersion } from "./outbox.server.ts";
import { ensureSnapshotReady } from "./scoreboard.server.ts";
import { placeTeam, removeTeamFromSnapshot } from "./snapshot.server.ts";

export type RecomputeResult = { status: "skipped" } | { status: "removed" } | { status: "updated"; team: TeamStanding };

/** Recomputes a team whose outbox row is pending; a job that finds none has nothing to do. */
export async function recomputeTeamStanding(teamId: number): Promise<RecomputeResult> {
  // Outside the transaction: the rebuild takes the board lock exclusive, which our shared one would block.
  await ensureSnapshotReady();
  let broadcast: { team: TeamStanding; frozen: boolean; frozenRank: number | null } | null = null;
  const result = await getDb().transaction(async (tx): Promise<RecomputeResult> => {
    await lockTeam(tx, teamId);
    const [pending] = await tx.select({ version: standingsOutbox.version }).from(standingsOutbox).where(eq(standingsOutbox.teamId, teamId));
    if (!pending) return { status: "skipped" };
    // The shared board lock before any write: a rebuild holds it exclusive and then rewrites every row, so a
    // job that wrote first and waited for the lock afterwards would deadlock with it. Its Redis writes below
    // also happen under it (a rebuild cannot overwrite them with older data).
    await lockBoardShared(tx);

    const team = await teamNameAndCreation(tx, teamId);
    if (!team) {
      // The team was deleted (its standings row went with it): only the outbox row is left.
      await tx.delete(standingsOutbox).where(eq(standingsOutbox.teamId, teamId));
      await removeTeamFromSnapshot(getRedis(), teamId);
      return { status: "removed" };
    }

    // Read after the outbox version: anything committed before that version is in these rows.
    const values = teamStandingValues(totalsOf(await scoredSubmissionsOfTeam(tx, teamId)), team.createdAt);
    await refreshUserStatistics(tx, await usersAffectedByTeam(tx, teamId));

    const [previous] = await tx.select({ totalCenti: standings.totalCenti }).from(standings).where(eq(standings.teamId, teamId));
    await tx.insert(standings).values({ teamId, ...values }).onConflictDoUpdate({ target: standings.teamId, set: values });
    if (previous?.totalCenti !== values.totalCenti) {
      await tx.insert(standingsHistory).values({ teamId, totalCenti: values.totalCenti, at: values.totalReachedAt });
    }

    // Mirror to Redis before commit, under the team lock (snapshots of one team are written in
    // commit order) and the shared board lock. If Redis is down the job fails, rolls back and is retried.
    const standing = toTeamStanding(team, { ...values, rank: 0 }, await nextStandingsVersion(tx));
    standing.rank = await placeTeam(getRedis(), standing, values.totalCenti);

    await tx.delete(standingsOutbox).where(and(eq(standingsOutbox.teamId, teamId), eq(standingsOutbox.version, pending.version)));

    const [settings] = await tx
      .select({ frozen: eventSettings.scoreboardFrozen, frozenBoard: eventSettings.frozenBoard })
      .from(eventSettings)
      .where(eq(eventSettings.id, 1));
    const frozen = settings?.frozen ?? false;
    const frozenRank = frozen ? (settings?.frozenBoard?.find((entry) => entry.id === teamId)?.rank ?? null) : null;
    broadcast = { team: standing, frozen, frozenRank };
    return { status: "updated", team: standing };
  });
  // Published after commit: a browser that re-reads on this hint sees the committed standings.
  if (broadcast) {
    const { team, frozen, frozenRank } = broadcast;
    broadcastTeamStanding(team, { frozen, frozenRank });
  }
  return result;
}

/** Recomputes the statistics of these users from the submissions credited to them. */
export async function refreshUserStatistics(tx: Queryable, userIds: number[]) {
  if (userIds.length === 0) return;
  const byUser = groupBy(await scoredSubmissionsOfUsers(tx, userIds), (row) => row.userId);
  const rows = userIds.map((userId) => ({ userId, ...userStatisticsValues(totalsOf(byUser.get(userId) ?? [])) }));
  await tx
    .insert(userStatistics)
    .values(rows)
    .onConflictDoUpdate({
      target: userStatistics.userId,
      set: {
        aiCenti: sql`excluded.ai_centi`,
        csCenti: sql`excluded.cs_centi`,
        psCenti: sql`excluded.ps_centi`,
        gdCenti: sql`excluded.gd_centi`,
        totalCenti: sql`excluded.total_centi`,
        aiSolved: sql`excluded.ai_solved`,
        csSolved: sql`excluded.cs_solved`,
        psSolved: sql`excluded.ps_solved`,
        gdSolved: sql`excluded.gd_solved`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Takes a team off the board before it is deleted (same transaction as the delete): its row goes
 * and its place in the Redis order; the teams below move up by themselves.
 */
export async function removeTeamFromStandings(tx: Queryable, teamId: number) {
  await lockTeam(tx, teamId);
  await lockBoardShared(tx);
  await tx.delete(standings).where(eq(standings.teamId, teamId));
  await removeTeamFromSnapshot(getRedis(), teamId);
}
