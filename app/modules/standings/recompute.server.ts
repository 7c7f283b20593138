/**
 * The incremental standings writer: recompute teams from Postgres (their answers' points and their awards), keep
 * their history and their users' statistics, place each in the Redis order (O(log n), no other team touched), then
 * publish what a client shows that changed: one team's `teams:update`, or several teams' `teams:batch`. A judge's
 * score recomputes its team in its own request (changeTeamThenRecompute); a job, a web process's batch of flag solves
 * and a dynamic challenge's round recompute any number of teams in one transaction (recomputeTeamsTogether).
 * Idempotent: running it twice changes nothing.
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
  type RecomputeReads,
  recomputeReadsOf,
  recomputeReads,
  recomputeReadsSql,
  type ScoredRow,
  teamStandingValues,
  toTeamStanding,
  totalsOf,
  userStatisticsValues,
} from "./compute.server.ts";
import type { OwnPoints } from "./frozen-view.ts";
import { atFreezeValues, frozenCentiByChallenge, ownPointsOf } from "./frozen-values.server.ts";
import { boardThenTeamsTriedThenUsersSql, lockBoardShared, lockTeam, lockUsersSql, teamsThenBoardSharedThenUsersSql, teamThenBoardSharedSql } from "./locks.ts";
import { markTeamStale, nextStandingsVersion, requestStandingsRecompute } from "./outbox.server.ts";
import { ensureSnapshotReady, rebuildSnapshotOnce } from "./scoreboard.server.ts";
import { shownOf } from "./shown.ts";
import { placeAndRemoveTeams, placeTeam, ranksNow, removeTeamFromSnapshot, SnapshotNotReadyError, StalePlacementError } from "./snapshot.server.ts";

export type RecomputeResult = { status: "skipped" } | { status: "removed" } | { status: "updated"; team: TeamStanding };

/**
 * Recomputes a team whose outbox row is pending (a job); a job that finds none has nothing to do. A batch of one
 * (recomputeTeamsTogether): four round trips to Postgres, not sixteen (docs/performance-log.md).
 */
export async function recomputeTeamStanding(teamId: number): Promise<RecomputeResult> {
  const [result] = await recomputeTeamsTogether([teamId]);
  return result;
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
      const each = startInOrder(tx, [...finish, sql`commit`, sql`begin`, GENERIC_PLANS, ...firstStatements(made.teamId)]);
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
 * An in-request recompute's first statement: its team and board locks (teamThenBoardSharedSql, only tried),
 * then, if both are held, the team's pending outbox version; and if there is one, the locks of the users whose
 * statistics the recompute writes (lockUsersSql), taken only when there is work. One row: `locked`, `version`
 * and `requested_at` (null: nothing pending). The outbox row is read in the snapshot this statement starts
 * with: it never misses a version that the change's own request comes after (a change commits before it asks
 * for a recompute).
 */
function locksAndPendingSql(teamId: SQLWrapper, locks: { tryWithin: SQLWrapper }) {
  const held = sql`locks.team and locks.board`;
  return sql`select ${held} as locked, ${standingsOutbox.version} as version, ${standingsOutbox.requestedAt} as requested_at,
      case when ${held} and ${standingsOutbox.version} is not null then ${lockUsersSql(affectedUserIds(teamId))} end as users_locked
    from (${teamThenBoardSharedSql(teamId, locks)}) locks left join ${standingsOutbox} on ${standingsOutbox.teamId} = ${teamId}`;
}

/** locksAndPendingSql, built once. */
const locksInRequest = prebuilt(["teamId", "timeout"], ({ teamId, timeout }) => locksAndPendingSql(teamId, { tryWithin: timeout }));

/**
 * An in-request recompute's first statements, to send together (sendInOrder): its locks and outbox version, then
 * its reads. Each time after the plans' setting (GENERIC_PLANS), the first statement of their transaction.
 */
function firstStatements(teamId: number): Prebuilt[] {
  // The reads go out with the locks (one round trip) in a statement of their own, which Postgres starts once
  // the locks' statement has ended, with a snapshot taken then: anything committed before the outbox version
  // read with the locks, or by the recompute that held a user's lock before this one, is in them. Without the
  // locks or work, they were read for nothing.
  return [locksInRequest({ teamId, timeout: `${IN_REQUEST_ROW_LOCK_MS}ms` }), recomputeReads({ teamId })];
}

