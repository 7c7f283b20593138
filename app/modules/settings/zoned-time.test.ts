import { describe, expect, it } from "vitest";
import { utcToZonedLocal, zonedLocalToUtc } from "./zoned-time.ts";

describe("event-zone datetime-local values", () => {
  it("reads the spec's gate 1 opening (UTC+1) as 18:00 UTC", () => {
    expect(zonedLocalToUtc("2025-04-24T19:00", "Africa/Algiers")?.toISOString()).toBe("2025-04-24T18:00:00.000Z");
    expect(utcToZonedLocal(new Date("2025-04-24T18:00:00Z"), "Africa/Algiers")).toBe("2025-04-24T19:00");
  });

  it("handles daylight saving zones and bad input", () => {
    expect(zonedLocalToUtc("2025-07-01T12:00", "Europe/Paris")?.toISOString()).toBe("2025-07-01T10:00:00.000Z");
    expect(zonedLocalToUtc("2025-01-01T12:00", "Europe/Paris")?.toISOString()).toBe("2025-01-01T11:00:00.000Z");
    expect(utcToZonedLocal(new Date("2025-07-01T10:00:00Z"), "Europe/Paris")).toBe("2025-07-01T12:00");
    expect(zonedLocalToUtc("tomorrow", "UTC")).toBeNull();
  });
});
