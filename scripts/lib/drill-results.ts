/**
 * What each fault drill measured (.local/drills/<drill>.json, written by tests/drills) and how
 * `npm run drills` shows it: a table on the terminal and the "last result" block of docs/RELIABILITY.md.
 */
import fs from "node:fs";
import path from "node:path";
import { LOCAL_DIR } from "./local-services.ts";

export const DRILL_RESULTS_DIR = path.join(LOCAL_DIR, "drills");

/** Things that must all still be there: `before` + `added` = `after`, so nothing is lost. */
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
  /** How many times the drill broke something (a kill, a crash, an outage). */
  faults: number;
  /** What users saw and what recovered it, in a few words each. */
  observations: string[];
  items: ItemCount[];
  timings: Timing[];
}

export interface DrillRecord extends DrillReport {
  mode: "fast" | "full";
  finishedAt: string;
}

export interface DrillOutcome {
  record: DrillRecord | null;
  drill: string;
  passed: boolean;
}

export const lostOf = (item: ItemCount) => item.before + item.added - item.after;

export function readDrillRecord(drill: string, since: number): DrillRecord | null {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(DRILL_RESULTS_DIR, `${drill}.json`), "utf8")) as DrillRecord;
    return Date.parse(record.finishedAt) >= since ? record : null;
  } catch {
    return null;
  }
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

function timingText(timing: Timing): string {
  return `${timing.what}: ${seconds(timing.ms)}${timing.limitMs ? ` (limit ${seconds(timing.limitMs)})` : ""}`;
}

/** The block between the markers in docs/RELIABILITY.md, and what the terminal shows. */
export function renderDrillResults(outcomes: DrillOutcome[], ranAt: Date): string {
  const records = outcomes.flatMap((outcome) => (outcome.record ? [outcome.record] : []));
  const items = records.flatMap((record) => record.items);
  const lost = items.reduce((sum, item) => sum + lostOf(item), 0);
  const passed = outcomes.filter((outcome) => outcome.passed);
  const survived = records.filter((record) => passed.some((outcome) => outcome.drill === record.drill)).reduce((sum, record) => sum + record.faults, 0);
  const mode = records.some((record) => record.mode === "full") ? "`npm run drills` (full)" : "the fast drills of `npm test`";
  const lines = [
    `Last run: ${ranAt.toISOString().slice(0, 16).replace("T", " ")} UTC, ${mode}. ` +
      `**${passed.length} of ${outcomes.length} drills passed; faults survived: ${survived}; ` +
      `${items.reduce((sum, item) => sum + item.after, 0)} rows and objects counted after the faults; items lost = ${lost}.**`,
    "",
    "| drill | fault | items: before + acknowledged = after | lost | recovery | result |",
    "|---|---|---|---|---|---|",
  ];
  for (const outcome of outcomes) {
    const record = outcome.record;
    if (!record) {
      lines.push(`| ${outcome.drill} | — | — | — | — | ${outcome.passed ? "passed (no figures)" : "**FAILED** (no figures)"} |`);
      continue;
    }
    const counted = record.items.map((item) => `${item.what}: ${item.before} + ${item.added} = ${item.after}`).join("<br>");
    const itemsLost = record.items.reduce((sum, item) => sum + lostOf(item), 0);
    const recovery = record.timings.map(timingText).join("<br>");
    lines.push(`| ${record.drill} | ${record.fault} | ${counted} | ${itemsLost} | ${recovery} | ${outcome.passed ? "passed" : "**FAILED**"} |`);
  }
  for (const record of records) {
    lines.push("", `**${record.drill}**`, "", ...record.observations.map((observation) => `- ${observation}`));
  }
  return lines.join("\n");
}

interface ParsedBlock {
  header: string[];
  /** "name on date (mode, result)", one per drill run alone since the header's run. */
  alone: Map<string, string>;
  tableHead: string[];
  rows: Map<string, string>;
  sections: Map<string, string[]>;
}

const ALONE = "Run alone since: ";

function parseBlock(block: string): ParsedBlock {
  const parsed: ParsedBlock = { header: [], alone: new Map(), tableHead: [], rows: new Map(), sections: new Map() };
  let section: string[] | undefined;
  for (const line of block.trim().split("\n")) {
    const heading = /^\*\*([\w-]+)\*\*$/.exec(line);
    if (heading) {
      section = [];
      parsed.sections.set(heading[1], section);
    } else if (section) {
      section.push(line);
    } else if (line.startsWith(ALONE)) {
      for (const entry of line.slice(ALONE.length).replace(/\.$/, "").split("; ")) parsed.alone.set(entry.split(" ")[0], entry);
    } else if (line.startsWith("|")) {
      const name = line.split("|")[1].trim();
      if (parsed.tableHead.length < 2) parsed.tableHead.push(line);
      else parsed.rows.set(name, line);
    } else if (line.trim() !== "" && parsed.tableHead.length === 0) {
      parsed.header.push(line);
    }
  }
  return parsed;
}

/**
 * The block after a run of some drills only (`npm run drills -- NAME`): their rows and notes replace
 * theirs in `previous` (or are added), every other drill's stay as the last full run left them, and a
 * line under the full run's summary says which drills ran alone since, when.
 */
export function mergeDrillResults(previous: string, outcomes: DrillOutcome[], ranAt: Date): string {
  const old = parseBlock(previous);
  const fresh = parseBlock(renderDrillResults(outcomes, ranAt));
  const when = ranAt.toISOString().slice(0, 16).replace("T", " ");
  for (const outcome of outcomes) {
    const mode = outcome.record?.mode ?? "no figures";
    old.alone.set(outcome.drill, `${outcome.drill} on ${when} UTC (${mode}, ${outcome.passed ? "passed" : "FAILED"})`);
    const row = fresh.rows.get(outcome.drill);
    if (row) old.rows.set(outcome.drill, row);
    const section = fresh.sections.get(outcome.drill);
    if (section) old.sections.set(outcome.drill, section);
    else old.sections.delete(outcome.drill);
  }
  const lines = [
    ...(old.header.length > 0 ? old.header : fresh.header),
    `${ALONE}${[...old.alone.values()].join("; ")}.`,
    "",
    ...(old.tableHead.length === 2 ? old.tableHead : fresh.tableHead),
    ...old.rows.values(),
  ];
  for (const [name, section] of old.sections) lines.push("", `**${name}**`, ...section);
  return lines.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** The block between the markers in `file` (empty if none). */
export function readResultsFrom(file: string): string {
  const text = fs.readFileSync(file, "utf8");
  const begin = text.indexOf(RESULTS_BEGIN);
  const end = text.indexOf(RESULTS_END);
  return begin < 0 || end < begin ? "" : text.slice(begin + RESULTS_BEGIN.length, end);
}

export const RESULTS_BEGIN = "<!-- drills:results:begin (written by npm run drills) -->";
export const RESULTS_END = "<!-- drills:results:end -->";

/** Replaces the block between the markers; the rest of the file is left as it is. */
export function writeResultsInto(file: string, block: string): void {
  const text = fs.readFileSync(file, "utf8");
  const begin = text.indexOf(RESULTS_BEGIN);
  const end = text.indexOf(RESULTS_END);
  if (begin < 0 || end < begin) throw new Error(`${file} has no ${RESULTS_BEGIN} … ${RESULTS_END} block`);
  fs.writeFileSync(file, `${text.slice(0, begin + RESULTS_BEGIN.length)}\n${block}\n${text.slice(end)}`);
}
