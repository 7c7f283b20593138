import { describe, expect, it } from "vitest";
import { isRealLocalTime, utcToZonedLocal, zonedLocalToUtc } from "./zoned-time.ts";

describe("event-zone datetime-local values", () => {
  it("reads the original platform's gate 1 opening (UTC+1) as 18:00 UTC", () => {
    expect(zonedLocalToUtc("2025-04-24T19:00", "Africa/Algiers")?.toISOString()).toBe("2025-04-24T18:00:00.000Z");
    expect(utcToZonedLocal(new Date("2025-04-24T18:00:00Z"), "Africa/Algiers")).toBe("2025-04-24T19:00");
  });

  it("handles daylight saving zones and bad input", () => {
    expect(zonedLocalToUtc("2025-07-01T12:00", "Europe/Paris")?.toISOString()).toBe("2025-07-01T10:00:00.000Z");
    expect(zonedLocalToUtc("2025-01-01T12:00", "Europe/Paris")?.toISOString()).toBe("2025-01-01T11:00:00.000Z");
    expect(utcToZonedLocal(new Date("2025-07-01T10:00:00Z"), "Europe/Paris")).toBe("2025-07-01T12:00");
    expect(zonedLocalToUtc("tomorrow", "UTC")).toBeNull();
  });

  it("refuses a time that does not exist instead of rolling it over", () => {
    for (const impossible of ["2025-02-30T10:00", "2025-02-29T10:00", "2025-04-31T10:00", "2025-13-01T10:00", "2025-00-10T10:00", "2025-04-00T10:00", "2025-04-24T24:00", "2025-04-24T25:61", "2025-04-24T19:60", "2025-04-24T19:00:60", "0099-01-01T10:00"]) {
      expect(isRealLocalTime(impossible), impossible).toBe(false);
      expect(zonedLocalToUtc(impossible, "Africa/Algiers"), impossible).toBeNull();
    }
    // The hour Paris skips on 30 March 2025 (02:00 → 03:00) exists on the calendar, not on its clocks.
    expect(zonedLocalToUtc("2025-03-30T02:30", "Europe/Paris")).toBeNull();
    expect(zonedLocalToUtc("2025-03-30T03:30", "Europe/Paris")?.toISOString()).toBe("2025-03-30T01:30:00.000Z");
    for (const real of ["2024-02-29T10:00", "2025-12-31T23:59", "2025-04-24T00:00:59"]) {
      expect(isRealLocalTime(real), real).toBe(true);
      expect(zonedLocalToUtc(real, "Africa/Algiers"), real).not.toBeNull();
    }
  });
});