type Publish = { team: TeamStanding; frozen: boolean; frozenRank: number | null; own: OwnPoints | null; requestedAt: Date };
/** `publish`: what to publish once the transaction has committed (a request publishes on its own COMMIT). */
type Recomputed = { result: RecomputeResult | { status: "busy" }; publish: Publish | null };

/** A team's outbox row as a recompute read it: the version it removes once done, and when the oldest change asked. */
interface Pending {
  version: number;
  requestedAt: Date;
}

/**
 * A team's new standing, from what its recompute read (`reads`, in one snapshot): its points, what clients are
 * shown of it, its members' statistics, its history point and what to publish once committed. One rule for the
 * in-request recompute and the batch.
 */
interface Outcome {
  teamId: number;
  standing: TeamStanding;
  totalCenti: number;
  own: OwnPoints | null;
  statistics: ReturnType<typeof userStatisticsRows>;
  row: StandingRow;
  history: { team_id: number; total_centi: number; at: string } | null;
  publish: Publish | null;
  done: { team_id: number; version: number };
}

function outcomeOf(teamId: number, reads: RecomputeReads & { team: NonNullable<RecomputeReads["team"]> }, pending: Pending, now: Date): Outcome {
  const { team, teamRows, teamAwards, userIds, userRows, previous, freeze, frozenSolves, version } = reads;
  // Awards are team points: in the team's standing, never in its users' statistics.
  const awarded = awardTotalsOf(teamAwards);
  const values = teamStandingValues(totalsOf(teamRows), awarded, team.createdAt);
  // The rank set where it is known (ranksNow); values kept as they are (a property added after a spread is a slow copy).
  const standing = toTeamStanding(team, Object.assign({ rank: 0 }, values), version);
  // While frozen, its own members see its dynamic flag solves at their values as of the freeze (null: as live).
  const own = frozenSolves.length === 0 ? null : ownPointsOf(teamStandingValues(totalsOf(atFreezeValues(teamRows, frozenCentiByChallenge(frozenSolves))), awarded, team.createdAt), values);
  const shown = shownOf(standing);
  return {
    teamId,
    standing,
    totalCenti: values.totalCenti,
    own,
    statistics: userStatisticsRows(userIds, userRows),
    row: {
      team_id: teamId,
      ai_centi: values.aiCenti,
      cs_centi: values.csCenti,
      ps_centi: values.psCenti,
      gd_centi: values.gdCenti,
      total_centi: values.totalCenti,
      solved_count: values.solvedCount,
      total_reached_at: values.totalReachedAt.toISOString(),
      shown,
    },
    history: previous?.totalCenti !== values.totalCenti ? { team_id: teamId, total_centi: values.totalCenti, at: historyPointAt(previous?.reachedAt, values.totalReachedAt, now).toISOString() } : null,
    // Nothing a client shows changed since the last committed recompute (a first answer still pending, an answer
    // sent again, a score that leaves the totals where they were): no event to every socket (docs/performance-log.md).
    // Decided on Postgres's row, not on Redis (which a recompute rolled back after its placement leaves ahead): the
    // retry of such a recompute still publishes. `standing` by reference: its rank is set before anything is published.
    publish: previous?.shown !== shown ? { team: standing, frozen: freeze.frozen, frozenRank: freeze.frozenRank, own, requestedAt: pending.requestedAt } : null,
    done: { team_id: teamId, version: pending.version },
  };
}

/**
 * The in-request recompute in `tx`, from what its first statements (firstStatements) answered: busy (a lock only
 * tried was held elsewhere), nothing pending, the team gone, or its standing written, placed (the placement with
 * a deadline) and committed, in one round trip with the writes as a rule, then published.
 */
