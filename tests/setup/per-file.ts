/**
 * Before each integration test file: its own database (copied from the migrated template), its own
 * Redis key prefix and its own bucket, so files never see each other's rows, keys, queues, channels or
 * objects; all dropped at the end.
 */
import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import { closeDb } from "../../app/infrastructure/db.server.ts";
import { closeQueues } from "../../app/infrastructure/queue.server.ts";
import { closeRedis, createRedis } from "../../app/infrastructure/redis.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { closeS3 } from "../../app/infrastructure/s3.server.ts";
import { createBucket, emptyBucket } from "../support/buckets.ts";
import { baseDatabaseUrl, createDatabaseFromTemplate, dropDatabase } from "./databases.ts";

const id = `${process.env.VITEST_POOL_ID ?? "0"}_${randomBytes(3).toString("hex")}`;
const databaseName = `gatekeeper_test_${id}`;

// The server's own URL, kept before DATABASE_URL is pointed at this file's database (or, in a drill, at
// a cluster of its own): the copy is dropped from this server at the end.
process.env.TEST_BASE_DATABASE_URL = baseDatabaseUrl();
process.env.DATABASE_URL = await createDatabaseFromTemplate(databaseName);
process.env.REDIS_PREFIX = `gktest_${id}`;
process.env.S3_BUCKET = `gktest-${id.replace(/_/g, "-")}`;
await createBucket(process.env.S3_BUCKET);
// Creating the bucket read the configuration: forget it, so a test file that points REDIS_URL or the like
// at an instance of its own (before its first use) is read afresh.
closeS3();
resetEnvForTests();
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";

/** Removes every key this file wrote, so repeated runs do not fill the shared Redis. */
async function dropRedisKeys(prefix: string) {
  const redis = createRedis("command");
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
      if ((keys as string[]).length) await redis.unlink(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}

afterAll(async () => {
  await closeQueues();
  await closeRedis();
  await dropRedisKeys(process.env.REDIS_PREFIX!).catch(() => {});
  await closeDb();
  await emptyBucket(process.env.S3_BUCKET!).catch(() => {});
  closeS3();
  await dropDatabase(databaseName);
});
