/** A project-local, throwaway Redis: no persistence, so stopping it empties queues and caches. */
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { DEFAULT_REDIS_URL, LOCAL_DIR, LOCAL_HOST, REDIS_PORT } from "./local-services.ts";
import {
  aptInstall,
  errorMessage,
  findOnPath,
  isOurProcess,
  isPidAlive,
  isPortOpen,
  isRoot,
  readPidFile,
  retryUntil,
  runCommand,
  tailFile,
  waitUntil,
} from "./process.ts";
import { EXTERNAL_WAIT_MS, ServiceError, redactUrl, type LocalService, type StartResult, type StatusResult } from "./service.ts";

const REDIS_DIR = path.join(LOCAL_DIR, "redis");
const PID_FILE = path.join(REDIS_DIR, "redis.pid");
const LOG_FILE = path.join(REDIS_DIR, "redis.log");
const READY_TIMEOUT_MS = 10_000;

function ensureRedisServer(): string {
  const existing = findOnPath("redis-server");
  if (existing) return existing;
  if (!isRoot()) {
    throw new ServiceError("redis", "redis-server not found: install the `redis-server` package, or set REDIS_URL");
  }
  const install = aptInstall(["redis-server"]);
  const installed = findOnPath("redis-server");
  if (install.status !== 0 || !installed) {
    throw new ServiceError("redis", "installing redis-server with apt-get failed", install.output.split("\n").slice(-20));
  }
  return installed;
}

/** One PING on a fresh connection; ioredis's own reconnect loop would hide failures from the retry loop. */
async function ping(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // With retries off, connect() only says "Connection is closed"; the error event has the real cause.
  let cause: Error | undefined;
  client.on("error", (error: Error) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    client.disconnect();
  }
}

async function pingOrFail(url: string, timeoutMs: number, logFile?: string): Promise<void> {
  try {
    await retryUntil(() => ping(url), timeoutMs, 250);
  } catch (error) {
    const logLines = logFile ? tailFile(logFile) : [];
    throw new ServiceError("redis", `not reachable at ${redactUrl(url)}: ${errorMessage(error)}`, logLines, logFile);
  }
}

/** The pid from our pid file, if that process is still our redis-server; a stale file is removed. */
function ourPid(): number | null {
  const pid = readPidFile(PID_FILE);
  if (pid !== null && isOurProcess(pid, "redis-server")) return pid;
  fs.rmSync(PID_FILE, { force: true });
  return null;
}

function launch(redisServer: string): void {
  fs.mkdirSync(REDIS_DIR, { recursive: true });
  // Persistence off and noeviction: dev/test data is disposable, but BullMQ must never lose keys silently.
  const result = runCommand(redisServer, [
    "--daemonize", "yes",
    "--port", String(REDIS_PORT),
    "--bind", LOCAL_HOST,
    "--dir", REDIS_DIR,
    "--pidfile", PID_FILE,
    "--logfile", LOG_FILE,
    "--save", "",
    "--appendonly", "no",
    "--maxmemory-policy", "noeviction",
  ]);
  if (result.status !== 0) {
    throw new ServiceError("redis", `redis-server failed to start: ${result.output}`, tailFile(LOG_FILE), LOG_FILE);
  }
}

async function start(): Promise<StartResult> {
  const redisServer = ensureRedisServer();
  if (ourPid() !== null) {
    await pingOrFail(DEFAULT_REDIS_URL, READY_TIMEOUT_MS, LOG_FILE);
    return { state: "running", url: DEFAULT_REDIS_URL };
  }
  if (await isPortOpen(LOCAL_HOST, REDIS_PORT)) {
    // Another checkout's local Redis serves the same URL (every key carries REDIS_PREFIX): use it.
    try {
      await ping(DEFAULT_REDIS_URL);
    } catch {
      throw new ServiceError("redis", `port ${REDIS_PORT} is in use by another process; free it or set REDIS_URL`);
    }
    return {
      state: "running",
      url: DEFAULT_REDIS_URL,
      notes: [`a Redis not started from this checkout already answers on port ${REDIS_PORT}: using it`],
    };
  }
  launch(redisServer);
  await pingOrFail(DEFAULT_REDIS_URL, READY_TIMEOUT_MS, LOG_FILE);
  return { state: "started", url: DEFAULT_REDIS_URL };
}

async function stop(): Promise<boolean> {
  const pid = ourPid();
  if (pid === null) return false;
  const shutdown = findOnPath("redis-cli")
    ? runCommand("redis-cli", ["-h", LOCAL_HOST, "-p", String(REDIS_PORT), "shutdown", "nosave"])
    : null;
  if (shutdown?.status !== 0 && isPidAlive(pid)) process.kill(pid, "SIGTERM");
  if (!(await waitUntil(() => !isPidAlive(pid), 10_000))) {
    throw new ServiceError("redis", `pid ${pid} did not exit after shutdown`, tailFile(LOG_FILE), LOG_FILE);
  }
  fs.rmSync(PID_FILE, { force: true });
  return true;
}

async function status(): Promise<StatusResult> {
  if (ourPid() !== null) return { state: "running", url: DEFAULT_REDIS_URL };
  const notes = (await isPortOpen(LOCAL_HOST, REDIS_PORT)) ? [`port ${REDIS_PORT} is in use by another process`] : [];
  return { state: "stopped", url: DEFAULT_REDIS_URL, notes };
}

export const redisService: LocalService = {
  name: "redis",
  envVar: "REDIS_URL",
  localUrl: DEFAULT_REDIS_URL,
  start,
  prepareExternal: (url) => pingOrFail(url, EXTERNAL_WAIT_MS),
  stop,
  status,
};
