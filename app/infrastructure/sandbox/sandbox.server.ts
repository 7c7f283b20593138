/**
 * The sandbox every compile and every run of a code challenge goes through (docs/decisions/042-code-sandbox.md):
 *
 *   /bin/sh (as root: enters the run's control groups, then execs)
 *     → prlimit (CPU time, file size, open files, stack, processes, no core; address space where the language tolerates it)
 *     → setpriv (the slot's own unprivileged user, no groups, no capabilities, no new privileges)
 *     → bwrap (every namespace new, no user namespace inside, a new session, an empty environment, dies with
 *       its parent; /usr read-only, a few /etc directories, /proc and /dev of its own, the box, a size-capped
 *       /tmp; the seccomp filter of seccomp-filter.py)
 *     → the program.
 *
 * A wall-clock limit freezes and kills the whole group; standard output beyond its cap is cut (and ends the run).
 * The wall clock does not count the time the run waited for a CPU (the longest run delay of any of its threads,
 * from /proc/<pid>/task/<tid>/schedstat): a runner at a low priority beside busy web processes (docs/operations.md
 * "Code runners") must not turn a program that was only kept waiting into a time limit. A program that sleeps or
 * blocks still reaches it; whatever happens, a run ends by its wall limit and `WALL_WAIT_ALLOWANCE_MS` more (at
 * most `WALL_HARD_FACTOR` times its limit), so the runs' sweep never takes a live run for a lost one.
 */
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Readable } from "node:stream";
import { detectCgroups, type CgroupDriver } from "./cgroups.server.ts";

export const BWRAP = "/usr/bin/bwrap";
const SETPRIV = "/usr/bin/setpriv";
const PRLIMIT = "/usr/bin/prlimit";
const SECCOMP_GENERATOR = path.join(import.meta.dirname, "seccomp-filter.py");
/** The runner's users, one per slot, made by scripts/lib/ensure.sh (ensure_sandbox). */
export const SLOT_USER_PREFIX = "gk-sandbox-";

export interface Slot {
  index: number;
  user: string;
  uid: number;
  gid: number;
}

export interface SandboxHost {
  slots: Slot[];
  seccomp: Buffer;
  cgroups: CgroupDriver;
  /**
   * Set when the runner starts to stop: a service manager signals every process of the runner's, its programs
   * with it, and a program killed so is no verdict of the team's (app/modules/code/runner.server.ts).
   */
  stopping?: boolean;
}

export interface Limits {
  cpuMs: number;
  wallMs: number;
  memoryBytes: number;
  processes: number;
  /** The largest file the program may write (RLIMIT_FSIZE). */
  fileBytes: number;
  openFiles: number;
  stackBytes: number;
  /** RLIMIT_AS, or null for runtimes that reserve more than they use. */
  addressSpaceBytes: number | null;
  /** Standard output kept; more ends the run ("output" outcome). */
  outputBytes: number;
  /** Standard error kept (more is read and dropped). */
  errorBytes: number;
  /** The size of the private /tmp. */
  tmpBytes: number;
}

export interface SandboxRequest {
  slot: Slot;
  command: string[];
  /** The host directory seen as /box (the working directory). */
  box: string;
  boxWritable: boolean;
  /** A host file given as standard input (the sandbox sees the descriptor, never the path); else /dev/null. */
  stdinFile?: string;
  /** Host directories bound read-only at the same path (the JVM's /etc/java-17-openjdk). */
  readOnly?: string[];
  /** Host directories bound read-only elsewhere (a checker's files, at /data). */
  binds?: Array<{ from: string; to: string }>;
  limits: Limits;
}

export type Outcome = "exited" | "signaled" | "time" | "memory" | "output" | "sandbox-failure";

