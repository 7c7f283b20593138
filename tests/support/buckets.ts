/**
 * Test buckets on the shared S3 (s3rver locally): one per integration test file and one per e2e run, so a
 * listing only ever sees that test's own objects. s3rver cannot page a listing past 1,000 keys (its
 * continuation token needs a cipher OpenSSL 3 dropped), so buckets are emptied first-page by first-page.
 */
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { getS3 } from "../../app/utils/s3.server.ts";

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
