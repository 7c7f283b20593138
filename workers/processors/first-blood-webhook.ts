import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { deliverWebhook } from "../../app/modules/webhooks/delivery.server.ts";

/**
 * Posts a first blood or a test message to the organisers' chat (app/modules/webhooks/delivery.server.ts):
 * a thrown error is tried again with backoff, an UnrecoverableError is not.
 */
export async function processFirstBloodWebhook(job: Job) {
  const payload = queues.firstBloodWebhook.payload.parse(job.data);
  return deliverWebhook(payload.kind === "test" ? { kind: "test" } : payload);
}
