/**
 * Each drill writes what it counted to .local/drills/<drill>.json; `npm run drills` gathers them into a
 * table (and docs/RELIABILITY.md). The figures are the drill's own measurements, never typed by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LOCAL_DIR } from "../../../scripts/lib/local-services.ts";

export const DRILL_RESULTS_DIR = path.join(LOCAL_DIR, "drills");

/** `npm run drills` sets DRILLS_FULL=1: longer and heavier versions of the drills `npm test` runs. */
export const fullDrills = process.env.DRILLS_FULL === "1";

/** Things that must all still be there: `before` + `added` = `after`, so `lost` = 0. */
export interface ItemCount {
  what: string;
  before: number;
  /** Acknowledged to the user during the drill (what they were told is saved). */
  added: number;
  after: number;
}

export interface Timing {
  what: string;
  ms: number;
  /** The bound the drill asserts, if any. */
  limitMs?: number;
}

export interface DrillReport {
  drill: string;
  fault: string;
  /** What the user saw and what recovered it, in a few words each. */
  observations: string[];
  items: ItemCount[];
  timings: Timing[];
}

export const lostOf = (item: ItemCount) => item.before + item.added - item.after;

export function recordDrill(report: DrillReport) {
  mkdirSync(DRILL_RESULTS_DIR, { recursive: true });
  const record = { ...report, mode: fullDrills ? "full" : "fast", finishedAt: new Date().toISOString() };
  writeFileSync(path.join(DRILL_RESULTS_DIR, `${report.drill}.json`), `${JSON.stringify(record, null, 2)}\n`);
}
