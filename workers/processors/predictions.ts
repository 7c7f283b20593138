import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { scoreSubmission } from "../../app/modules/predictions/scoring.server.ts";

/** Scores one predictions file; a file no longer queued (a retry, a duplicate job) is skipped. */
export async function processPredictions(job: Job) {
  const { submissionId } = queues.predictions.payload.parse(job.data);
  return { submissionId, outcome: await scoreSubmission(submissionId) };
}
