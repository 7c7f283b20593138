import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { recomputeChallengeSolvers, SOLVERS_ROUND_GAP_MS } from "../../app/modules/flags/dynamic-solvers.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";

/** One team's standings, recomputed from Postgres; a job whose work was already done is skipped. */
export async function processStandings(job: Job) {
  const { teamId } = queues.standings.payload.parse(job.data);
  const result = await recomputeTeamStanding(teamId);
  return result.status === "updated" ? { status: result.status, rank: result.team.rank } : result;
}

/** A dynamic challenge's solvers together, published as one event with its new value, until no solve came in meanwhile. */
export async function processStandingsBatch(job: Job) {
  // `solves`: the count the solve made, for the queue's dashboard; the job reads the count afresh.
  const { challengeId } = queues.standingsBatch.payload.parse(job.data);
  const rounds = await recomputeChallengeSolvers(challengeId, { gapMs: SOLVERS_ROUND_GAP_MS });
  return { rounds: rounds.length, teams: rounds.reduce((sum, round) => sum + round.length, 0) };
}
