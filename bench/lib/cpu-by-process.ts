/**
 * Where the machine's CPU went over a window, by kind of process: the benchmark's web processes, its
 * workers, its own load generator, Postgres, Redis, the local S3, and the rest (the kernel's own work, every
 * other process on the machine, another benchmark's too, and processes that ended within the window). Postgres,
 * Redis and the S3 are every process of theirs on the machine, whoever it serves. Read from /proc (Linux): every
 * process's CPU time (user + system) at the window's start and at its end; a process started within the
 * window counts from zero. On another system every figure is null.
 */
import { readdirSync, readFileSync } from "node:fs";
import { machineCpuMs } from "./machine-load.ts";

/** A process as /proc shows it: its CPU time so far (ms), when it started, its command line (arguments joined by spaces). */
interface ProcessCpu {
  cpuMs: number;
  parent: number;
  /** Clock ticks after boot: with the pid, names the process (a pid may be reused). */
  startedAt: string;
  command: string;
}

/** Every process's CPU time now, by pid; null where /proc cannot be read. */
function everyProcess(): Map<number, ProcessCpu> | null {
  let pids: number[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return null;
  }
  const processes = new Map<number, ProcessCpu>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // After the command's name in brackets (which may hold spaces): utime and stime are fields 14 and 15 of
      // the line, in clock ticks (100 a second on Linux); the parent's pid field 4, starttime field 22.
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      processes.set(pid, { cpuMs, parent: Number(fields[1]), startedAt: fields[19], command });
    } catch {
      // Ended between the listing and the read.
    }
  }
  return processes;
}

/** The kinds of process a benchmark names; anything else falls to "the rest". */
export interface ProcessKinds {
  webPids: readonly number[];
  workerPids: readonly number[];
  /** A code runner's process (bench:runner): its sandboxed programs end within the window, so fall to the rest. */
  runnerPids?: readonly number[];
}

const KINDS = ["web processes", "worker processes", "code runner", "load generator (the benchmark's process)", "Postgres", "Redis", "S3 (s3rver)"] as const;
type Kind = (typeof KINDS)[number];
const REST = "the rest (the kernel, any other process)";

/**
 * A process's kind: a web or worker process or one it started (tsx's esbuild service counts with its process);
 * a service, by its command line; else the benchmark's own process or one it started.
 */
function kindOf(pid: number, processes: Map<number, ProcessCpu>, kinds: ProcessKinds): Kind | null {
  const ancestry: number[] = [];
  for (let ancestor: number | undefined = pid; ancestor !== undefined && ancestor > 1 && ancestry.length < 8; ancestor = processes.get(ancestor)?.parent) ancestry.push(ancestor);
  if (ancestry.some((each) => kinds.webPids.includes(each))) return "web processes";
  if (ancestry.some((each) => kinds.workerPids.includes(each))) return "worker processes";
  if (ancestry.some((each) => kinds.runnerPids?.includes(each))) return "code runner";
  const command = processes.get(pid)?.command ?? "";
  // The server's processes ("…/bin/postgres -D …") and its backends ("postgres: user db 127.0.0.1(…) idle").
  if (/(^|\/)postgres( |$)/.test(command) || command.startsWith("postgres:")) return "Postgres";
  if (/(^|\/)redis-server( |$)/.test(command)) return "Redis";
  if (/s3-server\.ts|s3rver/.test(command)) return "S3 (s3rver)";
  if (ancestry.includes(process.pid)) return "load generator (the benchmark's process)";
  return null;
}

export interface CpuShare {
  kind: string;
  /** CPU seconds over the window. */
  cpuSeconds: number;
  /** Share of the machine: of all its cores over the window (2 cores for 60 s = 120 s is 100 %). */
  machinePct: number;
}

/**
 * Starts a window now; `end()` gives each kind's CPU over it, the rest, and the machine's busy share (null where
 * /proc cannot be read).
 */
export function cpuByProcessWindow(kinds: ProcessKinds) {
  const before = everyProcess();
  const machineBefore = machineCpuMs();
  return {
    end(): { busyPct: number; shares: CpuShare[] } | null {
      const after = everyProcess();
      const machineAfter = machineCpuMs();
      const totalMs = machineAfter.total - machineBefore.total;
      const busyMs = machineAfter.busy - machineBefore.busy;
      if (!before || !after || !(totalMs > 0)) return null;
      const spent = new Map<string, number>(KINDS.map((kind) => [kind, 0]));
      for (const [pid, { cpuMs, startedAt }] of after) {
        const kind = kindOf(pid, after, kinds);
        if (kind === null) continue;
        // A pid that started at another moment is another process (the pid reused): it counts from zero. Not the
        // command line: Postgres's backends rewrite theirs as they work.
        const earlier = before.get(pid);
        const from = earlier && earlier.startedAt === startedAt ? earlier.cpuMs : 0;
        spent.set(kind, spent.get(kind)! + Math.max(0, cpuMs - from));
      }
      const named = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
      spent.set(REST, Math.max(0, busyMs - named));
      const share = (kind: string, ms: number): CpuShare => ({
        kind,
        cpuSeconds: +(ms / 1000).toFixed(2),
        machinePct: +((ms / totalMs) * 100).toFixed(1),
      });
      return { busyPct: +((busyMs / totalMs) * 100).toFixed(1), shares: [...spent].map(([kind, ms]) => share(kind, ms)) };
    },
  };
}

/**
 * Named groups of processes, each its root processes and every process they started (the links of /proc's
 * parent field): each group's CPU time (ms) over a window. As above, a process started within the window counts
 * from zero; one that ended within it is lost (its CPU with it). bench:flags measures a request's server CPU
 * so: its web processes, Postgres's postmaster with all its backends, redis-server. NaN where /proc cannot be read.
 * `end(excluded)`: processes left out (bench:flags: the backends of another database than the round's).
 */
export function processGroupsWindow(groups: Record<string, readonly number[]>) {
  const before = everyProcess();
  return {
    end(excluded: ReadonlySet<number> = new Set()): Record<string, number> {
      const after = everyProcess();
      const spent: Record<string, number> = Object.fromEntries(Object.keys(groups).map((name) => [name, before && after ? 0 : NaN]));
      if (!before || !after) return spent;
      for (const [pid, { cpuMs, startedAt }] of after) {
        if (excluded.has(pid)) continue;
        const ancestry: number[] = [];
        for (let ancestor: number | undefined = pid; ancestor !== undefined && ancestor > 1 && ancestry.length < 8; ancestor = after.get(ancestor)?.parent) ancestry.push(ancestor);
        const group = Object.keys(groups).find((name) => ancestry.some((each) => groups[name].includes(each)));
        if (group === undefined) continue;
        const earlier = before.get(pid);
        spent[group] += Math.max(0, cpuMs - (earlier && earlier.startedAt === startedAt ? earlier.cpuMs : 0));
      }
      return spent;
    },
  };
}
