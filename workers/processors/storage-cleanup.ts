import type { Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { deleteObject } from "../../app/infrastructure/s3.server.ts";

/** Deleting a missing object succeeds in S3, so a retried job is harmless. */
export async function processStorageCleanup(job: Job) {
  const { key } = queues.storageCleanup.payload.parse(job.data);
  await deleteObject(key);
  return { deleted: key };
}
