import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { deliverMail } from "../../app/modules/mail/delivery.server.ts";
import { resolvePasswordReset } from "../../app/modules/mail/reset.server.ts";

/**
 * Mail (app/modules/mail): a `send` is one try at one mail (a thrown error is tried again with backoff, an
 * UnrecoverableError is not); a `reset-request` looks its address up and queues a mail when an account has it.
 */
export async function processMail(job: Job) {
  const payload = queues.mail.payload.parse(job.data);
  if (payload.kind === "reset-request") return resolvePasswordReset(payload.address);
  return deliverMail(payload.mailId, job.attemptsMade + 1, job.opts.attempts ?? 1);
}
