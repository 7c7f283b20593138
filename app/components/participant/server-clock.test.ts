import { afterEach, describe, expect, it, vi } from "vitest";
import { serverClockOffset } from "./server-clock.ts";

/** A browser at `now` (its Date clock) whose monotonic clock reads `monotonic`, with these timing entries. */
function browser(now: number, monotonic: number, entries: { navigation?: object[]; resource?: object[] }, pathname = "/gates") {
  vi.useFakeTimers({ toFake: ["Date"], now });
  vi.stubGlobal("window", { location: { pathname, href: `http://localhost${pathname}` } });
  vi.stubGlobal("performance", {
    now: () => monotonic,
    getEntriesByType: (type: "navigation" | "resource") => entries[type] ?? [],
  });
}

const entry = (name: string, requestStart: number, responseStart: number, responseEnd = responseStart + 5) => ({
  name: `http://localhost${name}`,
  startTime: requestStart - 1,
  requestStart,
  responseStart,
  responseEnd,
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("serverClockOffset", () => {
  // The browser's Date reads 1,000,000 when its monotonic clock reads 5,000; the server's clock is 30 s ahead.
  const serverAt = (browserDate: number) => new Date(browserDate + 30_000).toISOString();

  it("takes the middle of the document's exchange as the moment the server read its clock", () => {
    // Sent at 1,000, first byte at 1,400 (monotonic): the middle, 1,200, is Date 996,200.
    browser(1_000_000, 5_000, { navigation: [entry("/gates", 1_000, 1_400)] });
    expect(serverClockOffset(serverAt(996_200))).toBe(30_000);
  });

  it("prefers the newest read of this page's data to the document, and ignores other paths", () => {
    browser(1_000_000, 5_000, {
      navigation: [entry("/gates", 100, 300)],
      resource: [entry("/gates.data", 4_000, 4_200), entry("/home.data", 4_500, 4_600), entry("/build/app.js", 4_700, 4_800)],
    });
    expect(serverClockOffset(serverAt(999_100))).toBe(30_000);
  });

  it("without a usable exchange (none, another page's document, or one too old), uses now: late, never early", () => {
    browser(1_000_000, 5_000, {});
    expect(serverClockOffset(serverAt(1_000_000))).toBe(30_000);
    browser(1_000_000, 5_000, { navigation: [entry("/home", 1_000, 1_400)] });
    expect(serverClockOffset(serverAt(1_000_000))).toBe(30_000);
    browser(1_000_000, 20_000, { navigation: [entry("/gates", 1_000, 1_400)] });
    expect(serverClockOffset(serverAt(1_000_000))).toBe(30_000);
  });

  it("gives a number whatever the timing API says", () => {
    browser(1_000_000, Number.NaN, { navigation: [entry("/gates", 1_000, 1_400)] });
    expect(serverClockOffset(serverAt(1_000_000))).toBe(30_000);
    expect(serverClockOffset("not a date")).toBe(0);
  });
});
