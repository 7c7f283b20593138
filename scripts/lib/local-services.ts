/**
 * Where the project-local dev/test services live, for the scripts: the addresses are defined once, in
 * app/infrastructure/local-services.ts, which the app's config falls back to as well, so a fresh checkout works
 * after `npm run services:start` with no .env at all, and migrate, seed and the web process always meet the same
 * instances. GATEKEEPER_PORT_OFFSET moves them all (README.md, "Two checkouts on one machine").
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_DATABASE_NAME,
  DEFAULT_S3_ACCESS_KEY_ID,
  DEFAULT_S3_BUCKET,
  DEFAULT_S3_REGION,
  DEFAULT_S3_SECRET_ACCESS_KEY,
  LOCAL_HOST,
  LOCAL_MAIL_FROM,
  LOCAL_MAILBOX_PATH,
  localPorts,
  localServiceUrls,
} from "../../app/infrastructure/local-services.ts";

export { DEFAULT_DATABASE_NAME, DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_BUCKET, DEFAULT_S3_REGION, DEFAULT_S3_SECRET_ACCESS_KEY, LOCAL_HOST };

/** This process's ports and URLs (its GATEKEEPER_PORT_OFFSET). */
export const { postgres: POSTGRES_PORT, redis: REDIS_PORT, s3: S3_PORT, smtp: SMTP_PORT } = localPorts();
export const { databaseUrl: DEFAULT_DATABASE_URL, redisUrl: DEFAULT_REDIS_URL, s3Endpoint: DEFAULT_S3_ENDPOINT } = localServiceUrls();

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
/** Where the local SMTP server keeps what it receives (the app reads it through SMTP_MAILBOX_DIR). */
export const MAILBOX_DIR = path.join(REPO_ROOT, LOCAL_MAILBOX_PATH);

/**
 * The service variables for a process started in production mode, which refuses to fall back to the dev
 * defaults (app/infrastructure/env.server.ts): the caller's own settings, else the project-local instances
 * of the caller's offset. Used by the e2e server, the drills and the benchmarks.
 */
export function productionServiceEnv(source: Record<string, string | undefined> = process.env) {
  const local = localServiceUrls(source);
  return {
    DATABASE_URL: source.DATABASE_URL ?? local.databaseUrl,
    REDIS_URL: source.REDIS_URL ?? local.redisUrl,
    S3_ENDPOINT: source.S3_ENDPOINT ?? local.s3Endpoint,
    S3_ACCESS_KEY_ID: source.S3_ACCESS_KEY_ID ?? DEFAULT_S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: source.S3_SECRET_ACCESS_KEY ?? DEFAULT_S3_SECRET_ACCESS_KEY,
  };
}

/**
 * The mail variables of a production-mode process that sends through the project's own SMTP server (the
 * quickstart's demo, the e2e server): production mails only through a server it is told of, and its links
 * need the public origin (`origin`, the address the browser opens). The caller's own SMTP settings win.
 */
export function localMailEnv(origin: string, source: Record<string, string | undefined> = process.env): Record<string, string> {
  if (source.SMTP_HOST) return {};
  return {
    SMTP_HOST: LOCAL_HOST,
    SMTP_PORT: String(localPorts(source).smtp),
    SMTP_TLS: "off",
    SMTP_FROM: LOCAL_MAIL_FROM,
    SMTP_MAILBOX_DIR: MAILBOX_DIR,
    APP_ORIGIN: source.APP_ORIGIN ?? origin,
  };
}
