import { describe, expect, it } from "vitest";
import { attemptsLeft, nextGuessAt, secondsUntil, windowMs } from "./limits.ts";

const at = (seconds: number) => new Date(1_000_000 + seconds * 1000);

describe("wrong answers' limits", () => {
  it("lets `limit` wrong answers through a minute, then waits for the oldest of them to be a minute old", () => {
    expect(nextGuessAt([at(2), at(1)], 2, 3)).toBeNull();
    expect(nextGuessAt([at(3), at(2), at(1)], 3, 3)).toEqual(at(61));
  });

  it("doubles the window with every further `limit` wrong answers, to 32 minutes at most", () => {
    expect([3, 5, 6, 9, 12, 300].map((count) => windowMs(count, 3) / 60_000)).toEqual([1, 1, 2, 4, 8, 32]);
    expect(nextGuessAt([at(10), at(9), at(8)], 6, 3)).toEqual(at(128));
  });

  it("says the wait in whole seconds, and the attempts left under a maximum", () => {
    expect(secondsUntil(at(61), at(60.2))).toBe(1);
    expect(secondsUntil(at(61), at(61))).toBe(0);
    expect(secondsUntil(null, at(0))).toBe(0);
    expect(attemptsLeft(null, 40)).toBeNull();
    expect(attemptsLeft(3, 1)).toBe(2);
    expect(attemptsLeft(3, 5)).toBe(0);
  });
});
