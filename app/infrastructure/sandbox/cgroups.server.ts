/**
 * Control groups for the sandbox (docs/decisions/042-code-sandbox.md): memory with swap, PIDs and CPU
 * accounting for one run, entered by the run's first process before anything else starts, so every process
 * of the run is counted and can be frozen and killed together.
 *
 * v1 (a hierarchy per controller: memory, pids, cpuacct, freezer) and v2 (one hierarchy) alike; the groups
 * are made under the runner's own group, so whatever limits the runner's machine or container has hold too.
 *
 * Every run of a runner also sits in one CPU group of the runner's (`cpu`, where the machine has the controller),
 * weighted as the runner's nice level (RUNNER_NICE): a nice level alone would not reach the programs, since a
 * control group (or, in the root group, the session bwrap starts: an autogroup) competes at its own weight, not
 * its processes' nice levels.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface RunGroupLimits {
  memoryBytes: number;
  processes: number;
}

export interface RunGroupUsage {
  cpuMs: number;
  memoryBytes: number;
  /** The kernel's OOM killer ended a process of the group (the memory limit's verdict). */
  oomKilled: boolean;
  /** The memory limit was hit at least once (an allocation refused or reclaimed). */
  memoryLimitHit: boolean;
}

/** One run's group: the files its first process writes its pid into, and the means to read, freeze and kill it. */
export interface RunGroup {
  procsFiles: string[];
  usage(): RunGroupUsage;
  /** Freezes the group, kills every process in it, thaws it: nothing of the run can fork away meanwhile. */
  killAll(): void;
  /** The pids still in the group. */
  pids(): number[];
  remove(): Promise<void>;
}

export interface CgroupDriver {
  version: 1 | 2;
  create(name: string, limits: RunGroupLimits): RunGroup;
}

/** The CPU weight (v1 `cpu.shares`) of a nice level, as the kernel's table has it: 1024 at 0, about 1.25 times less a level. */
export function sharesOfNice(nice: number): number {
  return Math.max(2, Math.round(1024 / 1.25 ** nice));
}

const read = (file: string) => readFileSync(file, "utf8");
const readNumber = (file: string) => Number(read(file).trim()) || 0;
function keyed(file: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of read(file).split("\n")) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined) values.set(key, Number(value));
  }
  return values;
}
function pidsOf(file: string): number[] {
  return read(file)
    .split("\n")
    .filter(Boolean)
    .map(Number);
}
function killPids(pids: number[]) {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
/** A group can only be removed once its last process is reaped; the kill above is asynchronous. */
async function removeWhenEmpty(dirs: string[], procsFile: string) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (pidsOf(procsFile).length === 0) break;
    killPids(pidsOf(procsFile));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch {
      // Left for the next start's sweep (sweepStale).
    }
  }
}

/** This process's group in each v1 hierarchy, or its one v2 group (""), from /proc/self/cgroup. */
function ownGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of read("/proc/self/cgroup").split("\n")) {
    const [, controllers, group] = line.split(":");
    if (controllers === undefined || group === undefined) continue;
    for (const controller of controllers.split(",")) groups.set(controller, group);
  }
  return groups;
}

const V1_CONTROLLERS = ["memory", "pids", "cpuacct", "freezer"] as const;

