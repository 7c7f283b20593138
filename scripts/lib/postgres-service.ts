/**
 * A project-local Postgres cluster for dev and tests, run from the distribution's binaries (no Docker here).
 * Postgres refuses to run as root, so as root every initdb/pg_ctl call goes through `runuser -u postgres`.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { DEFAULT_DATABASE_URL, LOCAL_DIR, LOCAL_HOST, POSTGRES_PORT, REPO_ROOT } from "./local-services.ts";
import {
  aptInstall,
  errorMessage,
  findOnPath,
  isPortOpen,
  isRoot,
  retryUntil,
  runCommand,
  tailFile,
  type CommandResult,
} from "./process.ts";
import { EXTERNAL_WAIT_MS, ServiceError, redactUrl, type LocalService, type StartResult, type StatusResult } from "./service.ts";

const DEBIAN_PG_ROOT = "/usr/lib/postgresql";
const READY_TIMEOUT_MS = 30_000;
/** Unix socket paths are capped at 107 bytes; deep checkouts would make Postgres fail to start. */
const MAX_SOCKET_PATH = 100;

/**
 * Settings for a disposable dev/test instance only. fsync, synchronous_commit and full_page_writes off trade
 * crash safety for speed: a power cut can corrupt this cluster, which is acceptable because it holds nothing
 * that migrations and seeds cannot rebuild. Never copy these into a real deployment. 200 connections leave
 * room for parallel test workers, each with its own pool.
 */
const DEV_ONLY_SETTINGS = [
  "max_connections=200",
  "fsync=off",
  "synchronous_commit=off",
  "full_page_writes=off",
];

export interface PostgresLayout {
  baseDir: string;
  dataDir: string;
  socketDir: string;
  logFile: string;
  /** Why the data lives outside the repo, when it does. */
  fallbackReason?: string;
}

export function layoutUnder(baseDir: string, fallbackReason?: string): PostgresLayout {
  return {
    baseDir,
    dataDir: path.join(baseDir, "data"),
    socketDir: path.join(baseDir, "run"),
    logFile: path.join(baseDir, "postgres.log"),
    fallbackReason,
  };
}

function postgresUserCanTraverse(dir: string): boolean {
  return runCommand("runuser", ["-u", "postgres", "--", "test", "-x", dir]).status === 0;
}

/**
 * Data normally lives in .local/postgres. As root the server runs as `postgres`, which cannot enter a repo
 * under /root, so the data moves to a per-checkout folder in /var/tmp (the hash keeps checkouts apart).
 */
function resolveLayout(): PostgresLayout {
  const local = layoutUnder(path.join(LOCAL_DIR, "postgres"));
  let reason: string | undefined;
  if (isRoot() && !postgresUserCanTraverse(REPO_ROOT)) {
    reason = `the postgres user cannot reach ${REPO_ROOT}`;
  } else if (path.join(local.socketDir, `.s.PGSQL.${POSTGRES_PORT}`).length > MAX_SOCKET_PATH) {
    reason = "the repo path is too long for a unix socket";
  }
  if (!reason) return local;
  const hash = createHash("sha256").update(REPO_ROOT).digest("hex").slice(0, 8);
  return layoutUnder(path.join("/var/tmp", `gatekeeper-${hash}`, "postgres"), reason);
}

/** Prefers the highest Debian-packaged version, then whatever pg_ctl is on PATH (e.g. Homebrew). */
function findBinDir(): string | null {
  const versions = fs.existsSync(DEBIAN_PG_ROOT)
    ? fs
        .readdirSync(DEBIAN_PG_ROOT)
        .filter((version) => fs.existsSync(path.join(DEBIAN_PG_ROOT, version, "bin", "pg_ctl")))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  if (versions[0]) return path.join(DEBIAN_PG_ROOT, versions[0], "bin");
  const pgCtl = findOnPath("pg_ctl");
  return pgCtl ? path.dirname(pgCtl) : null;
}