export interface SandboxResult {
  outcome: Outcome;
  exitCode: number | null;
  signal: number | null;
  cpuMs: number;
  wallMs: number;
  memoryBytes: number;
  stdout: Buffer;
  stderr: Buffer;
  /** bwrap's or the setup's own complaint when outcome is sandbox-failure. */
  failure?: string;
}

let host: Promise<SandboxHost | { reason: string }> | undefined;

function usersOf(count: number): Slot[] {
  const slots: Slot[] = [];
  for (let index = 0; index < count; index++) {
    const user = `${SLOT_USER_PREFIX}${index}`;
    try {
      const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()));
      slots.push({ index, user, uid: uid!, gid: gid! });
    } catch {
      break;
    }
  }
  return slots;
}

/**
 * What this machine offers, checked once: bwrap, setpriv and prlimit installed, the slot users made, root to
 * switch to them, the seccomp filter generated, control groups writable. Else the reason, said in full: a
 * runner refuses to start, the drill skips saying so.
 */
export function sandboxHost(maxSlots = 64, cpuNice = 0): Promise<SandboxHost | { reason: string }> {
  host ??= (async () => {
    for (const tool of [BWRAP, SETPRIV, PRLIMIT]) if (!existsSync(tool)) return { reason: `${tool} is missing (scripts/lib/ensure.sh ensure_sandbox installs it)` };
    if (process.getuid?.() !== 0) return { reason: "the runner must start as root to switch to its slot users (docs/decisions/042-code-sandbox.md)" };
    const slots = usersOf(maxSlots);
    if (slots.length === 0) return { reason: `no ${SLOT_USER_PREFIX}N users (scripts/lib/ensure.sh ensure_sandbox makes them)` };
    let seccomp: Buffer;
    try {
      seccomp = execFileSync("/usr/bin/python3", ["-I", SECCOMP_GENERATOR], { stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      return { reason: `the seccomp filter could not be generated (python3-seccomp missing?): ${(error as Error).message.split("\n")[0]}` };
    }
    if (seccomp.length === 0 || seccomp.length % 8 !== 0) return { reason: "the seccomp filter came out empty" };
    // The runs' CPU weight: the runner's nice level (RUNNER_NICE), so its programs yield to the web as it does.
    const cgroups = detectCgroups(`gatekeeper-sandbox-${process.pid}`, "/sys/fs/cgroup", cpuNice);
    if ("reason" in cgroups) return cgroups;
    return { slots, seccomp, cgroups: cgroups.driver };
  })();
  return host;
}

/** /dev/shm's size (POSIX shared memory, a runtime's semaphores): small; it counts against the run's memory too. */
const SHM_BYTES = 16 * 1024 * 1024;

let runCounter = 0;

function bwrapArguments(request: SandboxRequest): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    "--setenv", "PATH", "/usr/bin:/bin",
    "--setenv", "HOME", "/box",
    "--setenv", "LANG", "C.UTF-8",
    "--hostname", "sandbox",
    "--ro-bind", "/usr", "/usr",
    "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/bin", "/bin",
    "--symlink", "usr/sbin", "/sbin",
    "--proc", "/proc",
    "--dev", "/dev",
    "--size", String(SHM_BYTES),
    "--tmpfs", "/dev/shm",
    "--size", String(request.limits.tmpBytes),
    "--tmpfs", "/tmp",
  ];
  for (const dir of request.readOnly ?? []) if (existsSync(dir)) args.push("--ro-bind", dir, dir);
  if (existsSync("/etc/ld.so.cache")) args.push("--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache");
  args.push(request.boxWritable ? "--bind" : "--ro-bind", request.box, "/box", "--chdir", "/box");
  for (const bind of request.binds ?? []) args.push("--ro-bind", bind.from, bind.to);
  // Every mount made: the root and /dev (bwrap's own tmpfs) read-only, so the size-capped /tmp and /dev/shm (and the
  // box while it compiles) are all a program can write.
  args.push("--remount-ro", "/dev", "--remount-ro", "/");
  args.push("--seccomp", "3", "--json-status-fd", "4", "--");
  return args;
}

