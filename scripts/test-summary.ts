/**
 * The closing lines of `npm test` (scripts/test.sh): how long each stage took, then one line for the
 * whole run from the vitest and Playwright JSON reports.
 */
import { readFileSync } from "node:fs";

const RESULTS = ".local/test-results";

function read(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

function minutes(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// stages.tsv: name, seconds, exit status; "total" last.
let stagesText = "";
try {
  stagesText = readFileSync(`${RESULTS}/stages.tsv`, "utf8");
} catch {
  // Run on its own, without scripts/test.sh: no stage times.
}
const stages = stagesText
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const [name, seconds, status] = line.split("\t");
    return { name, seconds: Number(seconds), status: Number(status) };
  });
if (stages.length) {
  console.log("\nstage times (m:ss):");
  const width = Math.max(...stages.map((stage) => stage.name.length));
  for (const stage of stages) {
    const mark = stage.status === 0 ? "" : `  (failed, exit ${stage.status})`;
    console.log(`  ${stage.name.padEnd(width)}  ${minutes(stage.seconds).padStart(5)}${mark}`);
  }
}

const vitest = read(`${RESULTS}/vitest.json`) as {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: Array<{ name: string; status: string; assertionResults?: Array<{ status: string }> }>;
} | null;
const playwright = read(`${RESULTS}/playwright.json`) as {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
  errors?: unknown[];
} | null;

const VITEST_STAGE = "vitest (unit, integration, fast drills)";
const E2E_STAGE = "e2e (Playwright, Chromium)";

// A failure that no test counts (a file that fails to import, Playwright's server not starting, a lint
// or typecheck error, a benchmark's crash) still counts as one, so the closing line can never read
// "0 failed" for a run that failed.
const uncounted: string[] = [];
for (const file of vitest?.testResults ?? []) {
  if (file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed")) uncounted.push(`vitest file ${file.name}`);
}
for (const stage of stages) {
  if (stage.status === 0 || stage.name === "total") continue;
  if (stage.name === VITEST_STAGE && ((vitest?.numFailedTests ?? 0) > 0 || uncounted.length > 0)) continue;
  if (stage.name === E2E_STAGE && (playwright?.stats?.unexpected ?? 0) > 0) continue;
  uncounted.push(`stage "${stage.name}"`);
}
for (const failure of uncounted) console.log(`failed outside any test: ${failure}`);

const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + uncounted.length;
const skipped = playwright?.stats?.skipped ?? 0;
const flaky = playwright?.stats?.flaky ?? 0;
if (flaky) console.log(`flaky (passed on retry): ${flaky}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