export function ensureBinDir(): string {
  const existing = findBinDir();
  if (existing) return existing;
  if (!isRoot()) {
    throw new ServiceError("postgres", "PostgreSQL binaries not found: install the `postgresql` package, or set DATABASE_URL");
  }
  const install = aptInstall(["postgresql"]);
  const installed = findBinDir();
  if (install.status !== 0 || !installed) {
    throw new ServiceError("postgres", "installing postgresql with apt-get failed", install.output.split("\n").slice(-20));
  }
  return installed;
}

/** Runs a Postgres tool as the postgres user when we are root. cwd "/" because that user may not read ours. */
function runPgTool(binDir: string, tool: string, args: string[]): CommandResult {
  const file = path.join(binDir, tool);
  const [command, commandArgs] = isRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  return runCommand(command, commandArgs, { cwd: "/", stdio: ["ignore", "pipe", "pipe"] });
}

function isClusterRunning(binDir: string, layout: PostgresLayout): boolean {
  return fs.existsSync(layout.dataDir) && runPgTool(binDir, "pg_ctl", ["status", "-D", layout.dataDir]).status === 0;
}

export function prepareDirectories(layout: PostgresLayout): void {
  fs.mkdirSync(layout.socketDir, { recursive: true });
  if (!isRoot()) return;
  // A root umask of 077 would lock the postgres user out of the folders we just created.
  for (const dir of [path.dirname(layout.baseDir), layout.baseDir]) fs.chmodSync(dir, 0o755);
  const chown = runCommand("chown", ["postgres:postgres", layout.baseDir, layout.socketDir]);
  if (chown.status !== 0) throw new ServiceError("postgres", `chown of ${layout.baseDir} failed: ${chown.output}`);
}

export function initCluster(binDir: string, layout: PostgresLayout): void {
  if (fs.existsSync(path.join(layout.dataDir, "PG_VERSION"))) return;
  // C collation: identical sorting on every machine, and no dependency on generated locales.
  const result = runPgTool(binDir, "initdb", [
    "-D", layout.dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C",
  ]);
  if (result.status !== 0) {
    throw new ServiceError("postgres", "initdb failed", result.output.split("\n").slice(-20));
  }
}

/**
 * Starts the cluster and waits until it accepts connections. The port and settings are parameters so that a
 * fault drill can run a cluster of its own (durable settings, a free port) with the same code.
 */
export function startCluster(
  binDir: string,
  layout: PostgresLayout,
  port = POSTGRES_PORT,
  settings: readonly string[] = DEV_ONLY_SETTINGS,
): void {
  // pg_ctl hands -o to a shell, hence the quoted socket dir.
  const serverOptions = [
    `-p ${port}`,
    `-k '${layout.socketDir}'`,
    `-c listen_addresses=${LOCAL_HOST}`,
    ...settings.map((setting) => `-c ${setting}`),
  ].join(" ");
  const result = runPgTool(binDir, "pg_ctl", [
    "-D", layout.dataDir, "-l", layout.logFile, "-o", serverOptions, "-w", "-t", "30", "start",
  ]);
  if (result.status !== 0) {
    // pg_ctl itself only says "examine the log"; the log has the reason, unless it could not be written.
    const logLines = tailFile(layout.logFile);
    if (logLines.length > 0) throw new ServiceError("postgres", "pg_ctl could not start the server", logLines, layout.logFile);
    throw new ServiceError("postgres", "pg_ctl could not start the server", result.output.split("\n"));
  }
}

/** "fast" ends sessions and checkpoints; "immediate" is a crash: the next start replays the WAL. */
export function stopCluster(binDir: string, layout: PostgresLayout, mode: "fast" | "immediate" = "fast"): void {
  const result = runPgTool(binDir, "pg_ctl", ["-D", layout.dataDir, "-m", mode, "-w", "-t", "30", "stop"]);
  if (result.status !== 0) {
    throw new ServiceError("postgres", `pg_ctl stop failed: ${result.output.split("\n").at(-1)}`, tailFile(layout.logFile), layout.logFile);
  }
}

function connect(url: URL) {
  return postgres(url.toString(), { onnotice: () => {}, max: 1, connect_timeout: 3 });
}

