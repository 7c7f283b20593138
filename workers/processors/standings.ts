import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { recomputeTeamsTogether, recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";

/** One team's standings, recomputed from Postgres; a job whose work was already done is skipped. */
export async function processStandings(job: Job) {
  const { teamId } = queues.standings.payload.parse(job.data);
  const result = await recomputeTeamStanding(teamId);
  return result.status === "updated" ? { status: result.status, rank: result.team.rank } : result;
}

/** Several teams' standings together, published as one event (a dynamic challenge's new value). */
export async function processStandingsBatch(job: Job) {
  const { teamIds, challengeId, value } = queues.standingsBatch.payload.parse(job.data);
  const results = await recomputeTeamsTogether(teamIds, { challengeId, value });
  return { teams: results.length, updated: results.filter((result) => result.status === "updated").length };
}