function prlimitArguments(limits: Limits): string[] {
  const cpuSeconds = Math.ceil(limits.cpuMs / 1000) + 1;
  const args = [
    `--cpu=${cpuSeconds}:${cpuSeconds + 1}`,
    `--fsize=${limits.fileBytes}`,
    `--nofile=${limits.openFiles}`,
    `--stack=${limits.stackBytes}`,
    // Per user, not per run: finished runs' zombies (until the machine's init reaps them) count too. The
    // pids cgroup is the run's exact limit; this only bounds the slot user should the cgroup ever be missing.
    "--nproc=512",
    "--core=0",
  ];
  if (limits.addressSpaceBytes !== null) args.push(`--as=${limits.addressSpaceBytes}`);
  return args;
}

/** However long a run waited for a CPU, it ends by this many times its wall-clock limit… */
export const WALL_HARD_FACTOR = 10;
/**
 * …and by its limit and this much more: the runs' sweep (app/modules/code/runs.server.ts) takes a run unheard of
 * for 3 minutes for lost, and a compile (30 s wall) and a checker's compile come before a run's first test.
 */
export const WALL_WAIT_ALLOWANCE_MS = 30_000;

/**
 * The wall clock's decision when its timer fires: stop the run, or look again in `wait` ms. `elapsedMs` since the
 * start, `waitedMs` of it spent waiting for a CPU (not the program's doing), the run's limit; the hard end above.
 */
export function wallClockDecision(elapsedMs: number, waitedMs: number, wallMs: number): { stop: true } | { stop: false; wait: number } {
  const hardEnd = wallMs + Math.min(wallMs * (WALL_HARD_FACTOR - 1), WALL_WAIT_ALLOWANCE_MS);
  if (elapsedMs >= hardEnd) return { stop: true };
  const counted = elapsedMs - Math.max(0, Math.min(waitedMs, elapsedMs));
  if (counted >= wallMs) return { stop: true };
  return { stop: false, wait: Math.max(100, Math.min(wallMs - counted, hardEnd - elapsedMs)) };
}

/**
 * The longest time any thread of these processes spent runnable but waiting for a CPU, in ms (the second field
 * of /proc/<pid>/task/<tid>/schedstat). The longest, not the sum: threads wait side by side, and a program of
 * many processes must not add their waits up into a clock that never runs.
 */
function runDelayMs(pids: number[]): number {
  let longest = 0;
  for (const pid of pids) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // Gone meanwhile.
    }
    for (const tid of threads) {
      try {
        longest = Math.max(longest, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[1] ?? 0) / 1e6);
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return longest;
}

