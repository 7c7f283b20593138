/**
 * The incremental standings writer: recompute one team from Postgres (its submissions' points and its
 * awards), keep its history and its
 * users' statistics, place it in the Redis order (O(log n), no other team touched), then publish
 * `teams:update` if anything of the team a client shows changed. Idempotent: running it twice changes nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { rowsOf, sendInOrder } from "../../../db/in-order.ts";
import { standings, standingsHistory, standingsOutbox, userStatistics } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { within } from "../../infrastructure/deadline.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { getMetrics } from "../../infrastructure/metrics.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { broadcastTeamStanding } from "../realtime/broadcast.server.ts";
import type { TeamStanding } from "../realtime/events.ts";
import {
  affectedUserIds,
  awardTotalsOf,
  groupBy,
  recomputeReadsOf,
  recomputeReadsSql,
  type ScoredRow,
  teamStandingValues,
  toTeamStanding,
  totalsOf,
  userStatisticsValues,
} from "./compute.server.ts";
import { lockBoardShared, lockTeam, lockUsersSql, teamThenBoardSharedSql } from "./locks.ts";
import { requestStandingsRecompute } from "./outbox.server.ts";
import { ensureSnapshotReady } from "./scoreboard.server.ts";
import { shownOf } from "./shown.ts";
import { placeTeam, removeTeamFromSnapshot, SnapshotNotReadyError } from "./snapshot.server.ts";

export type RecomputeResult = { status: "skipped" } | { status: "removed" } | { status: "updated"; team: TeamStanding };

/**
 * Recomputes a team whose outbox row is pending; a job that finds none has nothing to do.
 *
 * Four round trips to Postgres, not sixteen (docs/PERFORMANCE.md): the BEGIN with one statement that takes
 * the locks and reads the outbox version, one statement for every read (recomputeReadsSql), every write at
 * once with the Redis placement, then the commit. Only statements whose order does not matter go out
 * together: drizzle gives no promise about the order in which it sends queries started at the same time
 * (a first version that sent the locks and the reads together lost an update in the kill -9 test); what
 * must come after the locks is a statement of its own.
 */
export async function recomputeTeamStanding(teamId: number): Promise<RecomputeResult> {
  try {
    return await recomputeOnce(teamId);
  } catch (error) {
    if (!(error instanceof SnapshotNotReadyError)) throw error;
    // Redis lost the snapshot: the placement refused and the transaction rolled back. Rebuild it outside any
    // transaction (the rebuild takes the board lock exclusive, which our shared one would block), then again.
    await ensureSnapshotReady();
    return recomputeOnce(teamId);
  }
}

/**
 * The live path (a judge's score): the change's own process recomputes the team right after its commit, so
 * the board moves without a queue, a worker's pickup and a second process in between (docs/domain.md,
 * "Scoring and standings"). The queue stays the way round anything in the way: Redis not connected, the
 * team's recompute already running elsewhere, a rebuild or a freeze holding the board, the snapshot lost,
 * a row lock held past IN_REQUEST_ROW_LOCK_MS, Redis answering later than IN_REQUEST_REDIS_MS, any failure.
 * Then a job is enqueued, and if that fails too the outbox sweep enqueues one: the outbox row, committed
 * with the change, is what guarantees the update, never this call. It waits for no other recompute and no
 * rebuild (the advisory locks are only tried), so a judge's request is never held behind them.
 */
export async function recomputeStandingsNow(teamId: number): Promise<"request" | "queued" | "not_queued"> {
  const path = await recomputeOrQueue(teamId);
  getMetrics().scoreStandings().inc({ path });
  return path;
}

/** Row locks (the team's outbox row under another score's open transaction, users' statistics): at most this. */
const IN_REQUEST_ROW_LOCK_MS = 500;
/** The Redis placement in the request: at most this, then the transaction rolls back and the queue takes over. */
const IN_REQUEST_REDIS_MS = 1000;

async function recomputeOrQueue(teamId: number): Promise<"request" | "queued" | "not_queued"> {
  if (getRedis().status === "ready") {
    try {
      const result = await recomputeOnce(teamId, { waitForLocks: false });
      if (result.status !== "busy") return "request";
    } catch (error) {
      if (!(error instanceof SnapshotNotReadyError)) getLogger().warn({ err: error, teamId }, "standings not recomputed in the request; handed to the queue");
    }
  }
  return (await requestStandingsRecompute(teamId)) ? "queued" : "not_queued";
}

/**
 * A recompute's first statement: its team and board locks (teamThenBoardSharedSql: waited for, or only tried),
 * then, if both are held, the team's pending outbox version; and if there is one, the locks of the users whose
 * statistics the recompute writes (lockUsersSql), taken only when there is work. One row: `locked`, `version`
 * and `requested_at` (null: nothing pending). The outbox row is read in the snapshot this statement starts
 * with, before a lock it waited for was granted: it may show a version that the recompute holding the lock
 * then removed (this one recomputes again and removes nothing: its delete names that version), never miss
 * one that the change's own request or job comes after (a change commits before it asks for a recompute).
 */
function locksAndPendingSql(teamId: number, options: { tryWithinMs?: number }) {
  const held = sql`locks.team and locks.board`;
  return sql`select ${held} as locked, ${standingsOutbox.version} as version, ${standingsOutbox.requestedAt} as requested_at,
      case when ${held} and ${standingsOutbox.version} is not null then ${lockUsersSql(affectedUserIds(teamId))} end as users_locked
    from (${teamThenBoardSharedSql(teamId, options)}) locks left join ${standingsOutbox} on ${standingsOutbox.teamId} = ${teamId}`;
}

