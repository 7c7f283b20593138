/**
 * A dynamic challenge's solvers, recomputed together after its solves (docs/domain.md "Dynamic points"). A solve
 * moves the challenge's count (`flag_solve_counts.solves`) in its own transaction; `recomputed` says at which count
 * the solvers were last recomputed, so while it is behind, every solver's value is still to fall: the challenge's
 * own outbox, committed with the solve. Each solve enqueues a job naming the count it made; a job whose count is
 * already recomputed ends at once, and one that runs recomputes every solver read afresh, publishes them as one
 * `teams:batch` with the value, and goes round again while solves came in meanwhile: a burst of solves of one
 * challenge is a few batches, the rest of its jobs nothing. The worker's sweep enqueues any challenge left behind
 * (Redis down, a process gone between the commit and the enqueue). The worker's rounds of one challenge begin
 * SOLVERS_ROUND_GAP_MS apart at least: each sends every solver to every socket, and back to back under a burst
 * they were most of what the web processes wrote. The solving team's own standing does not wait for a round: its
 * solve marks it, and its web process's batch recomputes it at once (app/modules/standings/batcher.server.ts).
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, sendInOrder } from "../../../db/in-order.ts";
import { challenges, flagSolveCounts, flagSolves } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { getRedis, redisKey } from "../../infrastructure/redis.server.ts";
import { markStandingsStale } from "../standings/outbox.server.ts";
import { recomputeTeamsTogether, type RecomputeResult } from "../standings/recompute.server.ts";
import { challengeValue } from "./decay.ts";

/**
 * After a solve commits: ask a worker to recompute the challenge's solvers. A failure (Redis down) gives up at
 * once: the sweep enqueues it later, from the count left behind.
 */
export async function requestSolversRecompute(challengeId: number, solves: number): Promise<boolean> {
  try {
    // No job id: BullMQ keeps a finished job's id for a while and would drop a new job with it.
    await enqueue("standingsBatch", { challengeId, solves });
    return true;
  } catch (error) {
    getLogger().warn({ err: error, challengeId }, "solvers' recompute not enqueued; the sweep will retry");
    return false;
  }
}

/** The count, the curve and the solvers of a challenge, in one statement. */
async function readSolvers(challengeId: number) {
  const [result] = await sendInOrder(getDb(), [
    sql`select ${flagSolveCounts.solves} as solves, ${flagSolveCounts.recomputed} as recomputed, ${flagSolveCounts.changedAt}::text as changed_at,
        ${challenges.points} as points, ${challenges.scoring} as scoring,
        ${challenges.minimumPoints} as minimum_points, ${challenges.decay} as decay,
        (select coalesce(array_agg(s.team_id order by s.team_id), '{}') from ${flagSolves} s where s.challenge_id = ${challengeId}) as solvers
      from ${flagSolveCounts} inner join ${challenges} on ${challenges.id} = ${flagSolveCounts.challengeId}
      where ${flagSolveCounts.challengeId} = ${challengeId}`,
  ]);
  const [row] = rowsOf(result);
  if (!row) return null;
  return {
    solves: Number(row.solves),
    recomputed: Number(row.recomputed),
    /** When the count last moved (a solve, or one deleted), as Postgres wrote it (microseconds kept). */
    changedAt: String(row.changed_at),
    value: challengeValue(
      {
        points: Number(row.points),
        scoring: row.scoring as "static" | "dynamic",
        minimumPoints: row.minimum_points === null ? null : Number(row.minimum_points),
        decay: row.decay === null ? null : Number(row.decay),
      },
      Number(row.solves),
    ),
    solvers: (row.solvers as Array<number | string>).map(Number),
  };
}

/** The worker's rounds of one challenge begin this far apart at least (docs/domain.md "Dynamic points"). */
export const SOLVERS_ROUND_GAP_MS = 1000;
/** Rounds at most per job: past them the sweep or the next solve's job goes on. */
const MAX_ROUNDS = 5;
/**
 * How long a job's turn on a challenge lasts unless renewed (renewed before each round): a worker that died holding
 * it holds up the challenge's solvers this long at most. A round longer than this lets a second job in: work done
 * twice, nothing wrong (the batches' locks still take turns).
 */
const TURN_MS = 30_000;
/** Turns at most per job: past them the sweep or the next solve's job goes on. */
const MAX_TURNS = 10;
/** Deletes the turn's key only if it is still this job's. */
const RELEASE_TURN = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`;
/** Renews the turn only if it is still this job's. */
const RENEW_TURN = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`;

