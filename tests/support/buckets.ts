/**
 * Test buckets on the shared S3 (s3rver locally): one per integration test file and one per e2e run, so a
 * listing only ever sees that test's own objects. s3rver cannot page a listing past 1,000 keys (its
 * continuation token needs a cipher OpenSSL 3 dropped), so buckets are emptied first-page by first-page.
 */
import { readdir } from "node:fs/promises";
import { expect, vi } from "vitest";
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { getS3 } from "../../app/infrastructure/s3.server.ts";
import { S3_DATA_DIR } from "../../scripts/lib/local-services.ts";
import { uploadsDir } from "../../scripts/lib/s3-uploads.ts";

export async function createBucket(bucket: string): Promise<void> {
  await getS3()
    .send(new CreateBucketCommand({ Bucket: bucket }))
    .catch((error: { name?: string }) => {
      if (error.name !== "BucketAlreadyOwnedByYou" && error.name !== "BucketAlreadyExists") throw error;
    });
}

/** Deletes every object of the bucket (and the bucket itself unless `keep`). */
export async function emptyBucket(bucket: string, options: { keep?: boolean } = {}): Promise<void> {
  for (;;) {
    const page = await getS3().send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1000 }));
    const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
    if (keys.length === 0) break;
    await getS3().send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
  }
  if (!options.keep) await getS3().send(new DeleteBucketCommand({ Bucket: bucket }));
}

/**
 * How many multipart uploads of the bucket are begun and neither completed nor aborted (their parts
 * still stored). s3rver cannot list them: there, its upload directories are counted.
 */
export async function incompleteUploads(bucket: string): Promise<number> {
  try {
    const page = await getS3().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    return page.Uploads?.length ?? 0;
  } catch (error) {
    if ((error as { name?: string }).name !== "NotImplemented") throw error;
    return (await readdir(uploadsDir(process.env.S3_SERVER_DATA_DIR || S3_DATA_DIR, bucket)).catch(() => [])).length;
  }
}

/**
 * Waits until the bucket has no incomplete upload. A part the client gave up on may still be in the
 * storage's hands when the abort is sent; it is removed once the storage is done with it (S3 itself
 * says an abort may have to be repeated), so "none" is a state reached within seconds, not at once.
 */
export async function expectNoIncompleteUploads(bucket: string, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(async () => expect(await incompleteUploads(bucket)).toBe(0), { timeout: timeoutMs, interval: 100 });
}
