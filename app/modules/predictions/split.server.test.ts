import { describe, expect, it } from "vitest";
import { privateRows, publicCount, publicRows } from "./split.server.ts";

const seedA = "11".repeat(32);
const seedB = "22".repeat(32);
const count = (marks: Uint8Array) => marks.reduce((sum, mark) => sum + mark, 0);

describe("the public rows of a prediction challenge", () => {
  it("are exactly the stated share, the same for the same seed, other rows for another seed", () => {
    const rows = 10_000;
    const first = publicRows(rows, 30, seedA);
    expect(count(first)).toBe(3000);
    expect(publicRows(rows, 30, seedA)).toEqual(first);
    const other = publicRows(rows, 30, seedB);
    expect(count(other)).toBe(3000);
    // Two independent draws of 30 % share about 9 % of the rows, far from all of them.
    let both = 0;
    for (let i = 0; i < rows; i++) both += first[i] & other[i];
    expect(both).toBeGreaterThan(600);
    expect(both).toBeLessThan(1200);
  });

  it("are not the first rows of the file: they are spread through it", () => {
    const marks = publicRows(1000, 50, seedA);
    expect(count(marks.subarray(0, 500))).toBeGreaterThan(180);
    expect(count(marks.subarray(0, 500))).toBeLessThan(320);
  });

  it("round the share to whole rows; 0 % and 100 % take none and all; the private rows are the others", () => {
    expect(publicCount(7, 30)).toBe(2);
    expect(count(publicRows(7, 0, seedA))).toBe(0);
    expect(count(publicRows(7, 100, seedA))).toBe(7);
    const marks = publicRows(7, 30, seedA);
    const others = privateRows(marks);
    for (let i = 0; i < 7; i++) expect(marks[i] + others[i]).toBe(1);
  });

  it("refuse a seed too short to key the draw", () => {
    expect(() => publicRows(10, 30, "ab")).toThrow();
  });
});
