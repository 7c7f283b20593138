/**
 * A dynamic challenge's solvers, recomputed together after its solves (docs/domain.md "Dynamic points"). A solve
 * moves the challenge's count (`flag_solve_counts.solves`) in its own transaction; `recomputed` says at which count
 * the solvers were last recomputed, so while it is behind, every solver's value is still to fall: the challenge's
 * own outbox, committed with the solve. Each solve enqueues a job naming the count it made; a job whose count is
 * already recomputed ends at once, and one that runs recomputes every solver read afresh, publishes them as one
 * `teams:batch` with the value, and goes round again while solves came in meanwhile: a burst of solves of one
 * challenge is a few batches, the rest of its jobs nothing. The worker's sweep enqueues any challenge left behind
 * (Redis down, a process gone between the commit and the enqueue).
 */
import { sql } from "drizzle-orm";
import { rowsOf, sendInOrder } from "../../../db/in-order.ts";
import { challenges, flagSolveCounts, flagSolves } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
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
    sql`select ${flagSolveCounts.solves} as solves, ${flagSolveCounts.recomputed} as recomputed, ${challenges.points} as points, ${challenges.scoring} as scoring,
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

/** Rounds at most per job: past them the sweep or the next solve's job goes on. */
const MAX_ROUNDS = 5;

/**
 * Every solver of the challenge recomputed together and published as one event, until the count read before a
 * round is still the count after it; then `recomputed` says so. Nothing to do once `recomputed` has reached the
 * count (another job did it: the job of every later solve of a burst ends here). Returns each round's results.
 */
export async function recomputeChallengeSolvers(challengeId: number): Promise<RecomputeResult[][]> {
  const rounds: RecomputeResult[][] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const read = await readSolvers(challengeId);
    if (!read || read.recomputed >= read.solves) return rounds;
    // Marked stale first (a statement of its own: no lock held beyond it), so each is a pending recompute, and the
    // standings' own sweep takes any this job does not finish. Each team's points are read by its own recompute,
    // afresh: a solve after `read` lowers them too.
    await markStandingsStale(getDb(), read.solvers);
    rounds.push(await recomputeTeamsTogether(read.solvers, { challengeId, value: read.value }));
    const [moved] = await getDb().execute<{ solves: number }>(
      sql`update ${flagSolveCounts} set recomputed = greatest(${flagSolveCounts.recomputed}, ${read.solves}::int)
        where ${flagSolveCounts.challengeId} = ${challengeId} returning ${flagSolveCounts.solves} as solves`,
    );
    if (!moved || Number(moved.solves) === read.solves) return rounds;
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
