/**
 * A benchmark's own world: a fresh migrated database and a Redis prefix of its own, on the same
 * services the project uses (DATABASE_URL / REDIS_URL / S3_* or the project-local instances).
 */
import { randomBytes } from "node:crypto";
import { runMigrations } from "../../scripts/migrate.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { DEFAULT_DATABASE_URL } from "../../scripts/lib/local-services.ts";
import { databaseUrlFor, dropDatabase, withAdminConnection } from "../../tests/setup/databases.ts";
import { BENCH_SESSION_SECRET } from "./servers.ts";

export async function createBenchWorld(name: string) {
  const id = `${name}_${randomBytes(3).toString("hex")}`;
  const database = `gatekeeper_bench_${id}`;
  // The server's URL, kept once: DATABASE_URL is pointed at each world's database below.
  process.env.TEST_BASE_DATABASE_URL ??= process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  await withAdminConnection((sql) => sql.unsafe(`create database "${database}"`));
  const databaseUrl = databaseUrlFor(database);
  await runMigrations(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_PREFIX = `gkbench_${id}`;
  process.env.LOG_LEVEL ??= "warn";
  // The bench signs session cookies that its web processes must accept.
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  resetEnvForTests();
  return {
    database,
    env: { DATABASE_URL: databaseUrl, REDIS_PREFIX: process.env.REDIS_PREFIX },
    drop: () => (process.env.BENCH_KEEP_DB ? Promise.resolve() : dropDatabase(database)),
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarise(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0],
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}