async function recomputeFrom(tx: Queryable, teamId: number, [locks, reads]: PromiseSettledResult<Rows>[], inRequest: Progress): Promise<Recomputed> {
  // The shared board lock before any write: a rebuild holds it exclusive and then rewrites every row, so a
  // recompute that wrote first and waited for the lock afterwards would deadlock with it. Its Redis writes below
  // also happen under it (a rebuild cannot overwrite them with older data).
  const [locked] = rowsOf(locks);
  if (locked?.locked !== true) return { result: { status: "busy" }, publish: null };
  if (locked.version === null) return { result: { status: "skipped" }, publish: null };
  const pending = { version: Number(locked.version), requestedAt: standingsOutbox.requestedAt.mapFromDriverValue(locked.requested_at as string) as Date };
  const read = recomputeReadsOf(rowsOf(reads)[0]);
  const { team } = read;
  if (!team) {
    // The team was deleted (its standings row went with it): only the outbox row is left.
    await tx.delete(standingsOutbox).where(eq(standingsOutbox.teamId, teamId));
    await removeTeamFromSnapshot(getRedis(), teamId, read.version);
    return { result: { status: "removed" }, publish: null };
  }
  const outcome = outcomeOf(teamId, { ...read, team }, pending, new Date());
  // Mirror to Redis before commit, under the team lock (snapshots of one team are written in commit order) and the
  // shared board lock, with a deadline: a Redis that holds the connection open without answering must not hold the
  // judge, a pool connection and the team's locks. Placed late (after the rollback), the retry still publishes.
  const placement = placeTeam(getRedis(), outcome.standing, outcome.totalCenti, outcome.own);
  const written = sendInOrder(tx, [writesOf([outcome], new Date())]);
  // The outbox row's removal and the COMMIT go as soon as Redis has the team (never before: the placement is under
  // the team's lock), behind the writes if they have not answered yet, with a BEGIN after it: the transaction's own
  // COMMIT ends an empty one. A failed write makes Postgres run that COMMIT as a ROLLBACK, thrown here (commitOf's
  // reasons). The update is published the moment the COMMIT answers, inside the callback.
  outcome.standing.rank = await within(placement, IN_REQUEST_REDIS_MS, `the standings placement: no answer within ${IN_REQUEST_REDIS_MS} ms`);
  const [done, commit, begin] = startInOrder(tx, [...outboxDoneStatements([outcome.done]), sql`commit`, sql`begin`]);
  // A BEGIN that fails (its connection gone) fails the transaction's own COMMIT: the recompute is done by then.
  begin.catch(() => undefined);
  // Its failure is the COMMIT's (a ROLLBACK), thrown below. One statement for one row (outboxDoneStatements).
  done.catch(() => undefined);
  await Promise.all([written, commit]).then(([[writes], committed]) => {
    rowsOf(writes);
    if (!isCommitted(committed)) throw new TransactionRolledBackError();
    inRequest.recomputeCommitted = true;
    publishStanding(teamId, outcome.publish);
  });
  return { result: { status: "updated", team: outcome.standing }, publish: null };
}

/**
 * Teams recomputed together, in one transaction of four round trips whatever their number, then published as one
 * event: what a burst of flag solves changes (./batcher.server.ts), what a solve of a dynamic challenge changes
 * (every solver's points fall at once; docs/domain.md "Dynamic points"), and a job's one team. Its locks are every
 * team's (in id order), the board's shared, then the users' whose statistics it writes (in id order): the order
 * the in-request recompute takes them in, so two batches, or a batch and a request, never wait in a circle. The
 * teams without a pending outbox row are skipped. The teams whose standing a client shows changed go out in one
 * `teams:batch` (one team and no cause: a `teams:update`). `about`: what changed them (the event carries it).
 * `withinMs`: a deadline for each of its lock waits and for its Redis placements (a web process's batch: a lock held
 * or a Redis that does not answer must not hold the process's batches; the transaction rolls back, and the caller
 * hands the teams to the queue). Results in ascending team id order, one per distinct id.
 */
export async function recomputeTeamsTogether(teamIds: readonly number[], about: BatchCause | null = null): Promise<RecomputeResult[]> {
  return (await recomputeTeamsInBatch(teamIds, about, {})) as RecomputeResult[];
}

/**
 * recomputeTeamsTogether with options. `tryLocks`: the team and board locks are only tried (a web process's batch:
 * it waits for no dynamic challenge's round, job or rebuild); a team whose lock was held elsewhere is `busy`, left
 * to the caller (the queue).
 */
