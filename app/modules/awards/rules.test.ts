import { describe, expect, it } from "vitest";
import { awardChangedAt, awardTotalsOf, countedAwardCenti, type CountedAward } from "./rules";

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000);
const award = (over: Partial<CountedAward>): CountedAward => ({ pointsCenti: 1000, category: null, createdAt: at(0), revokedAt: null, ...over });

describe("how an award counts", () => {
  it("counts its points until revoked, then 0; its last change is the revoke", () => {
    expect(countedAwardCenti(award({ pointsCenti: -250 }))).toBe(-250);
    expect(countedAwardCenti(award({ revokedAt: at(3) }))).toBe(0);
    expect(awardChangedAt(award({ createdAt: at(1) }))).toEqual(at(1));
    expect(awardChangedAt(award({ createdAt: at(1), revokedAt: at(4) }))).toEqual(at(4));
  });

  it("sums into the total, and into a category only when it has one", () => {
    const totals = awardTotalsOf([
      award({ pointsCenti: 5000, category: "CS", createdAt: at(1) }),
      award({ pointsCenti: -1250, createdAt: at(2) }),
      award({ pointsCenti: 700, category: "CS", createdAt: at(3), revokedAt: at(9) }),
      award({ pointsCenti: -300, category: "GD", createdAt: at(5) }),
    ]);
    expect(totals.categories).toEqual({ AI: 0, CS: 5000, PS: 0, GD: -300 });
    expect(totals.totalCenti).toBe(3450);
    expect(totals.lastChangedAt).toEqual(at(9));
    expect(awardTotalsOf([])).toEqual({ categories: { AI: 0, CS: 0, PS: 0, GD: 0 }, totalCenti: 0, lastChangedAt: null });
  });
});
