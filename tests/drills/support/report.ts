/**
 * Each drill writes what it counted to .local/drills/<drill>.json; `npm run drills` gathers them into a
 * table (and docs/RELIABILITY.md). The figures are the drill's own measurements, never typed by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DRILL_RESULTS_DIR, type DrillRecord, type DrillReport } from "../../../scripts/lib/drill-results.ts";

/** `npm run drills` sets DRILLS_FULL=1: longer and heavier versions of the drills `npm test` runs. */
export const fullDrills = process.env.DRILLS_FULL === "1";

/** Written before the drill's assertions, so a failed drill still shows what it saw. */
export function recordDrill(report: DrillReport) {
  mkdirSync(DRILL_RESULTS_DIR, { recursive: true });
  const record: DrillRecord = { ...report, mode: fullDrills ? "full" : "fast", finishedAt: new Date().toISOString() };
  writeFileSync(path.join(DRILL_RESULTS_DIR, `${report.drill}.json`), `${JSON.stringify(record, null, 2)}\n`);
}
