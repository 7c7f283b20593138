import { describe, expect, it } from "vitest";
import { WALL_HARD_FACTOR, WALL_WAIT_ALLOWANCE_MS, wallClockDecision } from "./sandbox.server.ts";

describe("the sandbox's wall clock", () => {
  it("stops a program that used its wall time, sleeping or blocked, waiting for no CPU", () => {
    expect(wallClockDecision(3_000, 0, 3_000)).toEqual({ stop: true });
    expect(wallClockDecision(3_010, 5, 3_000)).toEqual({ stop: true });
    expect(wallClockDecision(3_001, 5, 3_000)).toEqual({ stop: false, wait: 100 });
  });

  it("does not count the time the program waited for a CPU: it looks again when the rest is due", () => {
    // A runner kept waiting behind web processes: 2 of its 3 s were run delay.
    expect(wallClockDecision(3_000, 2_000, 3_000)).toEqual({ stop: false, wait: 2_000 });
    expect(wallClockDecision(5_000, 2_000, 3_000)).toEqual({ stop: true });
    // A delay read larger than the time elapsed counts as all of it, no more.
    expect(wallClockDecision(3_000, 9_000, 3_000)).toEqual({ stop: false, wait: 3_000 });
  });

  it("ends every run by its hard end, however long it waited: 10 times a short limit, 30 s more than a long one", () => {
    expect(wallClockDecision(1_000 * WALL_HARD_FACTOR, 1_000 * WALL_HARD_FACTOR, 1_000)).toEqual({ stop: true });
    expect(wallClockDecision(1_000 * WALL_HARD_FACTOR - 200, 1_000 * WALL_HARD_FACTOR - 200, 1_000)).toEqual({ stop: false, wait: 200 });
    // A compile's 30 s wall ends by 60 s: with a checker's compile after it, well inside the sweep's 3 minutes.
    expect(wallClockDecision(30_000 + WALL_WAIT_ALLOWANCE_MS, 50_000, 30_000)).toEqual({ stop: true });
    expect(wallClockDecision(59_000, 59_000, 30_000)).toEqual({ stop: false, wait: 1_000 });
  });
});
