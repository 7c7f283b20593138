/**
 * A run's conditions, for every table to state them: the load average, and how busy the machine's CPUs
 * were over a window, split into the benchmark's own processes and everything else (Postgres and Redis,
 * which serve the benchmark too, and whatever else the machine runs).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { cpuTimeMs } from "./http-load.ts";

/** All CPUs' busy and total time so far (ms), from /proc/stat (Linux); NaN elsewhere. */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user): ticks of 10 ms.
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) * 10;
    const idle = (fields[3] + fields[4]) * 10;
    return { busy: total - idle, total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

export const loadAverage1m = () => +os.loadavg()[0].toFixed(2);

/** Starts a window; `end()` gives the CPUs' busy share (% of all cores) and the part of it spent in `pids()`. */
export function cpuWindow(pids: () => number[]) {
  const machineStart = machineCpuMs();
  const startPids = pids();
  const ownStart = startPids.reduce((sum, pid) => sum + cpuTimeMs(pid), 0) + process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
  return {
    end() {
      const machineEnd = machineCpuMs();
      const self = process.cpuUsage();
      const ownEnd = startPids.reduce((sum, pid) => sum + cpuTimeMs(pid), 0) + self.user / 1000 + self.system / 1000;
      const total = machineEnd.total - machineStart.total;
      const busyPct = ((machineEnd.busy - machineStart.busy) / total) * 100;
      const benchPct = ((ownEnd - ownStart) / total) * 100;
      return { busyPct: +busyPct.toFixed(1), benchPct: +benchPct.toFixed(1), otherPct: +(busyPct - benchPct).toFixed(1), loadAverage1m: loadAverage1m() };
    },
  };
}
