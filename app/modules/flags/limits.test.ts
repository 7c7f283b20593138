import { describe, expect, it } from "vitest";
import { attemptsLeft, secondsUntil } from "./limits.ts";

const at = (seconds: number) => new Date(1_000_000 + seconds * 1000);

describe("wrong answers' limits as a player reads them", () => {
  it("says the wait in whole seconds, and the attempts left under a maximum", () => {
    expect(secondsUntil(at(61), at(60.2))).toBe(1);
    expect(secondsUntil(at(61), at(61))).toBe(0);
    expect(secondsUntil(null, at(0))).toBe(0);
    expect(attemptsLeft(null, 40)).toBeNull();
    expect(attemptsLeft(3, 1)).toBe(2);
    expect(attemptsLeft(3, 5)).toBe(0);
  });
});
