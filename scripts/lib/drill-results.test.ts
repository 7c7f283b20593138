import { describe, expect, it } from "vitest";
import { mergeDrillResults, renderDrillResults, type DrillOutcome, type DrillRecord } from "./drill-results.ts";

const record = (drill: string, lost = 0, mode: "fast" | "full" = "full"): DrillRecord => ({
  drill,
  fault: `${drill} broken`,
  faults: 1,
  observations: [`${drill} saw this`],
  items: [{ what: "rows", before: 1, added: 2, after: 3 - lost }],
  timings: [{ what: "back", ms: 1500, limitMs: 5000 }],
  mode,
  finishedAt: "2026-11-24T12:00:00.000Z",
});
const outcome = (drill: string, passed = true, lost = 0): DrillOutcome => ({ drill, passed, record: record(drill, lost) });

describe("the drills' last results in docs/RELIABILITY.md", () => {
  const full = renderDrillResults([outcome("postgres-restart"), outcome("redis-restart")], new Date("2026-11-23T05:29:00Z"));

  it("a run of some drills replaces their rows and notes and keeps the others'", () => {
    const merged = mergeDrillResults(full, [outcome("redis-restart", false, 1), outcome("web-tier-scale-out")], new Date("2026-11-24T13:20:00Z"));
    const lines = merged.split("\n");
    // The full run's summary stays, with the drills run alone since named under it.
    expect(lines[0]).toMatch(/^Last run: 2026-11-23 05:29 UTC/);
    expect(lines[1]).toBe("Run alone since: redis-restart on 2026-11-24 13:20 UTC (full, FAILED); web-tier-scale-out on 2026-11-24 13:20 UTC (full, passed).");
    const rows = lines.filter((line) => /^\| [a-z]/.test(line) && !line.startsWith("| drill"));
    expect(rows.map((row) => row.split("|")[1].trim())).toEqual(["postgres-restart", "redis-restart", "web-tier-scale-out"]);
    expect(rows[0]).toBe(full.split("\n").find((line) => line.startsWith("| postgres-restart")));
    expect(rows[1]).toContain("rows: 1 + 2 = 2 | 1 |");
    expect(rows[1]).toContain("**FAILED**");
    expect(merged.match(/^\*\*[\w-]+\*\*$/gm)).toEqual(["**postgres-restart**", "**redis-restart**", "**web-tier-scale-out**"]);
    expect(merged).toContain("**web-tier-scale-out**\n\n- web-tier-scale-out saw this");
  });

  it("a later run alone of the same drill replaces its note; merging is stable", () => {
    const once = mergeDrillResults(full, [outcome("web-tier-scale-out")], new Date("2026-11-24T13:20:00Z"));
    const twice = mergeDrillResults(once, [outcome("web-tier-scale-out")], new Date("2026-11-24T14:00:00Z"));
    expect(twice.split("\n")[1]).toBe("Run alone since: web-tier-scale-out on 2026-11-24 14:00 UTC (full, passed).");
    expect(twice.replace(/14:00/g, "13:20")).toBe(once);
  });
});