/**
 * The recompute itself. The snapshot's readiness is checked by the placement's own script (not by a round trip
 * to Redis before the transaction): a job on a ready snapshot, nearly every one, waits for one round trip less.
 */
async function recomputeOnce(teamId: number): Promise<RecomputeResult>;
async function recomputeOnce(teamId: number, options: { waitForLocks: false }): Promise<RecomputeResult | { status: "busy" }>;
async function recomputeOnce(teamId: number, { waitForLocks = true } = {}): Promise<RecomputeResult | { status: "busy" }> {
  type Publish = { team: TeamStanding; frozen: boolean; frozenRank: number | null; requestedAt: Date };
  let broadcast = null as Publish | null;
  const result = await getDb().transaction(async (tx): Promise<RecomputeResult | { status: "busy" }> => {
    // The shared board lock before any write: a rebuild holds it exclusive and then rewrites every row, so a
    // job that wrote first and waited for the lock afterwards would deadlock with it. Its Redis writes below
    // also happen under it (a rebuild cannot overwrite them with older data).
    // The reads go out with the locks (one round trip) in a statement of their own, which Postgres starts once
    // the locks' statement has ended, with a snapshot taken then: anything committed before the outbox version
    // read with the locks, or by the recompute that held a user's lock before this one, is in them. Without the
    // locks or work, they were read for nothing.
    const [locks, reads] = await sendInOrder(tx, [locksAndPendingSql(teamId, waitForLocks ? {} : { tryWithinMs: IN_REQUEST_ROW_LOCK_MS }), recomputeReadsSql(teamId)]);
    const [locked] = rowsOf(locks);
    if (locked?.locked !== true) return { status: "busy" };
    if (locked.version === null) return { status: "skipped" };
    const pending = { version: Number(locked.version), requestedAt: standingsOutbox.requestedAt.mapFromDriverValue(locked.requested_at as string) as Date };
    const { team, teamRows, teamAwards, userIds, userRows, previous, freeze, version } = recomputeReadsOf(rowsOf(reads)[0]);

    if (!team) {
      // The team was deleted (its standings row went with it): only the outbox row is left.
      await tx.delete(standingsOutbox).where(eq(standingsOutbox.teamId, teamId));
      await removeTeamFromSnapshot(getRedis(), teamId);
      return { status: "removed" };
    }

    // Awards are team points: in the team's standing, never in its users' statistics.
    const values = teamStandingValues(totalsOf(teamRows), awardTotalsOf(teamAwards), team.createdAt);
    const standing = toTeamStanding(team, { ...values, rank: 0 }, version);
    const shown = shownOf(standing);
    // Mirror to Redis before commit, under the team lock (snapshots of one team are written in
    // commit order) and the shared board lock. If Redis is down the job fails, rolls back and is retried.
    // In a request, Redis gets a deadline: a Redis that holds the connection open without answering must not hold
    // the judge, a pool connection and the team's locks. Placed late (after the rollback), the retry still publishes.
    const placement = placeTeam(getRedis(), standing, values.totalCenti);
    const [rank] = await Promise.all([
      waitForLocks ? placement : within(placement, IN_REQUEST_REDIS_MS, `the standings placement: no answer within ${IN_REQUEST_REDIS_MS} ms`),
      writeUserStatistics(tx, userIds, userRows),
      tx.insert(standings).values({ teamId, ...values, shown }).onConflictDoUpdate({ target: standings.teamId, set: { ...values, shown } }),
      previous?.totalCenti !== values.totalCenti
        ? tx.insert(standingsHistory).values({ teamId, totalCenti: values.totalCenti, at: values.totalReachedAt })
        : null,
      tx.delete(standingsOutbox).where(and(eq(standingsOutbox.teamId, teamId), eq(standingsOutbox.version, pending.version))),
    ]);
    standing.rank = rank;
    // Nothing a client shows changed since the last committed job (a first answer still pending, an answer sent
    // again, a score that leaves the totals where they were): no event to every socket (docs/PERFORMANCE.md).
    // Decided on Postgres's row, not on Redis (which a job rolled back after its placement leaves ahead): the
    // retry of such a job still publishes.
    if (previous?.shown !== shown) broadcast = { team: standing, ...freeze, requestedAt: pending.requestedAt };
    return { status: "updated", team: standing };
  });
  // Published after commit: a browser that re-reads on this hint sees the committed standings.
  if (broadcast) {
    const { team, frozen, frozenRank, requestedAt } = broadcast;
    try {
      broadcastTeamStanding(team, { frozen, frozenRank });
      // The live path's lag: from the change's transaction (it marked the team stale) to this publish.
      getMetrics().liveLag().observe(Math.max(0, Date.now() - requestedAt.getTime()) / 1000);
    } catch (error) {
      // Committed: a retry would find nothing to do. The event is a hint; browsers re-read on reconnect or resync.
      getLogger().warn({ err: error, teamId }, "teams:update not published");
    }
  }
  return result;
}

/** Writes the statistics of these users from the submissions credited to them. */
async function writeUserStatistics(tx: Queryable, userIds: number[], scored: ScoredRow[]) {
  if (userIds.length === 0) return;
  const byUser = groupBy(scored, (row) => row.userId);
  // In id order: two recomputes writing the same users (someone credited on two teams) lock them in one order.
  const rows = [...userIds].sort((a, b) => a - b).map((userId) => ({ userId, ...userStatisticsValues(totalsOf(byUser.get(userId) ?? [])) }));
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
