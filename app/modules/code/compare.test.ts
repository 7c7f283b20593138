import { describe, expect, it } from "vitest";
import { outputMatches, sameExact, sameNumeric } from "./compare";

describe("exact comparison", () => {
  it("ignores trailing spaces, a missing or extra final new line, Windows line ends", () => {
    expect(sameExact("1 2\n3\n", "1 2  \n3")).toBe(true);
    expect(sameExact("1 2\r\n3\r\n\n\n", "1 2\n3\n")).toBe(true);
  });
  it("keeps leading spaces, inner spaces, empty lines between and case", () => {
    expect(sameExact(" 1", "1")).toBe(false);
    expect(sameExact("1  2", "1 2")).toBe(false);
    expect(sameExact("1\n\n2", "1\n2")).toBe(false);
    expect(sameExact("Yes", "YES")).toBe(false);
    expect(sameExact("", "0")).toBe(false);
  });
});

describe("numeric comparison", () => {
  it("accepts numbers within the absolute or relative tolerance", () => {
    expect(sameNumeric("0.3333333", "0.333333333")).toBe(true);
    expect(sameNumeric("1000000.5", "1000000.0", 1e-6)).toBe(true);
    expect(sameNumeric("1e3\n2", "1000 2.0000000001")).toBe(true);
  });
  it("refuses numbers beyond it, words for numbers, a different count", () => {
    expect(sameNumeric("0.334", "0.333333")).toBe(false);
    expect(sameNumeric("nan", "1")).toBe(false);
    expect(sameNumeric("Infinity", "1")).toBe(false);
    expect(sameNumeric("1 2", "1")).toBe(false);
    expect(sameNumeric("YES 1", "NO 1")).toBe(false);
  });
  it("is chosen by the challenge's comparator", () => {
    expect(outputMatches("exact", "1.0", "1")).toBe(false);
    expect(outputMatches("numeric", "1.0", "1")).toBe(true);
  });
});