export async function recomputeTeamsInBatch(teamIds: readonly number[], about: BatchCause | null, options: BatchOptions): Promise<BatchResult[]> {
  const ids = [...new Set(teamIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  try {
    return await recomputeTogetherOnce(ids, about, options);
  } catch (error) {
    if (!(error instanceof SnapshotNotReadyError) || options.rebuildIfLost === false) throw error;
    // Redis lost the snapshot: the placement refused and the transaction rolled back. Rebuild it outside any
    // transaction (the rebuild takes the board lock exclusive, which our shared one would block), then again.
    if (error instanceof StalePlacementError) {
      // Redis holds a later version than Postgres's sequence gave this recompute: the sequence went back (a restore
      // without its rebuild, a crash or a failover that lost the sequence's last numbers), or this recompute was
      // overtaken while it waited (its connection lost, its locks with it). Either way the snapshot may not be
      // Postgres's: rebuilt whole, at the sequence's version.
      getLogger().error({ err: error, teams: ids.length }, "a standings placement was older than Redis's mark for its team: the board is rebuilt");
      await rebuildSnapshotOnce();
    } else await ensureSnapshotReady();
    return recomputeTogetherOnce(ids, about, options);
  }
}

interface BatchOptions {
  withinMs?: number;
  /** Each statement of the batch at most this (`statement_timeout`): a batch its caller gave up on ends by then. */
  statementMs?: number;
  tryLocks?: boolean;
  /** Redis lost the board: rebuild it and go again (true), or throw SnapshotNotReadyError (a web process's batch: the queue's). */
  rebuildIfLost?: boolean;
}

/** A team's result in a batch: as a recompute's, or busy (its lock, tried only, was held elsewhere). */
export type BatchResult = RecomputeResult | { status: "busy" };

/** What a batch recompute was for: a dynamic challenge's new value. */
export interface BatchCause {
  challengeId: number;
  value: number;
}

/**
 * A batch's locks, in one statement: every team's, the board's shared, then the users' of the teams with a pending
 * outbox row (read in the snapshot this statement starts with, so it never misses a change committed before the
 * batch was asked for). One row: `pending`, those teams' ids.
 */
const pendingOf = (teams: SQLWrapper) => sql`array(select ${standingsOutbox.teamId} from ${standingsOutbox} where ${standingsOutbox.teamId} = any(${teams}::int[]))`;
const batchLocks = prebuilt(["ids"], ({ ids }) => sql`select ${pendingOf(ids)} as pending, locks.* from (${teamsThenBoardSharedThenUsersSql(ids, affectedUserIdsOfTeams(pendingOf(ids)))}) locks`);
/** batchLocks, the team and board locks only tried (boardThenTeamsTriedThenUsersSql): `teams` says which are held. */
const batchLocksTried = prebuilt(["ids"], ({ ids }) => boardThenTeamsTriedThenUsersSql(ids, pendingOf, affectedUserIdsOfTeams));

/**
 * A batch's reads, in one statement run once its locks are held (one snapshot): for each team with an outbox row,
 * the row's version and time with everything its recompute reads (recomputeReadsSql), in team id order.
 */
const batchReads = prebuilt(["ids"], ({ ids }) =>
  recomputeReadsSql(
    sql`select ${standingsOutbox.teamId} as team_id, ${standingsOutbox.version} as pending_version, ${standingsOutbox.requestedAt} as pending_requested_at
      from ${standingsOutbox} where ${standingsOutbox.teamId} = any(${ids}::int[])`,
  ),
);

/**
 * A batch's statements as a connection readies them before it takes any (docs/decisions/053-connections-kept-ready.md):
 * for no team, under the generic plans a batch runs with (GENERIC_PLANS, which holds to the end of the transaction:
 * last among a connection's statements to ready); its locks as a web process's batch takes them (`tryLocks`, only
 * tried) or as a job's (waited for).
 */
export function batchStatementsToReady({ tryLocks }: { tryLocks: boolean }): Array<SQL | Prebuilt> {
  return [GENERIC_PLANS, (tryLocks ? batchLocksTried : batchLocks)({ ids: "{}" }), batchReads({ ids: "{}" })];
}

/** The batch's outbox rows locked in team id order, as every statement marking several teams locks them: two of them never wait for each other in a circle. */
const outboxInOrder = prebuilt(["ids"], ({ ids }) => sql`select 1 from ${standingsOutbox} where ${standingsOutbox.teamId} = any(${ids}::int[]) order by ${standingsOutbox.teamId} for update`);

async function recomputeTogetherOnce(ids: number[], about: BatchCause | null, { withinMs, statementMs, tryLocks = false }: BatchOptions): Promise<BatchResult[]> {
  const idList = `{${ids.join(",")}}`;
  const { results, publishes } = await getDb().transaction(async (tx) => {
    const settings = [
      GENERIC_PLANS,
      ...(withinMs === undefined ? [] : [sql`select set_config('lock_timeout', ${`${withinMs}ms`}::text, true)`]),
      // A batch given up on by its caller must not run on: each of its statements ends by then.
      ...(statementMs === undefined ? [] : [sql`select set_config('statement_timeout', ${`${statementMs}ms`}::text, true)`]),
    ];
    const sent = await sendInOrder(tx, [...settings, (tryLocks ? batchLocksTried : batchLocks)({ ids: idList }), batchReads({ ids: idList })]);
    for (const result of sent.slice(0, settings.length)) rowsOf(result);
    const [locks, reads] = sent.slice(settings.length);
    const [locked] = rowsOf(locks);
    const ofIds = (column: unknown) => new Set((column as Array<number | string>).map(Number));
    // The teams whose lock another recompute held (tried only): left to it, or to the queue.
    const held = tryLocks ? ofIds(locked.teams) : null;
    // Only the teams pending when the locks were asked for: the others' users are not locked (a change committed
    // since comes with a recompute of its own).
    const lockedPending = ofIds(locked.pending);
    const now = new Date();
    const outcomes: Outcome[] = [];
    const removed: Outcome["done"][] = [];
    /** A removed team's standings version (its reads'), below which no placement of it lands. */
    const removedAt = new Map<number, number>();
    const results = new Map<number, RecomputeResult>();
    for (const row of rowsOf(reads)) {
      const teamId = Number(row.team_id);
      if (!lockedPending.has(teamId)) continue;
      const pending = { version: Number(row.pending_version), requestedAt: standingsOutbox.requestedAt.mapFromDriverValue(row.pending_requested_at as string) as Date };
      const read = recomputeReadsOf(row);
      const { team } = read;
      if (!team) {
        // The team was deleted (its standings row went with it): only the outbox row is left.
        removed.push({ team_id: teamId, version: pending.version });
        removedAt.set(teamId, read.version);
        results.set(teamId, { status: "removed" });
        continue;
      }
      const outcome = outcomeOf(teamId, { ...read, team }, pending, now);
      outcomes.push(outcome);
      results.set(teamId, { status: "updated", team: outcome.standing });
    }
    const done = [...outcomes.map((outcome) => outcome.done), ...removed];
    if (done.length > 0) {
      // Mirror to Redis before commit, under the team locks and the shared board lock (see recomputeFrom); then each
      // team's rank as the order stands once all are placed (a team placed later may have passed one placed before).
      const redis = getRedis();
      const placements = placeAndRemoveTeams(
        redis,
        outcomes.map((outcome) => ({ team: outcome.standing, totalCenti: outcome.totalCenti, own: outcome.own })),
        removed.map(({ team_id }) => ({ teamId: team_id, version: removedAt.get(team_id)! })),
      ).then(() => ranksNow(redis, outcomes.map((outcome) => outcome.standing)));
      const written: Promise<PromiseSettledResult<Rows>[]> = outcomes.length > 0 ? sendInOrder(tx, [writesOf(outcomes, now)]) : Promise.resolve([]);
      const ranks = await (withinMs === undefined ? placements : within(placements, withinMs, `the standings placements: no answer within ${withinMs} ms`));
      outcomes.forEach((outcome, index) => (outcome.standing.rank = ranks[index]));
      // Last, once Redis has every team, behind the writes (Postgres runs them in order: outboxDone's reasons); the
      // COMMIT follows.
      const removedRows = sendInOrder(tx, outboxDoneStatements(done));
      for (const result of [...(await written), ...(await removedRows)]) rowsOf(result);
    }
    const publishes = outcomes.flatMap((outcome) => (outcome.publish ? [outcome.publish] : []));
    return { results: ids.map((teamId): BatchResult => results.get(teamId) ?? (held && !held.has(teamId) ? { status: "busy" } : { status: "skipped" })), publishes };
  });
  if (about === null && publishes.length === 1) publishStanding(publishes[0].team.id, publishes[0]);
  else publishStandings(publishes, about);
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

/** A team's standings row (snake_case, for json_to_recordset). */
interface StandingRow {
  team_id: number;
  ai_centi: number;
  cs_centi: number;
  ps_centi: number;
  gd_centi: number;
  total_centi: number;
  solved_count: number;
  total_reached_at: string;
  shown: string;
}

/**
 * The writes of these recomputes' outcomes in one statement (their outbox rows apart: outboxDoneStatements). A user
 * credited on two teams of one batch is written once: both read every answer credited to that user, in one snapshot.
 */
function writesOf(outcomes: readonly Outcome[], now: Date): Prebuilt {
  const statistics = new Map<number, Outcome["statistics"][number]>();
  for (const outcome of outcomes) for (const row of outcome.statistics) if (!statistics.has(row.user_id)) statistics.set(row.user_id, row);
  return recomputeWrites({
    statistics: JSON.stringify([...statistics.values()]),
    standings: JSON.stringify(outcomes.map((outcome) => outcome.row)),
    history: JSON.stringify(outcomes.flatMap((outcome) => (outcome.history ? [outcome.history] : []))),
    updatedAt: now.toISOString(),
  });
}

/**
 * Every write of a set of recomputes, in one statement built once (data-modifying WITHs all run, in one snapshot;
 * each a JSON array): the users' statistics (userStatisticsRows, in user id order), the teams' standings rows with
 * what clients are shown of them (in team id order), and a history point for each team whose total moved.
 */
const recomputeWrites = prebuilt(["statistics", "standings", "history", "updatedAt"], (value) => {
  const pointColumns = sql`ai_centi int, cs_centi int, ps_centi int, gd_centi int, total_centi int`;
  return sql`
    with statistics as (
      insert into ${userStatistics} (user_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, ai_solved, cs_solved, ps_solved, gd_solved)
      select user_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, ai_solved, cs_solved, ps_solved, gd_solved
      from json_to_recordset(${value.statistics}::json) as row(user_id int, ${pointColumns}, ai_solved int, cs_solved int, ps_solved int, gd_solved int)
      order by user_id
      on conflict (user_id) do update set ai_centi = excluded.ai_centi, cs_centi = excluded.cs_centi, ps_centi = excluded.ps_centi, gd_centi = excluded.gd_centi,
        total_centi = excluded.total_centi, ai_solved = excluded.ai_solved, cs_solved = excluded.cs_solved, ps_solved = excluded.ps_solved,
        gd_solved = excluded.gd_solved, updated_at = now()
    ), standing as (
      insert into ${standings} (team_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, solved_count, total_reached_at, shown)
      select team_id, ai_centi, cs_centi, ps_centi, gd_centi, total_centi, solved_count, total_reached_at, shown
      from json_to_recordset(${value.standings}::json) as row(team_id int, ${pointColumns}, solved_count int, total_reached_at timestamptz, shown text)
      order by team_id
      on conflict (team_id) do update set ai_centi = excluded.ai_centi, cs_centi = excluded.cs_centi, ps_centi = excluded.ps_centi, gd_centi = excluded.gd_centi,
        total_centi = excluded.total_centi, solved_count = excluded.solved_count, total_reached_at = excluded.total_reached_at, shown = excluded.shown,
        updated_at = ${value.updatedAt}::timestamptz
    ), history as (
      insert into ${standingsHistory} (team_id, total_centi, at)
      select team_id, total_centi, at from json_to_recordset(${value.history}::json) as row(team_id int, total_centi int, at timestamptz)
    )
    select 1 as written`;
});

/**
 * Each team's outbox row removed if it still has the version its recompute read (a change that came meanwhile keeps
 * it, and its own recompute runs): the transaction's last statement, after every write and the Redis placements, so
 * the rows stay locked only until the COMMIT that follows. A change marking one of these teams (an admin's edit
 * holding the team's row, a solve holding its challenge's count) never waits for a write or for Redis; and no write of
 * the recompute, whose foreign keys need the team's and the users' rows, comes after a row it would hold.
 */
const outboxDone = prebuilt(["done"], (value) => sql`delete from ${standingsOutbox} o using json_to_recordset(${value.done}::json) as d(team_id int, version bigint)
  where o.team_id = d.team_id and o.version = d.version`);

/** The statements that remove these outbox rows: several locked in team id order first (outboxInOrder). */
function outboxDoneStatements(done: ReadonlyArray<Outcome["done"]>): Prebuilt[] {
  if (done.length === 0) return [];
  const remove = outboxDone({ done: JSON.stringify(done) });
  return done.length > 1 ? [outboxInOrder({ ids: `{${done.map((row) => row.team_id).join(",")}}` }), remove] : [remove];
}

/**
 * Takes a team off the board before it is deleted (same transaction as the delete): its row goes
 * and its place in the Redis order; the teams below move up by themselves.
 */
export async function removeTeamFromStandings(tx: Queryable, teamId: number) {
  await lockTeam(tx, teamId);
  await lockBoardShared(tx);
  await tx.delete(standings).where(eq(standings.teamId, teamId));
  // Taken under the team's lock: newer than any recompute of it before, so none of theirs lands after this.
  await removeTeamFromSnapshot(getRedis(), teamId, await nextStandingsVersion(tx));
}