/**
 * The challenge's solvers recomputed by one job at a time (docs/domain.md "Dynamic points"). Without it every
 * job of a burst (a worker runs several at once) found the count behind, waited for the running batch's team
 * locks, then recomputed every solver again: each solve paid for all of them. A job first says it came (the
 * `wanted` key), then takes the challenge's turn (a Redis key, set if absent) or ends; the holder, once done and
 * the turn given back, takes it again if a job came meanwhile. A job that found the turn taken set `wanted`
 * before, so either the holder reads the count after that (its solve is in) or sees `wanted` after giving the
 * turn back. `gapMs`: the least time between two rounds' beginnings (a key in Redis, whichever job holds the
 * turn; 0: none). Returns each round's results.
 */
export async function recomputeChallengeSolvers(challengeId: number, { gapMs = 0 }: { gapMs?: number } = {}): Promise<RecomputeResult[][]> {
  const redis = getRedis();
  const turnKey = redisKey("flag-solvers", challengeId, "turn");
  const wantedKey = redisKey("flag-solvers", challengeId, "wanted");
  const roundKey = redisKey("flag-solvers", challengeId, "round");
  const token = randomUUID();
  const rounds: RecomputeResult[][] = [];
  await redis.set(wantedKey, "1", "PX", TURN_MS);
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    if ((await redis.set(turnKey, token, "PX", TURN_MS, "NX")) !== "OK") return rounds;
    try {
      // From here the count is read afresh: whoever came before this is in it.
      await redis.del(wantedKey);
      // Rounds `gapMs` apart at least, whichever job runs them: the key lives that long after a round began.
      const paced = async () => {
        if (gapMs <= 0) return false;
        const wait = await redis.pttl(roundKey);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await redis.set(roundKey, "1", "PX", gapMs);
        return wait > 0;
      };
      rounds.push(...(await recomputeWhileBehind(challengeId, () => redis.eval(RENEW_TURN, 1, turnKey, token, TURN_MS), paced)));
    } finally {
      await redis.eval(RELEASE_TURN, 1, turnKey, token);
    }
    if ((await redis.exists(wantedKey)) === 0) return rounds;
  }
  return rounds;
}

/**
 * Every solver of the challenge recomputed together and published as one event, until the count read before a
 * round is still the count after it; then `recomputed` says so. Nothing to do once `recomputed` has reached the
 * count (another job did it). Returns each round's results.
 */
async function recomputeWhileBehind(challengeId: number, renewTurn: () => Promise<unknown>, paced: () => Promise<boolean>): Promise<RecomputeResult[][]> {
  const rounds: RecomputeResult[][] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (round > 0) await renewTurn();
    let read = await readSolvers(challengeId);
    if (!read || read.recomputed >= read.solves) return rounds;
    // Behind: the round begins once the challenge's gap has passed, reading afresh if it waited for it.
    if (await paced()) {
      await renewTurn();
      read = await readSolvers(challengeId);
      if (!read || read.recomputed >= read.solves) return rounds;
    }
    // Marked stale first (a statement of its own: no lock held beyond it), so each is a pending recompute, and the
    // standings' own sweep takes any this job does not finish. Each team's points are read by its own recompute,
    // afresh: a solve after `read` lowers them too.
    await markStandingsStale(getDb(), read.solvers);
    rounds.push(await recomputeTeamsTogether(read.solvers, { challengeId, value: read.value }));
    // Caught up only if the count did not move since `read`: a solve since, or a solve deleted (the count falls and
    // `recomputed` goes back to 0, so a `greatest` over it would mark solvers done that were recomputed before the
    // deletion, and a later solve's job would then find nothing to do), sends the job round again.
    const [moved] = await getDb().execute<{ solves: number }>(
      sql`update ${flagSolveCounts} set recomputed = greatest(${flagSolveCounts.recomputed}, ${read.solves}::int)
        where ${flagSolveCounts.challengeId} = ${challengeId} and ${flagSolveCounts.changedAt} = ${read.changedAt}::timestamptz returning ${flagSolveCounts.solves} as solves`,
    );
    if (moved) return rounds;
  }
  return rounds;
}

/** Enqueues the solvers' recompute of every challenge left behind for longer than `olderThanMs` (worker sweep). */
export async function sweepBehindChallenges(olderThanMs = 2000): Promise<number> {
  const behind = await getDb().execute<{ challenge_id: number; solves: number }>(
    sql`select ${flagSolveCounts.challengeId} as challenge_id, ${flagSolveCounts.solves} as solves from ${flagSolveCounts} inner join ${challenges} on ${challenges.id} = ${flagSolveCounts.challengeId}
      where ${challenges.scoring} = 'dynamic' and ${flagSolveCounts.recomputed} < ${flagSolveCounts.solves}
        and ${flagSolveCounts.changedAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
  );
  for (const row of behind) await requestSolversRecompute(Number(row.challenge_id), Number(row.solves));
  return behind.length;
}
