/**
 * `npm run drills`: every fault drill in its full form (DRILLS_FULL=1: longer outages, more load, and
 * BullMQ's own stalled-job retry waited for), then a summary table of what each one counted, also written
 * into the "Drills" section of docs/RELIABILITY.md (between its markers).
 *
 *   npm run drills                       all drills, full; updates docs/RELIABILITY.md
 *   npm run drills -- --fast             the fast versions `npm test` runs
 *   npm run drills -- --no-write         print the table only
 *   npm run drills -- s3-outage          only the drills whose file matches (vitest filters); their rows of
 *                                        the table replace theirs, the other drills' rows stay
 *
 * Each drill breaks a service instance of its own (Postgres cluster, Redis, s3rver on free ports) and
 * runs the app's real web and worker processes, so the shared services stay untouched; the web-tier drill
 * runs them behind nginx (installed first if missing: scripts/lib/ensure.sh).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./lib/local-services.ts";
import { DRILL_RESULTS_DIR, mergeDrillResults, readDrillRecord, readResultsFrom, renderDrillResults, writeResultsInto, type DrillOutcome } from "./lib/drill-results.ts";

const args = process.argv.slice(2);
const fast = args.includes("--fast");
const write = !args.includes("--no-write");
const filters = args.filter((arg) => !arg.startsWith("--"));
const DRILLS_DIR = path.join(REPO_ROOT, "tests", "drills");
const VITEST_REPORT = path.join(DRILL_RESULTS_DIR, "vitest.json");

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): number {
  return spawnSync(command, commandArgs, { cwd: REPO_ROOT, env, stdio: "inherit" }).status ?? 1;
}

if (run(process.execPath, ["--import", "tsx", "scripts/services.ts", "start"]) !== 0) process.exit(1);
// The web-tier drill runs Debian's nginx in front of the web processes: installed here if missing (as root).
// Without it that drill fails, saying so; the others still run.
run("bash", ["-c", "source scripts/lib/ensure.sh && ensure_nginx"]);
// The code sandbox's drill needs bubblewrap and its slot users (as root); without them it skips, saying why.
run("bash", ["-c", "source scripts/lib/ensure.sh && ensure_sandbox"]);
// Always a fresh build: the drills run the production web process, which serves it.
console.log("==> build");
if (run("npm", ["run", "-s", "build"], { ...process.env, NODE_ENV: "production" }) !== 0) process.exit(1);

const startedAt = Date.now();
console.log(`==> drills (${fast ? "fast" : "full"})`);
const status = run("npx", ["vitest", "run", "--project", "drills", "--reporter=default", "--reporter=json", `--outputFile=${VITEST_REPORT}`, ...filters], {
  ...process.env,
  DRILLS_FULL: fast ? "0" : "1",
});

/** Pass or fail per drill file, from vitest's own report. */
function fileResults(): Map<string, boolean> {
  try {
    const report = JSON.parse(readFileSync(VITEST_REPORT, "utf8")) as { testResults: Array<{ name: string; status: string }> };
    return new Map(report.testResults.map((result) => [path.basename(result.name, ".test.ts"), result.status === "passed"]));
  } catch {
    return new Map();
  }
}

const results = fileResults();
const drills = readdirSync(DRILLS_DIR)
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => path.basename(file, ".test.ts"))
  .filter((drill) => results.has(drill));
const outcomes: DrillOutcome[] = drills.map((drill) => ({ drill, passed: results.get(drill) === true, record: readDrillRecord(drill, startedAt) }));
const block = renderDrillResults(outcomes, new Date(startedAt));
console.log(`\n${block}\n`);
if (write && outcomes.length > 0) {
  const doc = path.join(REPO_ROOT, "docs", "RELIABILITY.md");
  // Some drills only: theirs replace their rows, the others' stay from the last full run.
  writeResultsInto(doc, filters.length > 0 ? mergeDrillResults(readResultsFrom(doc), outcomes, new Date(startedAt)) : block);
  console.log(`written to ${path.relative(REPO_ROOT, doc)} (Drills, last result)`);
}
process.exit(status);
