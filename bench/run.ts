/**
 * `npm run bench` (the eight benchmarks at full size, one after another so they do not disturb each
 * other) and `npm run bench:smoke` (each at a size that takes seconds: it proves they still run and
 * that the standings end exact, and never judges timing). Exits non-zero if any benchmark fails.
 *
 *   node --import tsx bench/run.ts [--smoke] [--only live-path,pages] [--parallel N]
 */
import { spawn, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ensureBuild, REPO_ROOT } from "./lib/servers.ts";

export const BENCHMARKS = ["live-path", "standings-cost", "pages", "uploads", "event-day", "audit", "stampede", "flags", "signals"] as const;

const { values } = parseArgs({ options: { smoke: { type: "boolean", default: false }, only: { type: "string" }, parallel: { type: "string" } } });
// Full runs one at a time (each has the machine); smoke runs side by side (it judges no timing).
const lanes = Number(values.parallel ?? (values.smoke ? 3 : 1));
const selected = values.only ? BENCHMARKS.filter((name) => values.only!.split(",").includes(name)) : [...BENCHMARKS];

// The services are the project's own (idempotent); the build once here, not in each benchmark.
const services = spawnSync(process.execPath, ["--import", "tsx", "scripts/services.ts", "start"], { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "inherit"] });
if (services.status !== 0) process.exit(services.status ?? 1);
ensureBuild();

function runBenchmark(name: string): Promise<{ name: string; code: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `bench/${name}.ts`, ...(values.smoke ? ["--smoke"] : [])], { cwd: REPO_ROOT, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

const queue = [...selected];
const outcomes: Array<Awaited<ReturnType<typeof runBenchmark>>> = [];
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) outcomes.push(await runBenchmark(name));
  }),
);
console.info(`\n${values.smoke ? "bench:smoke" : "bench"}: ${outcomes.map((outcome) => `${outcome.name} ${outcome.code === 0 ? "ok" : `FAILED (${outcome.code})`} ${outcome.seconds.toFixed(0)} s`).join(", ")}`);
process.exit(outcomes.some((outcome) => outcome.code !== 0) ? 1 : 0);
