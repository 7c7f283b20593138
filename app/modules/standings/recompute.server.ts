/**
 * The incremental standings writer: recompute one team from Postgres (its submissions' points and its
 * awards), keep its history and its
 * users' statistics, place it in the Redis order (O(log n), no other team touched), then publish
 * `teams:update` if anything of the team a client shows changed. Idempotent: running it twice changes nothing.
 */
import { eq, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import type { Queryable, Transaction } from "../../../db/client.ts";
import { commitOf, GENERIC_PLANS, isCommitted, type Prebuilt, prebuilt, rowsOf, type Rows, sendInOrder, startInOrder, TransactionRolledBackError } from "../../../db/in-order.ts";
import { standings, standingsHistory, standingsOutbox, userStatistics } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { within } from "../../infrastructure/deadline.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { getMetrics } from "../../infrastructure/metrics.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { broadcastTeamStanding, broadcastTeamStandings } from "../realtime/broadcast.server.ts";
import type { TeamStanding } from "../realtime/events.ts";
import {
  affectedUserIds,
  affectedUserIdsOfTeams,
  awardTotalsOf,
  groupBy,
  historyPointAt,
  recomputeReadsOf,
  recomputeReads,
  type ScoredRow,
  teamStandingValues,
  toTeamStanding,
  totalsOf,
  userStatisticsValues,
} from "./compute.server.ts";
import type { OwnPoints } from "./frozen-view.ts";
import { atFreezeValues, frozenCentiByChallenge, ownPointsOf } from "./frozen-values.server.ts";
import { lockBoardShared, lockTeam, lockUsersSql, teamsThenBoardSharedThenUsersSql, teamThenBoardSharedSql } from "./locks.ts";
import { markTeamStale, requestStandingsRecompute } from "./outbox.server.ts";
import { ensureSnapshotReady } from "./scoreboard.server.ts";
import { shownOf } from "./shown.ts";
import { placeTeam, removeTeamFromSnapshot, SnapshotNotReadyError } from "./snapshot.server.ts";

export type RecomputeResult = { status: "skipped" } | { status: "removed" } | { status: "updated"; team: TeamStanding };

/**
 * Recomputes a team whose outbox row is pending; a job that finds none has nothing to do.
 *
 * Four round trips to Postgres, not sixteen (docs/performance-log.md): the BEGIN with one statement that takes
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
 * A change to one team's points, committed, then the team recomputed in the same request, on the same
 * connection (the live path: a judge's score, docs/domain.md "Scoring and standings"), so the board moves
 * without a queue, a worker's pickup and a second process in between. `change` runs in a transaction and
 * returns, not yet sent, the statements that finish it; they go out with the statement that marks the team
 * stale (the outbox row, which guarantees the update), the COMMIT, the recompute's BEGIN and its first
 * statements, in one round trip (sendInOrder; two transactions back to back, the boundary in that round
 * trip). The change is committed before the recompute starts, as with a job.
 *
 * The queue stays the way round anything in the way: Redis not connected, the team's recompute already
 * running elsewhere, a rebuild or a freeze holding the board, the snapshot lost, a row lock held past
 * IN_REQUEST_ROW_LOCK_MS, Redis answering later than IN_REQUEST_REDIS_MS, any failure of the recompute. Then
 * a job is enqueued, and if that fails too the outbox sweep enqueues one. It waits for no other recompute and
 * no rebuild (the advisory locks are only tried), so a judge's request is never held behind them. A failed
 * change throws, and nothing of it or of the recompute is kept.
 */
export async function changeTeamThenRecompute<T>(change: (tx: Transaction) => Promise<TeamChange<T>>): Promise<T> {
  let made: TeamChange<T> | undefined;
  const progress: Progress = { changeCommitted: false, recomputeCommitted: false };
  let recomputed: Recomputed | null = null;
  try {
    await getDb().transaction(async (tx) => {
      made = await change(tx);
      const finish = [...made.finish, markTeamStale({ teamId: made.teamId })];
      if (getRedis().status !== "ready") {
        // No Redis to place the team in: the change commits with its outbox row (the transaction's own COMMIT),
        // and the queue takes the team.
        for (const result of await sendInOrder(tx, finish)) rowsOf(result);
        return;
      }
      const each = startInOrder(tx, [...finish, sql`commit`, sql`begin`, GENERIC_PLANS, ...firstStatements(made.teamId, { inRequest: true })]);
      const boundary = finish.length;
      // Known the moment the COMMIT answers: a connection that closes before the rest answer rejects the
      // transaction before this callback could say so, and the change is committed all the same.
      void Promise.all(each.slice(0, boundary + 1)).then(
        (rows) => (progress.changeCommitted = isCommitted(rows[boundary])),
        () => undefined,
      );
      const sent = await Promise.allSettled(each);
      // The change's statements, then its COMMIT: Postgres ran it as a ROLLBACK if one of them failed, and that
      // failure (or the ROLLBACK, commitOf) is thrown; the transaction the BEGIN opened is rolled back by the throw.
      for (const result of sent.slice(0, boundary)) rowsOf(result);
      commitOf(sent[boundary]);
      progress.changeCommitted = true;
      // The BEGIN, the plans' setting.
      for (const result of sent.slice(boundary + 1, boundary + 3)) rowsOf(result);
      recomputed = await recomputeFrom(tx, made.teamId, sent.slice(boundary + 3), progress);
    });
  } catch (error) {
    // The change failed, or its COMMIT did: nothing of it is kept.
    if (!progress.changeCommitted || !made) throw error;
    // The change is committed. Its recompute too, and published, if its own COMMIT answered (what failed came
    // after: nothing to do again); else it was rolled back, and it is the queue's.
    if (!progress.recomputeCommitted) {
      if (!(error instanceof SnapshotNotReadyError)) getLogger().warn({ err: error, teamId: made.teamId }, "standings not recomputed in the request; handed to the queue");
      recomputed = null;
    }
  }
  // Committed: by the COMMIT sent with the recompute's statements, or by the transaction's own.
  const { value, teamId } = made!;
  const done = recomputed as Recomputed | null;
  // Done in the request: committed and published, or nothing to do (no version pending, the team gone).
  const inRequest = progress.recomputeCommitted || (done !== null && done.result.status !== "busy");
  const path = inRequest ? "request" : (await requestStandingsRecompute(teamId)) ? "queued" : "not_queued";
  getMetrics().scoreStandings().inc({ path });
  return value;
}

/** How far changeTeamThenRecompute got, each set the moment its COMMIT answered. */
interface Progress {
  changeCommitted: boolean;
  /** The recompute's writes committed, and its update published. */
  recomputeCommitted: boolean;
}

export interface TeamChange<T> {
  /** What changeTeamThenRecompute returns once the change is committed. */
  value: T;
  /** The team whose points the change moves. */
  teamId: number;
  /** The change's last statements, not yet sent (in this order; their results are not read). */
  finish: Array<SQL | Prebuilt>;
}

/** Row locks (the team's outbox row under another score's open transaction, users' statistics): at most this. */
const IN_REQUEST_ROW_LOCK_MS = 500;
/** The Redis placement in the request: at most this, then the transaction rolls back and the queue takes over. */
const IN_REQUEST_REDIS_MS = 1000;

/**
 * A recompute's first statement: its team and board locks (teamThenBoardSharedSql: waited for, or only tried),
 * then, if both are held, the team's pending outbox version; and if there is one, the locks of the users whose
 * statistics the recompute writes (lockUsersSql), taken only when there is work. One row: `locked`, `version`
 * and `requested_at` (null: nothing pending). The outbox row is read in the snapshot this statement starts
 * with, before a lock it waited for was granted: it may show a version that the recompute holding the lock
 * then removed (this one recomputes again and removes nothing: its delete names that version), never miss
 * one that the change's own request or job comes after (a change commits before it asks for a recompute).
 */
function locksAndPendingSql(teamId: SQLWrapper, locks: { tryWithin?: SQLWrapper }) {
  const held = sql`locks.team and locks.board`;
  return sql`select ${held} as locked, ${standingsOutbox.version} as version, ${standingsOutbox.requestedAt} as requested_at,
      case when ${held} and ${standingsOutbox.version} is not null then ${lockUsersSql(affectedUserIds(teamId))} end as users_locked
    from (${teamThenBoardSharedSql(teamId, locks)}) locks left join ${standingsOutbox} on ${standingsOutbox.teamId} = ${teamId}`;
}

/** locksAndPendingSql, built once: in a request (the locks only tried) and in a job (waited for). */
const locksInRequest = prebuilt(["teamId", "timeout"], ({ teamId, timeout }) => locksAndPendingSql(teamId, { tryWithin: timeout }));
const locksInJob = prebuilt(["teamId"], ({ teamId }) => locksAndPendingSql(teamId, {}));

/**
 * A recompute's first statements, to send together (sendInOrder): its locks and outbox version, then its reads.
 * Each time after the plans' setting (GENERIC_PLANS), the first statement of their transaction.
 */
function firstStatements(teamId: number, { inRequest }: { inRequest: boolean }): Prebuilt[] {
  // The reads go out with the locks (one round trip) in a statement of their own, which Postgres starts once
  // the locks' statement has ended, with a snapshot taken then: anything committed before the outbox version
  // read with the locks, or by the recompute that held a user's lock before this one, is in them. Without the
  // locks or work, they were read for nothing.
  return [inRequest ? locksInRequest({ teamId, timeout: `${IN_REQUEST_ROW_LOCK_MS}ms` }) : locksInJob({ teamId }), recomputeReads({ teamId })];
}

type Publish = { team: TeamStanding; frozen: boolean; frozenRank: number | null; own: OwnPoints | null; requestedAt: Date };
/** `publish`: what to publish once the transaction has committed (a job's; a request publishes on its own COMMIT). */
type Recomputed = { result: RecomputeResult | { status: "busy" }; publish: Publish | null };

/**
 * A job's recompute, in a transaction of its own; then its publish. The snapshot's readiness is checked by the
 * placement's own script (not by a round trip to Redis before the transaction): a job on a ready snapshot,
 * nearly every one, waits for one round trip less.
 */
async function recomputeOnce(teamId: number): Promise<RecomputeResult> {
  const { result, publish } = await getDb().transaction(async (tx) => {
    const [plans, ...first] = await sendInOrder(tx, [GENERIC_PLANS, ...firstStatements(teamId, { inRequest: false })]);
    rowsOf(plans);
    return recomputeFrom(tx, teamId, first, null);
  });
  publishStanding(teamId, publish);
  // Waiting for its locks, a job is never busy.
  return result as RecomputeResult;
}

/**
 * The recompute in `tx`, from what its first statements (firstStatements) answered: busy (a lock only tried
 * was held elsewhere), nothing pending, the team gone, or its standing written and placed, with what to
 * publish once the transaction has committed (publishStanding). `inRequest`: the locks were only tried, the
 * Redis placement gets its deadline, and the writes are committed here, in one round trip with them as a rule.
 */
async function recomputeFrom(
  tx: Queryable,
  teamId: number,
  [locks, reads]: PromiseSettledResult<Rows>[],
  inRequest: Progress | null,
  outboxDone: PendingOutbox[] | null = null,
): Promise<Recomputed> {
  // The shared board lock before any write: a rebuild holds it exclusive and then rewrites every row, so a
  // job that wrote first and waited for the lock afterwards would deadlock with it. Its Redis writes below
  // also happen under it (a rebuild cannot overwrite them with older data).
  const [locked] = rowsOf(locks);
  if (locked?.locked !== true) return { result: { status: "busy" }, publish: null };
  if (locked.version === null) return { result: { status: "skipped" }, publish: null };
  const pending = { version: Number(locked.version), requestedAt: standingsOutbox.requestedAt.mapFromDriverValue(locked.requested_at as string) as Date };
  const { team, teamRows, teamAwards, userIds, userRows, previous, freeze, frozenSolves, version } = recomputeReadsOf(rowsOf(reads)[0]);

  if (!team) {
    // The team was deleted (its standings row went with it): only the outbox row is left.
    await tx.delete(standingsOutbox).where(eq(standingsOutbox.teamId, teamId));
    await removeTeamFromSnapshot(getRedis(), teamId);
    return { result: { status: "removed" }, publish: null };
  }

  // Awards are team points: in the team's standing, never in its users' statistics.
  const awarded = awardTotalsOf(teamAwards);
  const values = teamStandingValues(totalsOf(teamRows), awarded, team.createdAt);
  const standing = toTeamStanding(team, { ...values, rank: 0 }, version);
  // While frozen, its own members see its dynamic flag solves at their values as of the freeze (null: as live).
  const own = frozenSolves.length === 0 ? null : ownPointsOf(teamStandingValues(totalsOf(atFreezeValues(teamRows, frozenCentiByChallenge(frozenSolves))), awarded, team.createdAt), values);
  const shown = shownOf(standing);
  // Mirror to Redis before commit, under the team lock (snapshots of one team are written in
  // commit order) and the shared board lock. If Redis is down the job fails, rolls back and is retried.
  // In a request, Redis gets a deadline: a Redis that holds the connection open without answering must not hold
  // the judge, a pool connection and the team's locks. Placed late (after the rollback), the retry still publishes.
  const placement = placeTeam(getRedis(), standing, values.totalCenti, own);
  const written = sendInOrder(tx, [
    recomputeWrites({
      teamId,
      statistics: JSON.stringify(userStatisticsRows(userIds, userRows)),
      aiCenti: values.aiCenti,
      csCenti: values.csCenti,
      psCenti: values.psCenti,
      gdCenti: values.gdCenti,
      totalCenti: values.totalCenti,
      solvedCount: values.solvedCount,
      totalReachedAt: values.totalReachedAt.toISOString(),
      shown,
      updatedAt: new Date().toISOString(),
      totalChanged: previous?.totalCenti !== values.totalCenti,
      historyAt: historyPointAt(previous?.reachedAt, values.totalReachedAt, new Date()).toISOString(),
      // A batch removes its teams' outbox rows in its last statement (outboxDone), not here: a row it removed here
      // would stay locked until the batch's COMMIT, and a solve marking that team would wait for it.
      pendingVersion: outboxDone ? null : pending.version,
    }),
  ]);
  // Nothing a client shows changed since the last committed job (a first answer still pending, an answer sent
  // again, a score that leaves the totals where they were): no event to every socket (docs/performance-log.md).
  // Decided on Postgres's row, not on Redis (which a job rolled back after its placement leaves ahead): the
  // retry of such a job still publishes.
  // `standing` by reference: its rank is set below, before anything is published.
  const publish = previous?.shown !== shown ? { team: standing, ...freeze, own, requestedAt: pending.requestedAt } : null;
  outboxDone?.push({ teamId, version: pending.version });
  if (inRequest) {
    // The COMMIT goes as soon as Redis has the team (never before: the placement is under the team's lock),
    // behind the writes if they have not answered yet, with a BEGIN after it: the transaction's own COMMIT ends
    // an empty one. A failed write makes Postgres run that COMMIT as a ROLLBACK, thrown here (commitOf's
    // reasons). The update is published the moment the COMMIT answers, inside the callback.
    standing.rank = await within(placement, IN_REQUEST_REDIS_MS, `the standings placement: no answer within ${IN_REQUEST_REDIS_MS} ms`);
    const [commit, begin] = startInOrder(tx, [sql`commit`, sql`begin`]);
    // A BEGIN that fails (its connection gone) fails the transaction's own COMMIT: the recompute is done by then.
    begin.catch(() => undefined);
    await Promise.all([written, commit]).then(([[writes], committed]) => {
      rowsOf(writes);
      if (!isCommitted(committed)) throw new TransactionRolledBackError();
      inRequest.recomputeCommitted = true;
      publishStanding(teamId, publish);
    });
    return { result: { status: "updated", team: standing }, publish: null };
  }
  const [rank, [writes]] = await Promise.all([placement, written]);
  rowsOf(writes);
  standing.rank = rank;
  return { result: { status: "updated", team: standing }, publish };
}

/**
 * Several teams recomputed together, in one transaction, then published as one event: what a solve of a
 * dynamic challenge changes (every solver's points fall at once; docs/domain.md "Dynamic points"). Its
 * locks are every team's (in id order), the board's shared, then every user's whose statistics it writes (in
 * id order): the order each single recompute takes them in, so the batch and the jobs never wait in a circle.
 * Each team is then recomputed as a job recomputes it (its own locks are held already); the teams whose
 * standing a client shows changed go out in one `teams:batch`. `about`: what changed them (the event carries it).
 */
export async function recomputeTeamsTogether(teamIds: readonly number[], about: BatchCause | null = null): Promise<RecomputeResult[]> {
  const ids = [...new Set(teamIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  try {
    return await recomputeTogetherOnce(ids, about);
  } catch (error) {
    if (!(error instanceof SnapshotNotReadyError)) throw error;
    await ensureSnapshotReady();
    return recomputeTogetherOnce(ids, about);
  }
}

/** A team's outbox version a batch recomputed, removed at the batch's end. */
interface PendingOutbox {
  teamId: number;
  version: number;
}

/** What a batch recompute was for: a dynamic challenge's new value. */
export interface BatchCause {
  challengeId: number;
  value: number;
}

async function recomputeTogetherOnce(ids: number[], about: BatchCause | null): Promise<RecomputeResult[]> {
  const { results, publishes } = await getDb().transaction(async (tx) => {
    const idList = sql`${`{${ids.join(",")}}`}`;
    for (const result of await sendInOrder(tx, [GENERIC_PLANS, teamsThenBoardSharedThenUsersSql(idList, affectedUserIdsOfTeams(idList))])) rowsOf(result);
    const results: RecomputeResult[] = [];
    const publishes: Publish[] = [];
    const outboxDone: PendingOutbox[] = [];
    for (const teamId of ids) {
      const { result, publish } = await recomputeFrom(tx, teamId, await sendInOrder(tx, firstStatements(teamId, { inRequest: false })), null, outboxDone);
      results.push(result as RecomputeResult);
      if (publish) publishes.push(publish);
    }
    // Each team's outbox row, if it still has the version its recompute read (a change meanwhile keeps it), in
    // the batch's last statement: locked only from here to the COMMIT.
    if (outboxDone.length > 0) {
      // Their rows locked in team id order first, as every statement marking several teams locks them (the delete's
      // own join may take them in any order): two of them never wait for each other in a circle.
      const teams = `{${outboxDone.map((done) => done.teamId).join(",")}}`;
      await tx.execute(sql`select 1 from ${standingsOutbox} where team_id = any(${teams}::int[]) order by team_id for update`);
      await tx.execute(sql`delete from ${standingsOutbox} o using unnest(${`{${outboxDone.map((done) => done.teamId).join(",")}}`}::int[],
          ${`{${outboxDone.map((done) => done.version).join(",")}}`}::bigint[]) done(team_id, version)
        where o.team_id = done.team_id and o.version = done.version`);
    }
    return { results, publishes };
  });
  publishStandings(publishes, about);
  return results;
}

/** Several teams' new standings, after commit, in one event (the frozen-board rule applied as to one). */
function publishStandings(publishes: readonly Publish[], about: BatchCause | null) {
  if (publishes.length === 0) return;
  try {
    broadcastTeamStandings(
      publishes.map(({ team, frozenRank, own }) => ({ team, frozenRank, own })),
      { frozen: publishes[0].frozen, about },
    );
    const now = Date.now();
    for (const { requestedAt } of publishes) getMetrics().liveLag().observe(Math.max(0, now - requestedAt.getTime()) / 1000);
  } catch (error) {
    getLogger().warn({ err: error, teams: publishes.length }, "teams:batch not published");
  }
}

/** Published after commit: a browser that re-reads on this hint sees the committed standings. */
function publishStanding(teamId: number, publish: Publish | null) {
  if (!publish) return;
  const { team, frozen, frozenRank, own, requestedAt } = publish;
  try {
    broadcastTeamStanding(team, { frozen, frozenRank, own });
    // The live path's lag: from the change's transaction (it marked the team stale) to this publish.
    getMetrics().liveLag().observe(Math.max(0, Date.now() - requestedAt.getTime()) / 1000);
  } catch (error) {
    // Committed: a retry would find nothing to do. The event is a hint; browsers re-read on reconnect or resync.
    getLogger().warn({ err: error, teamId }, "teams:update not published");
  }
}

/**
 * The statistics of these users from the submissions credited to them, as rows of user_statistics (snake_case,
 * for json_to_recordset), in id order: two recomputes writing the same users (someone credited on two teams)
 * lock their rows in one order.
 */
function userStatisticsRows(userIds: number[], scored: ScoredRow[]) {
  const byUser = groupBy(scored, (row) => row.userId);
  return [...userIds]
    .sort((a, b) => a - b)
    .map((userId) => {
      const value = userStatisticsValues(totalsOf(byUser.get(userId) ?? []));
      return {
        user_id: userId,
        ai_centi: value.aiCenti,
        cs_centi: value.csCenti,
        ps_centi: value.psCenti,
        gd_centi: value.gdCenti,
        total_centi: value.totalCenti,
        ai_solved: value.aiSolved,
        cs_solved: value.csSolved,
        ps_solved: value.psSolved,
        gd_solved: value.gdSolved,
      };
    });
}

/**
 * Every write of a recompute, in one statement built once (data-modifying WITHs all run, in one snapshot):
 * its users' statistics (a JSON array of userStatisticsRows), the team's standings row with what clients are
 * shown of it, a history point when the total moved, and the outbox row removed if it still has the version
 * the recompute read (a change that came meanwhile keeps it, and its own recompute runs).
 */
const recomputeWrites = prebuilt(
  ["teamId", "statistics", "aiCenti", "csCenti", "psCenti", "gdCenti", "totalCenti", "solvedCount", "totalReachedAt", "shown", "updatedAt", "totalChanged", "historyAt", "pendingVersion"],
  (value) => sql`
    with statistics as (
      insert into ${userStatistics} (user_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, ai_solved, cs_solved, ps_solved, gd_solved)
      select user_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, ai_solved, cs_solved, ps_solved, gd_solved
      from json_to_recordset(${value.statistics}::json) as row(user_id int, ai_centi int, cs_centi int, ps_centi int, gd_centi int, total_centi int, ai_solved int, cs_solved int, ps_solved int, gd_solved int)
      order by user_id
      on conflict (user_id) do update set ai_centi = excluded.ai_centi, cs_centi = excluded.cs_centi, ps_centi = excluded.ps_centi, gd_centi = excluded.gd_centi,
        total_centi = excluded.total_centi, ai_solved = excluded.ai_solved, cs_solved = excluded.cs_solved, ps_solved = excluded.ps_solved,
        gd_solved = excluded.gd_solved, updated_at = now()
    ), standing as (
      insert into ${standings} (team_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, solved_count, total_reached_at, shown)
      values (${value.teamId}::int, ${value.aiCenti}::int, ${value.csCenti}::int, ${value.psCenti}::int, ${value.gdCenti}::int, ${value.totalCenti}::int,
        ${value.solvedCount}::int, ${value.totalReachedAt}::timestamptz, ${value.shown}::text)
      on conflict (team_id) do update set ai_centi = excluded.ai_centi, cs_centi = excluded.cs_centi, ps_centi = excluded.ps_centi, gd_centi = excluded.gd_centi,
        total_centi = excluded.total_centi, solved_count = excluded.solved_count, total_reached_at = excluded.total_reached_at, shown = excluded.shown,
        updated_at = ${value.updatedAt}::timestamptz
    ), history as (
      insert into ${standingsHistory} (team_id, total_centi, at)
      select ${value.teamId}::int, ${value.totalCenti}::int, ${value.historyAt}::timestamptz where ${value.totalChanged}::boolean
    ), done as (
      delete from ${standingsOutbox} where team_id = ${value.teamId}::int and version = ${value.pendingVersion}::bigint
    )
    select 1 as written`,
);

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
