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

const vitest = read(`${RESULTS}/vitest.json`) as { numPassedTests?: number; numFailedTests?: number } | null;
const playwright = read(`${RESULTS}/playwright.json`) as {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
} | null;

const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
const skipped = playwright?.stats?.skipped ?? 0;
const flaky = playwright?.stats?.flaky ?? 0;
if (flaky) console.log(`flaky (passed on retry): ${flaky}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
