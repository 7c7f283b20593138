import { describe, expect, it } from "vitest";
import { formatDayTime, formatPoints, formatSignedPoints } from "./format.ts";

describe("dates in the event's zone", () => {
  it("the same instant reads the same, a different one differently, per zone and language", () => {
    const iso = "2026-04-25T14:07:00.000Z";
    for (let round = 0; round < 2; round++) {
      expect(formatDayTime(iso, "Africa/Algiers")).toBe("Sat 25 Apr, 3:07 PM");
      expect(formatDayTime(iso, "UTC")).toBe("Sat 25 Apr, 2:07 PM");
      expect(formatDayTime("2026-04-25T14:08:00.000Z", "Africa/Algiers")).toBe("Sat 25 Apr, 3:08 PM");
      expect(formatDayTime(iso, "Africa/Algiers", "ar")).toMatch(/15:07$/);
    }
  });
});

describe("points", () => {
  it("each number its own text in each language, the first time and every time after, past the kept texts' bound", () => {
    const values = [0, -0, 12, 12.5, 12.25, 1234.75, -10.5, 1e6, 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY];
    const english = ["0", "-0", "12", "12.5", "12.25", "1,234.75", "-10.5", "1,000,000", "0.3", "0", "0"];
    for (let round = 0; round < 2; round++) {
      expect(values.map((value) => formatPoints(value))).toEqual(english);
      expect([formatPoints(1234.75, "ar"), formatPoints(12.5, "ar")]).toEqual(["1.234,75", "12,5"]);
      expect(formatSignedPoints(25)).toBe("+25");
      // Eleven thousand other numbers: the kept texts are cleared on the way, and nothing changes.
      const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
      for (let n = 0; n < 11_000; n++) if (formatPoints(n + 0.5) !== plain.format(n + 0.5)) expect(formatPoints(n + 0.5)).toBe(plain.format(n + 0.5));
    }
  });
});
