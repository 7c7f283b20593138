import { describe, expect, it } from "vitest";
import { challengeValue, dynamicValue } from "./decay.ts";

describe("dynamic points", () => {
  it("follows CTFd's curve: 500 down to 100 at 10 solves' decay", () => {
    const curve = { initial: 500, minimum: 100, decay: 10 };
    expect([1, 2, 3, 4, 5, 6, 11, 12, 100].map((solves) => dynamicValue(curve, solves))).toEqual([500, 496, 484, 464, 436, 400, 100, 100, 100]);
  });

  it("computes in integers: no fraction's rounding moves the value by a point", () => {
    // (100 − 500) / 3² × 3² is −400 exactly; in floating point, −44.44… × 9 rounds to −399.99…, whose ceiling is one too many.
    expect(dynamicValue({ initial: 500, minimum: 100, decay: 3 }, 4)).toBe(100);
    expect(dynamicValue({ initial: 500, minimum: 100, decay: 3 }, 2)).toBe(456);
    // Large events: (initial − minimum) × (solves − 1)² past 2^53.
    expect(dynamicValue({ initial: 1_000_000, minimum: 1, decay: 1_000_000 }, 100_001)).toBe(990_001);
  });

  it("leaves static challenges at their points, whatever the solves", () => {
    expect(challengeValue({ points: 300, scoring: "static", minimumPoints: null, decay: null }, 50)).toBe(300);
    expect(challengeValue({ points: 300, scoring: "dynamic", minimumPoints: 50, decay: 5 }, 0)).toBe(300);
  });
});
