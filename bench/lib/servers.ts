/**
 * The real processes a benchmark runs against: the built web server (server.ts, NODE_ENV=production)
 * and BullMQ workers (workers/index.ts), each a child `node --import tsx` (one PID to measure and signal).
 */
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { productionServiceEnv } from "../../scripts/lib/local-services.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Shared by the bench (which signs session cookies) and every web process it starts. */
export const BENCH_SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";

/** Ports 4100-4199 are the benchmarks' (the e2e server owns 3105 and 3205). */
export const BENCH_PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 4100);

const children = new Set<ChildProcess>();
// A benchmark that crashes (a throw in a load generator's callback) leaves no server behind: the next run would
// find its ports taken and talk to the old servers, whose database is gone.
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** server.ts needs a Remix build: make one if it is missing (npm test has already built). */
export function ensureBuild() {
  if (existsSync(path.join(REPO_ROOT, "build", "index.js"))) return;
  console.info("bench: no build/ yet, running `npm run build`");
  const result = spawnSync("npm", ["run", "-s", "build"], { cwd: REPO_ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

/**
 * BENCH_CPU_PROF=<dir>: every web and worker process writes a V8 CPU profile there when it stops
 * (open it in Chrome DevTools or speedscope) — how the fixes in docs/performance-log.md were found.
 */
function nodeArgs(file: string, flags: readonly string[] = []): string[] {
  const profileDir = process.env.BENCH_CPU_PROF;
  return [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), ...flags, "--import", "tsx", file];
}

function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    SESSION_SECRET: BENCH_SESSION_SECRET,
    ...productionServiceEnv(),
    // The web process logs every request at info: at thousands of requests a second that is the bench.
    LOG_LEVEL: "warn",
    ...env,
  };
}

export interface WebProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
}

/**
 * Starts server.ts on `port` and resolves once /healthz answers. `root`: the checkout it runs from (another
 * one, built, to compare two versions side by side in one run: bench:live --versus). `flags`: node's own
 * (the soak's `--inspect=127.0.0.1:<port>`, to read the heap after a GC), after the web process's own
 * (scripts/lib/web-node-flags.ts).
 */
export async function startWeb(env: Record<string, string>, port: number, root = REPO_ROOT, flags: readonly string[] = [], logFile?: string): Promise<WebProcess> {
  if (root === REPO_ROOT) ensureBuild();
  else if (!existsSync(path.join(root, "build", "index.js"))) throw new Error(`${root} has no build/: run npm run build there first`);
  // A web process's own flags, as production starts it, from the checkout being started (a checkout older than
  // the list has none): a --versus run compares two versions as each would run.
  const webFlags = existsSync(path.join(root, "scripts", "lib", "web-node-flags.ts"))
    ? ((await import(pathToFileURL(path.join(root, "scripts", "lib", "web-node-flags.ts")).href)) as { WEB_NODE_FLAGS: readonly string[] }).WEB_NODE_FLAGS
    : [];
  // Its log (pino's JSON lines on stdout) is dropped unless a file is named (the soak keeps it, appended across restarts).
  const log = logFile ? openSync(logFile, "a") : "ignore";
  const child = spawn(process.execPath, nodeArgs("server.ts", [...webFlags, ...flags]), {
    cwd: root,
    env: processEnv({ ...env, PORT: String(port) }),
    stdio: ["ignore", log, "inherit"],
  });
  if (typeof log === "number") closeSync(log);
  children.add(child);
  child.on("exit", () => children.delete(child));
  return answering(child, port, "server.ts");
}

/** Resolves once the process on `port` answers /healthz; fails if it exits first or takes over 90 s. */
async function answering(child: ChildProcess, port: number, name: string): Promise<WebProcess> {
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a machine busy with other work, tsx compiling server.ts can take a while.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} on ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, port, pid: child.pid!, child };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${name} on ${port} did not answer /healthz within 90 s`);
}

/**
 * The live-path floor's "web process" (bench/lib/floor-web.ts: Socket.IO and the Redis adapter, no
 * application) on `port`, with the adapter's `key`; resolves once it answers /healthz.
 */
export function startFloorWeb(env: Record<string, string>, port: number, key: string): Promise<WebProcess> {
  return startBenchServer("bench/lib/floor-web.ts", { ...env, FLOOR_KEY: key }, port);
}

/** A bench's own bare server (`file`, e.g. bench/lib/floor-flag-web.ts) on `port`; resolves once it answers /healthz. */
export async function startBenchServer(file: string, env: Record<string, string>, port: number): Promise<WebProcess> {
  const child = spawn(process.execPath, nodeArgs(file), {
    cwd: REPO_ROOT,
    env: processEnv({ ...env, PORT: String(port) }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return answering(child, port, file);
}

/** The live-path floor's publisher (bench/lib/floor-publisher.ts), a child over IPC. */
export function startFloorPublisher(env: Record<string, string>): ChildProcess {
  const child = fork(path.join(REPO_ROOT, "bench/lib/floor-publisher.ts"), [], { cwd: REPO_ROOT, execArgv: nodeArgs("").slice(0, -1), env: processEnv(env) });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/** `rootOf(i)`: the checkout web i runs from (this one unless told). */
export async function startWebs(env: Record<string, string>, count: number, firstPort: number, rootOf: (index: number) => string = () => REPO_ROOT): Promise<WebProcess[]> {
  // BENCH_WEB_LOG=<path>: each web process's log kept in <path>.<index> (a diagnosis; dropped otherwise).
  const logOf = (index: number) => (process.env.BENCH_WEB_LOG ? `${process.env.BENCH_WEB_LOG}.${index}` : undefined);
  return Promise.all(Array.from({ length: count }, (_, index) => startWeb(env, firstPort + index, rootOf(index), [], logOf(index))));
}

/** Starts a worker process; resolves when it says it started (its only info line at start). `flags`: as startWeb's; `root` too. */
export function startWorker(env: Record<string, string>, flags: readonly string[] = [], root = REPO_ROOT): Promise<ChildProcess> {
  const child = spawn(process.execPath, nodeArgs("workers/index.ts", flags), {
    cwd: root,
    env: processEnv({ LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    let output = "";
    const onExit = (code: number | null) => reject(new Error(`worker exited early (${code})`));
    child.once("exit", onExit);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (output.length < 10_000) output += chunk.toString();
      if (/worker started/.test(output)) {
        child.off("exit", onExit);
        resolve(child);
      }
    });
  });
}

export function startWorkers(env: Record<string, string>, count: number, root = REPO_ROOT): Promise<ChildProcess[]> {
  return Promise.all(Array.from({ length: count }, () => startWorker(env, [], root)));
}

/** SIGTERM lets the process close its pools; if it is still alive after `ms` it is killed. */
export function stopChild(child: ChildProcess, ms = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Stops every process started here (stopChild, all at once). */
export async function stopChildren(ms = 5000) {
  await Promise.all([...children].map((child) => stopChild(child, ms)));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
