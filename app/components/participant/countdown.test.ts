import { describe, expect, it } from "vitest";
import { formatCountdown } from "./countdown.tsx";

describe("formatCountdown", () => {
  it("shows hh:mm:ss with hours past 24 as they are, never negative", () => {
    expect(formatCountdown(0)).toBe("00:00:00");
    expect(formatCountdown(-5000)).toBe("00:00:00");
    expect(formatCountdown(61_999)).toBe("00:01:01");
    expect(formatCountdown((49 * 3600 + 12 * 60 + 3) * 1000)).toBe("49:12:03");
  });
});
