import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { compareSubmission } from "../../app/modules/integrity/compare.server.ts";
import { checkSignIn } from "../../app/modules/integrity/sign-ins.server.ts";

/** Integrity signals (docs/decisions/045-integrity-signals.md): a retried job finds its print or signal written and adds nothing. */
export async function processIntegrity(job: Job) {
  const payload = queues.integrity.payload.parse(job.data);
  if (payload.kind === "version") return compareSubmission(payload.submissionId);
  return checkSignIn(payload.signInId);
}