/** A fresh client per attempt: postgres.js backs off reconnects after a failure, which would blow the deadline. */
async function probe(url: URL): Promise<void> {
  const sql = connect(url);
  try {
    await sql`select 1`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Authentication failures (SQLSTATE class 28) will not fix themselves by waiting. */
function isWorthRetrying(error: unknown): boolean {
  return !String((error as { code?: unknown }).code ?? "").startsWith("28");
}

/**
 * Waits for the server, then creates the URL's database from the `postgres` maintenance database.
 * Used for both the local instance and an external DATABASE_URL.
 */
export async function ensureDatabase(databaseUrl: string, timeoutMs: number): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ""));
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = "/postgres";
  await retryUntil(() => probe(adminUrl), timeoutMs, 500, isWorthRetrying);
  if (!name || name === "postgres") return;
  const sql = connect(adminUrl);
  try {
    const existing = await sql`select 1 from pg_database where datname = ${name}`;
    if (existing.length > 0) return;
    await sql`create database ${sql(name)}`.catch((error: { code?: string }) => {
      // Another process created it between our check and our create.
      if (error.code !== "42P04") throw error;
    });
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const localAdminUrl = DEFAULT_DATABASE_URL;
const SHARED_NOTE = `a Postgres not started from this checkout already answers on port ${POSTGRES_PORT}: using it`;

async function start(): Promise<StartResult> {
  const binDir = ensureBinDir();
  const layout = resolveLayout();
  const notes = layout.fallbackReason ? [`data in ${layout.baseDir} (${layout.fallbackReason})`] : [];

  if (isClusterRunning(binDir, layout)) {
    await ensureDatabaseOrFail(localAdminUrl, READY_TIMEOUT_MS, layout);
    return { state: "running", url: DEFAULT_DATABASE_URL, notes };
  }
  if (await isPortOpen(LOCAL_HOST, POSTGRES_PORT)) {
    // Most often another checkout's local instance (a second clone, a CI run): it serves the same URL, so use
    // it rather than fail. Only a port held by something that is not such a Postgres stops us.
    try {
      await ensureDatabase(localAdminUrl, 3000);
    } catch {
      throw new ServiceError(
        "postgres",
        `port ${POSTGRES_PORT} is in use by another process (not our cluster in ${layout.dataDir}); free it or set DATABASE_URL`,
      );
    }
    return { state: "running", url: DEFAULT_DATABASE_URL, notes: [...notes, SHARED_NOTE] };
  }
  prepareDirectories(layout);
  initCluster(binDir, layout);
  startCluster(binDir, layout);
  await ensureDatabaseOrFail(localAdminUrl, READY_TIMEOUT_MS, layout);
  return { state: "started", url: DEFAULT_DATABASE_URL, notes };
}

async function ensureDatabaseOrFail(url: string, timeoutMs: number, layout?: PostgresLayout): Promise<void> {
  try {
    await ensureDatabase(url, timeoutMs);
  } catch (error) {
    const logLines = layout ? tailFile(layout.logFile) : [];
    throw new ServiceError("postgres", `not usable at ${redactUrl(url)}: ${errorMessage(error)}`, logLines, layout?.logFile);
  }
}

async function stop(): Promise<boolean> {
  const binDir = findBinDir();
  if (!binDir) return false;
  const layout = resolveLayout();
  if (!isClusterRunning(binDir, layout)) return false;
  stopCluster(binDir, layout, "fast");
  return true;
}

async function status(): Promise<StatusResult> {
  const binDir = findBinDir();
  const layout = resolveLayout();
  if (binDir && isClusterRunning(binDir, layout)) return { state: "running", url: DEFAULT_DATABASE_URL };
  const notes = (await isPortOpen(LOCAL_HOST, POSTGRES_PORT))
    ? [`port ${POSTGRES_PORT} is in use by another process`]
    : [];
  return { state: "stopped", url: DEFAULT_DATABASE_URL, notes };
}

export const postgresService: LocalService = {
  name: "postgres",
  envVar: "DATABASE_URL",
  localUrl: DEFAULT_DATABASE_URL,
  start,
  prepareExternal: (url) => ensureDatabaseOrFail(url, EXTERNAL_WAIT_MS),
  stop,
  status,
};
