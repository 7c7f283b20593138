/**
 * The e2e web server: a fresh database (migrated, demo-seeded), its own Redis prefix, a worker,
 * and the built web server. Started by Playwright's webServer; ends when Playwright stops it.
 */
import { spawn } from "node:child_process";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { runMigrations } from "../../../db/migrate.ts";
import { seedDemoEvent } from "../../../db/seed.ts";
import { createDb } from "../../../db/client.ts";
import { getS3 } from "../../../app/utils/s3.server.ts";
import { databaseUrlFor, E2E_BUCKET, E2E_DATABASE, withAdminConnection } from "../../setup/databases.ts";

// Several e2e runs can share a machine (one per developer task): each names its own database.
const databaseName = E2E_DATABASE;
await withAdminConnection(async (sql) => {
  await sql.unsafe(`drop database if exists "${databaseName}" with (force)`);
  await sql.unsafe(`create database "${databaseName}"`);
});
const databaseUrl = databaseUrlFor(databaseName);
await runMigrations(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
// The server's own bucket (named before anything reads the environment): a test can list what it stored.
process.env.S3_BUCKET = E2E_BUCKET;
await getS3()
  .send(new CreateBucketCommand({ Bucket: E2E_BUCKET }))
  .catch((error: { name?: string }) => {
    if (error.name !== "BucketAlreadyOwnedByYou" && error.name !== "BucketAlreadyExists") throw error;
  });
const handle = createDb(databaseUrl, { max: 2 });
await seedDemoEvent(handle.db, { resetClock: true });
await handle.close();

const env = {
  ...process.env,
  NODE_ENV: "production" as const,
  SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
  DATABASE_URL: databaseUrl,
  REDIS_PREFIX: `gke2e_${process.pid}`,
  PORT: process.env.E2E_PORT ?? "3105",
  LOG_LEVEL: "warn",
  S3_BUCKET: E2E_BUCKET,
};
const children = [
  spawn(process.execPath, ["--import", "tsx", "workers/index.ts"], { env, stdio: "inherit" }),
  spawn(process.execPath, ["--import", "tsx", "server.ts"], { env, stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
for (const child of children) child.on("exit", (code) => {
  stop();
  process.exit(code ?? 0);
});
