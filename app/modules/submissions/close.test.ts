import { describe, expect, it } from "vitest";
import { lastPartBy, LATE_PART_GRACE_MS, submissionsCloseOf, submissionsOpenAt } from "./close";

const at = (ms: number) => new Date(Date.UTC(2026, 2, 1, 10) + ms);

describe("when submissions close", () => {
  it("is the setting, else the final countdown's instant", () => {
    expect(submissionsCloseOf({ finalAt: at(0), submissionsCloseAt: at(-5) })).toEqual(at(-5));
    expect(submissionsCloseOf({ finalAt: at(0), submissionsCloseAt: at(5) })).toEqual(at(5));
    expect(submissionsCloseOf({ finalAt: at(0), submissionsCloseAt: null })).toEqual(at(0));
  });

  it("takes a request begun before the instant, not one begun at it; without settings, every one", () => {
    expect(submissionsOpenAt(at(0), at(-1))).toBe(true);
    expect(submissionsOpenAt(at(0), at(0))).toBe(false);
    expect(submissionsOpenAt(at(0), at(1))).toBe(false);
    expect(submissionsOpenAt(null, at(1))).toBe(true);
  });

  it("wants each part of the form by the instant and its grace", () => {
    expect(lastPartBy(at(0))).toBe(at(0).getTime() + LATE_PART_GRACE_MS);
    expect(lastPartBy(null)).toBeUndefined();
  });
});
