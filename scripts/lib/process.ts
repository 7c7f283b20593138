/** Small process, file and network helpers shared by the local service managers. */
import { spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for error messages. */
  output: string;
}

export function runCommand(command: string, args: string[], options: SpawnSyncOptions = {}): CommandResult {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.error) {
    const stderr = result.error.message;
    return { status: null, stdout: "", stderr, output: stderr };
  }
  const stdout = String(result.stdout ?? "");
  const stderr = String(result.stderr ?? "");
  return { status: result.status, stdout, stderr, output: `${stdout}${stderr}`.trim() };
}

export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Looks a binary up on PATH without depending on `which` being installed. */
export function findOnPath(binary: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, binary);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return null;
}

/** Installs Debian packages; only attempted as root, where a fresh dev box usually lacks them. */
export function aptInstall(packages: string[]): CommandResult {
  console.log(`installing ${packages.join(" ")} with apt-get (not found on this machine)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = runCommand("apt-get", ["update"], { env, stdio: ["ignore", "pipe", "pipe"] });
  if (update.status !== 0) return update;
  return runCommand("apt-get", ["install", "-y", ...packages], { env, stdio: ["ignore", "pipe", "pipe"] });
}

export function isPidAlive(pid: number): boolean {
  try {
    // Signal 0 checks existence only. EPERM still means the process exists.
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return !isZombie(pid);
}

/**
 * Our daemons are reparented to PID 1 once this command exits. Some init processes (this VM's included)
 * reap them a second or more late, and kill(pid, 0) succeeds on a zombie: without this check a stop
 * would wait on a process that has already exited.
 */
function isZombie(pid: number): boolean {
  try {
    // The state letter follows the parenthesised command name, which may itself contain spaces.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

export function readPidFile(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * A pid file can outlive its process and the pid can be reused, so a live pid only counts as ours when its
 * command line mentions what we started. Without /proc (macOS) a live pid is the best we can check.
 */
export function isOurProcess(pid: number, commandMarker: string): boolean {
  if (!isPidAlive(pid)) return false;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return cmdline.includes(commandMarker);
  } catch {
    return !fs.existsSync("/proc/self");
  }
}

/** True when something accepts TCP connections on host:port. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Retries `attempt` until it resolves or the deadline passes, then rethrows the last error so the caller
 * can report why the service never became reachable.
 */
export async function retryUntil<T>(
  attempt: () => Promise<T>,
  timeoutMs: number,
  intervalMs = 250,
  isRetryable: (error: unknown) => boolean = () => true,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error) || Date.now() + intervalMs > deadline) throw error;
      await sleep(intervalMs);
    }
  }
}

/** Polls a condition; returns false on timeout instead of throwing. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() + intervalMs > deadline) return false;
    await sleep(intervalMs);
  }
}

export function tailFile(file: string, lines = 20): string[] {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines);
  } catch {
    return [];
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorMessage(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The pid in the pid file while that process is still ours (its command line names `marker`); a stale file is removed. */
export function ourPidFrom(pidFile: string, marker: string): number | null {
  const pid = readPidFile(pidFile);
  if (pid !== null && isOurProcess(pid, marker)) return pid;
  fs.rmSync(pidFile, { force: true });
  return null;
}

/**
 * Spawns `node --import tsx <script>` detached, so it outlives the command that started it, its output
 * appended to `logFile` and its pid written to `pidFile`; cwd is `root`, so `--import tsx` resolves from our
 * node_modules. Null when no process could be spawned.
 */
export function launchDetachedNode(script: string, root: string, logFile: string, pidFile: string, env: NodeJS.ProcessEnv = process.env): { pid: number; hasExited: () => boolean } | null {
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, detached: true, stdio: ["ignore", log, log], env });
  fs.closeSync(log);
  let exited = false;
  child.once("exit", () => (exited = true));
  child.unref();
  if (child.pid === undefined) return null;
  fs.writeFileSync(pidFile, `${child.pid}\n`);
  return { pid: child.pid, hasExited: () => exited };
}
