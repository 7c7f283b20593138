/**
 * Where the project-local dev/test services live. The app's config falls back to these same URLs, so a
 * fresh checkout works after `npm run services:start` with no .env at all.
 *
 * Ports are deliberately non-standard so the local instances never collide with a system Postgres (5432),
 * Redis (6379) or another project's s3rver (4568).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const LOCAL_HOST = "127.0.0.1";
export const POSTGRES_PORT = 55432;
export const REDIS_PORT = 56379;
export const S3_PORT = 54569;

export const DEFAULT_DATABASE_NAME = "gatekeeper";
export const DEFAULT_S3_BUCKET = "gatekeeper";
export const DEFAULT_S3_REGION = "us-east-1";
/** s3rver's built-in credentials; it rejects requests signed with anything else. */
export const DEFAULT_S3_ACCESS_KEY_ID = "S3RVER";
export const DEFAULT_S3_SECRET_ACCESS_KEY = "S3RVER";

export const DEFAULT_DATABASE_URL = `postgres://postgres@${LOCAL_HOST}:${POSTGRES_PORT}/${DEFAULT_DATABASE_NAME}`;
export const DEFAULT_REDIS_URL = `redis://${LOCAL_HOST}:${REDIS_PORT}`;
export const DEFAULT_S3_ENDPOINT = `http://${LOCAL_HOST}:${S3_PORT}`;

export const LOCAL_SERVICE_DEFAULTS = {
  databaseUrl: DEFAULT_DATABASE_URL,
  redisUrl: DEFAULT_REDIS_URL,
  s3Endpoint: DEFAULT_S3_ENDPOINT,
  s3Bucket: DEFAULT_S3_BUCKET,
  s3Region: DEFAULT_S3_REGION,
  s3AccessKeyId: DEFAULT_S3_ACCESS_KEY_ID,
  s3SecretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY,
} as const;

/** Resolved from this file, not the cwd, so the scripts behave the same when run from a subfolder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Git-ignored home of all local service data, pid files and logs. */
export const LOCAL_DIR = path.join(REPO_ROOT, ".local");
/** Kept here rather than in s3-service.ts so scripts/s3-server.ts need not load the AWS SDK. */
export const S3_DATA_DIR = path.join(LOCAL_DIR, "s3", "data");

/**
 * The service variables for a process started in production mode, which refuses to fall back to the dev
 * defaults (app/infrastructure/env.server.ts): the caller's own settings, else the project-local instances.
 * Used by the e2e server, the drills and the benchmarks.
 */
export function productionServiceEnv(source: NodeJS.ProcessEnv = process.env) {
  return {
    DATABASE_URL: source.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    REDIS_URL: source.REDIS_URL ?? DEFAULT_REDIS_URL,
    S3_ENDPOINT: source.S3_ENDPOINT ?? DEFAULT_S3_ENDPOINT,
    S3_ACCESS_KEY_ID: source.S3_ACCESS_KEY_ID ?? DEFAULT_S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: source.S3_SECRET_ACCESS_KEY ?? DEFAULT_S3_SECRET_ACCESS_KEY,
  };
}
