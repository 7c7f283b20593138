import { describe, expect, it } from "vitest";
import { formatDayTime } from "./format.ts";

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