/** Runs one command in the sandbox and says how it ended; never throws for what the program does. */
export async function runInSandbox(sandbox: SandboxHost, request: SandboxRequest): Promise<SandboxResult> {
  const { limits, slot } = request;
  const group = sandbox.cgroups.create(`slot${slot.index}-${++runCounter}`, { memoryBytes: limits.memoryBytes, processes: limits.processes + 4 });
  const stdin: number | "ignore" = request.stdinFile ? openSync(request.stdinFile, "r") : "ignore";
  const startedAt = performance.now();
  try {
    // The shell is the run's first process: it enters every group, then becomes prlimit (exec), so nothing
    // of the run ever runs outside them.
    const enter = 'for f in $GK_GROUPS; do echo $$ > "$f" || exit 125; done; unset GK_GROUPS; exec "$@"';
    const argv = [
      "-c", enter, "sandbox",
      PRLIMIT, ...prlimitArguments(limits), "--",
      SETPRIV, `--reuid=${slot.uid}`, `--regid=${slot.gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
      BWRAP, ...bwrapArguments(request), ...request.command,
    ];
    const stdio: StdioOptions = [stdin, "pipe", "pipe", "pipe", "pipe"];
    const child: ChildProcess = spawn("/bin/sh", argv, { cwd: "/", env: { GK_GROUPS: group.procsFiles.join(" "), PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv, stdio });
    const seccompPipe = child.stdio[3] as NodeJS.WritableStream;
    seccompPipe.on("error", () => {});
    seccompPipe.end(sandbox.seccomp);

    let outcome: Outcome | null = null;
    const stop = (why: Outcome) => {
      outcome ??= why;
      group.killAll();
    };
    const collect = (stream: Readable, cap: number, onOverflow?: () => void) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      stream.on("data", (chunk: Buffer) => {
        if (kept >= cap) {
          onOverflow?.();
          return;
        }
        const room = cap - kept;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        kept += Math.min(room, chunk.length);
        if (chunk.length > room) onOverflow?.();
      });
      return chunks;
    };
    const stdout = collect(child.stdio[1] as Readable, limits.outputBytes, () => stop("output"));
    const stderr = collect(child.stdio[2] as Readable, limits.errorBytes);
    const status = collect(child.stdio[4] as Readable, 64 * 1024);
    // The most run delay seen: an exited process's is lost, a reading may come after the processes are gone.
    let waited = 0;
    const checkWall = () => {
      try {
        waited = Math.max(waited, runDelayMs(group.pids()));
      } catch {
        // The group is being removed: the run is over.
      }
      const decision = wallClockDecision(performance.now() - startedAt, waited, limits.wallMs);
      if (decision.stop) stop("time");
      else wall = setTimeout(checkWall, decision.wait);
    };
    let wall = setTimeout(checkWall, limits.wallMs);
    // CPU time is watched too: a program spinning in several threads reaches its CPU limit before the wall clock.
    const cpuWatch = setInterval(() => {
      try {
        if (group.usage().cpuMs > limits.cpuMs + 50) stop("time");
      } catch {
        // The group is being removed.
      }
    }, 100);
    const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
    const exited = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })));
    clearTimeout(wall);
    clearInterval(cpuWatch);
    // A process that slipped into the background is in the group still: it goes with the run.
    if (group.pids().length > 0) group.killAll();
    await closed;
    const wallMs = performance.now() - startedAt;
    const usage = group.usage();
    const statusText = Buffer.concat(status).toString("utf8");
    const exitMatch = /"exit-code":\s*(\d+)/.exec(statusText);
    const result: SandboxResult = {
      outcome: "exited",
      exitCode: null,
      signal: null,
      cpuMs: usage.cpuMs,
      wallMs,
      memoryBytes: usage.memoryBytes,
      stdout: Buffer.concat(stdout),
      stderr: Buffer.concat(stderr),
    };
    if (exitMatch) {
      const code = Number(exitMatch[1]);
      if (code > 128 && code <= 128 + 64) result.signal = code - 128;
      else result.exitCode = code;
    } else if (outcome === null && (!statusText.includes("child-pid") || result.stderr.toString("utf8").startsWith("bwrap:"))) {
      // bwrap (or what starts it) failed before the program ran: the platform's fault, never the program's.
      result.outcome = "sandbox-failure";
      result.failure = `${result.stderr.toString("utf8").slice(0, 500)} (exit ${exited.code ?? exited.signal})`;
      return result;
    } else {
      // bwrap itself was killed (by the wall clock or the OOM killer) before it could write the status.
      result.signal = 9;
    }
    if (outcome === "output") result.outcome = "output";
    else if (usage.oomKilled || (usage.memoryLimitHit && (result.signal !== null || result.exitCode !== 0))) result.outcome = "memory";
    else if (outcome === "time" || usage.cpuMs > limits.cpuMs || result.signal === 24 /* SIGXCPU */) result.outcome = "time";
    else if (result.signal !== null) result.outcome = "signaled";
    return result;
  } finally {
    if (typeof stdin === "number") closeSync(stdin);
    await group.remove();
  }
}

