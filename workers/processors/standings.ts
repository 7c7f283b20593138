import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";

/** One team's standings, recomputed from Postgres; a job whose work was already done is skipped. */
export async function processStandings(job: Job) {
  const { teamId } = queues.standings.payload.parse(job.data);
  const result = await recomputeTeamStanding(teamId);
  return result.status === "updated" ? { status: result.status, rank: result.team.rank } : result;
}
