/**
 * The e2e web server: a fresh database (migrated, demo-seeded), its own Redis prefix, a worker,
 * and the built web server. Started by Playwright's webServer; ends when Playwright stops it.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { runMigrations } from "../../../scripts/migrate.ts";
import { seedDemoEvent } from "../../../scripts/seed.ts";
import { createDb } from "../../../db/client.ts";
import { localMailEnv, productionServiceEnv } from "../../../scripts/lib/local-services.ts";
import { WEB_NODE_FLAGS } from "../../../scripts/lib/web-node-flags.ts";
import { databaseUrlFor, E2E_BUCKET, E2E_DATABASE, withAdminConnection } from "../../setup/databases.ts";
import { createBucket, emptyBucket } from "../../support/buckets.ts";
import { startOidcProvider } from "../../support/oidc-provider.ts";
import { E2E_PROVIDER_LABEL, E2E_SERVER_LOG } from "./paths.ts";
import { sandboxHost } from "../../../app/infrastructure/sandbox/sandbox.server.ts";

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
// Fresh each run, like the database: the tests list what the server stored.
await createBucket(E2E_BUCKET);
await emptyBucket(E2E_BUCKET, { keep: true });
const handle = createDb(databaseUrl, { max: 2 });
await seedDemoEvent(handle.db, { resetClock: true });
await handle.close();

// The organisers' identity provider (tests/support/oidc-provider.ts), with its own sign-in pages: whoever types a
// demo participant's name there is that participant, their demo address vouched for (tests/e2e/oidc.spec.ts).
const appOrigin = `http://127.0.0.1:${process.env.E2E_PORT ?? "3105"}`;
const identityProvider = await startOidcProvider({
  clientId: "gatekeeper-e2e",
  clientSecret: "an-e2e-client-secret",
  redirectUri: `${appOrigin}/auth/oidc/callback`,
  claimsOf: (subject) => ({ email: `${subject}@demo.gatekeeper.example`, email_verified: true, preferred_username: subject }),
});

const env = {
  ...process.env,
  NODE_ENV: "production" as const,
  SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
  // The runner at the web's priority: here the "web" beside it is two browsers and the suite, and the tests wait for
  // verdicts against a clock (production's RUNNER_NICE=10 lets the pages go first: docs/operations.md).
  RUNNER_NICE: "0",
  // Production names every service explicitly (no silent fallback to the dev defaults).
  ...productionServiceEnv(),
  // Mail through the project's own SMTP server (the tests read what it kept); links open this server.
  ...localMailEnv(`http://127.0.0.1:${process.env.E2E_PORT ?? "3105"}`),
  DATABASE_URL: databaseUrl,
  OIDC_ISSUER: identityProvider.issuer,
  OIDC_CLIENT_ID: "gatekeeper-e2e",
  OIDC_CLIENT_SECRET: "an-e2e-client-secret",
  OIDC_LABEL: E2E_PROVIDER_LABEL,
  REDIS_PREFIX: `gke2e_${process.pid}`,
  PORT: process.env.E2E_PORT ?? "3105",
  // Info, into a file the security tests read (nothing secret may ever appear in it).
  LOG_LEVEL: "info",
  S3_BUCKET: E2E_BUCKET,
  // The tests sign the same demo users in many times, in parallel, and open many tabs of one session: the
  // per-player limits (docs/RELIABILITY.md) would end or refuse them mid-test. Tests of the limits are integration tests.
  SESSIONS_PER_USER: "1000",
  SOCKETS_PER_SESSION: "1000",
  SOCKETS_PER_USER: "1000",
  THREADS_WAITING_PER_TEAM: "1000",
  THREADS_WAITING_PER_USER: "1000",
  RUNNER_CONCURRENCY: "1",
  RUNNER_FIRST_SLOT: "4",
};
mkdirSync(path.dirname(E2E_SERVER_LOG), { recursive: true });
const log = createWriteStream(E2E_SERVER_LOG, { flags: "w" });
const start = (file: string, flags: readonly string[] = []) => {
  const child = spawn(process.execPath, [...flags, "--import", "tsx", file], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.on("data", (chunk: Buffer) => {
    log.write(chunk);
    process.stderr.write(chunk);
  });
  return child;
};
// The web process as production starts it (scripts/lib/web-node-flags.ts).
const children = [start("workers/index.ts"), start("server.ts", WEB_NODE_FLAGS)];
// A code runner where this machine can sandbox (as root, after ensure_sandbox); tests/e2e/code.spec.ts skips without.
// Its slots from 4 on: the sandbox's integration tests take the first and the last.
const sandbox = await sandboxHost();
if (!("reason" in sandbox)) children.push(start("workers/runner.ts"));
// A run that must prove the code runs (CI: GATEKEEPER_REQUIRE_SANDBOX=1) does not let them skip.
else if (process.env.GATEKEEPER_REQUIRE_SANDBOX === "1") throw new Error(`GATEKEEPER_REQUIRE_SANDBOX=1, but this machine cannot sandbox: ${sandbox.reason}`);
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  void identityProvider.close();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
for (const child of children) child.on("exit", (code) => {
  stop();
  process.exit(code ?? 0);
});