function v1Driver(root: string, prefix: string, cpuNice: number): CgroupDriver | null {
  const own = ownGroups();
  const bases = new Map<string, string>();
  const baseOf = (controller: string) => {
    const group = own.get(controller);
    const mount = [path.join(root, controller), path.join(root, "cpu,cpuacct")].find((dir) => existsSync(path.join(dir, "cgroup.procs")));
    if (group === undefined || !mount) return null;
    const base = path.join(mount, group, prefix);
    mkdirSync(base, { recursive: true });
    // Resolved: where cpu and cpuacct share a hierarchy (cpu -> cpu,cpuacct), one directory serves both.
    return realpathSync(base);
  };
  for (const controller of V1_CONTROLLERS) {
    const base = baseOf(controller);
    if (!base) return null;
    bases.set(controller, base);
  }
  // The CPU weight is a courtesy to the web: a machine where it cannot be set still sandboxes.
  try {
    const cpuBase = baseOf("cpu");
    if (cpuBase) {
      writeFileSync(path.join(cpuBase, "cpu.shares"), String(sharesOfNice(cpuNice)));
      bases.set("cpu", cpuBase);
    }
  } catch {
    bases.delete("cpu");
  }
  const cpuBase = bases.get("cpu");
  const dir = (controller: string, name: string) => path.join(bases.get(controller)!, name);
  return {
    version: 1,
    create(name, limits) {
      const dirs = [...new Set([...V1_CONTROLLERS, ...(cpuBase ? ["cpu"] : [])].map((controller) => dir(controller, name)))];
      for (const made of dirs) mkdirSync(made);
      const memory = dir("memory", name);
      writeFileSync(path.join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // Memory and swap together: a program cannot page its way past the limit.
      if (existsSync(path.join(memory, "memory.memsw.limit_in_bytes"))) writeFileSync(path.join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      writeFileSync(path.join(memory, "memory.swappiness"), "0");
      writeFileSync(path.join(dir("pids", name), "pids.max"), String(limits.processes));
      const freezer = path.join(dir("freezer", name), "freezer.state");
      const procs = path.join(dir("freezer", name), "cgroup.procs");
      return {
        procsFiles: dirs.map((made) => path.join(made, "cgroup.procs")),
        usage() {
          const oom = keyed(path.join(memory, "memory.oom_control"));
          const failures = ["memory.failcnt", "memory.memsw.failcnt"].map((file) => (existsSync(path.join(memory, file)) ? readNumber(path.join(memory, file)) : 0));
          return {
            cpuMs: readNumber(path.join(dir("cpuacct", name), "cpuacct.usage")) / 1e6,
            memoryBytes: readNumber(path.join(memory, "memory.max_usage_in_bytes")),
            oomKilled: (oom.get("oom_kill") ?? 0) > 0,
            memoryLimitHit: failures.some((count) => count > 0),
          };
        },
        killAll() {
          try {
            writeFileSync(freezer, "FROZEN");
          } catch {
            // Killing still follows.
          }
          killPids(pidsOf(procs));
          try {
            writeFileSync(freezer, "THAWED");
          } catch {
            // Nothing to thaw.
          }
        },
        pids: () => pidsOf(procs),
        remove: () => removeWhenEmpty(dirs, procs),
      };
    },
  };
}

function v2Driver(root: string, prefix: string, cpuNice: number): CgroupDriver | null {
  const own = ownGroups().get("") ?? "/";
  const ownDir = path.join(root, own);
  const base = path.join(ownDir, prefix);
  const needed = ["memory", "pids", "cpu"];
  const available = read(path.join(ownDir, "cgroup.controllers")).trim().split(/\s+/);
  if (!needed.every((controller) => available.includes(controller))) return null;
  mkdirSync(base, { recursive: true });
  // No process may live in a group that hands controllers down: the runner moves itself into a leaf of its own.
  const enable = (dir: string) => writeFileSync(path.join(dir, "cgroup.subtree_control"), needed.map((controller) => `+${controller}`).join(" "));
  try {
    enable(ownDir);
  } catch {
    const leaf = path.join(ownDir, `${prefix}-runner`);
    mkdirSync(leaf, { recursive: true });
    for (const pid of pidsOf(path.join(ownDir, "cgroup.procs"))) writeFileSync(path.join(leaf, "cgroup.procs"), String(pid));
    enable(ownDir);
  }
  enable(base);
  // Every run's group is a child of the base: the base's weight is theirs together.
  try {
    writeFileSync(path.join(base, "cpu.weight.nice"), String(cpuNice));
  } catch {
    // A courtesy to the web (v1 above): without it the runs keep the default weight.
  }
  return {
    version: 2,
    create(name, limits) {
      const dir = path.join(base, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "memory.max"), String(limits.memoryBytes));
      if (existsSync(path.join(dir, "memory.swap.max"))) writeFileSync(path.join(dir, "memory.swap.max"), "0");
      writeFileSync(path.join(dir, "pids.max"), String(limits.processes));
      const procs = path.join(dir, "cgroup.procs");
      return {
        procsFiles: [procs],
        usage() {
          const events = keyed(path.join(dir, "memory.events"));
          const peak = path.join(dir, "memory.peak");
          return {
            cpuMs: (keyed(path.join(dir, "cpu.stat")).get("usage_usec") ?? 0) / 1000,
            memoryBytes: existsSync(peak) ? readNumber(peak) : readNumber(path.join(dir, "memory.current")),
            oomKilled: (events.get("oom_kill") ?? 0) > 0,
            memoryLimitHit: (events.get("max") ?? 0) > 0,
          };
        },
        killAll() {
          if (existsSync(path.join(dir, "cgroup.kill"))) writeFileSync(path.join(dir, "cgroup.kill"), "1");
          else {
            writeFileSync(path.join(dir, "cgroup.freeze"), "1");
            killPids(pidsOf(procs));
            writeFileSync(path.join(dir, "cgroup.freeze"), "0");
          }
        },
        pids: () => pidsOf(procs),
        remove: () => removeWhenEmpty([dir], procs),
      };
    },
  };
}

/**
 * The machine's control groups, or why there are none to use: v2 where /sys/fs/cgroup is the unified
 * hierarchy, else v1 (memory, pids, cpuacct, freezer mounted). Only root (or a delegated user) can make groups.
 */
export function detectCgroups(prefix: string, root = "/sys/fs/cgroup", cpuNice = 0): { driver: CgroupDriver } | { reason: string } {
  try {
    if (existsSync(path.join(root, "cgroup.controllers"))) {
      const driver = v2Driver(root, prefix, cpuNice);
      return driver ? { driver } : { reason: "cgroup v2 without the memory, pids and cpu controllers delegated to this process" };
    }
    const driver = v1Driver(root, prefix, cpuNice);
    return driver ? { driver } : { reason: "cgroup v1 without the memory, pids, cpuacct and freezer hierarchies mounted" };
  } catch (error) {
    return { reason: `control groups cannot be made here (${(error as Error).message})` };
  }
}
