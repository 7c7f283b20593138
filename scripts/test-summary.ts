/** One closing line for the whole run, from the vitest and Playwright JSON reports. */
import { readFileSync } from "node:fs";

function read(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

const vitest = read(".local/test-results/vitest.json") as { numPassedTests?: number; numFailedTests?: number } | null;
const playwright = read(".local/test-results/playwright.json") as {
  stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number };
} | null;

const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
const skipped = playwright?.stats?.skipped ?? 0;
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
