/**
 * How an award counts (docs/domain.md "Scoring and standings", Awards), pure: shared by the standings job,
 * the full rebuild and the tests. An award is team points: it counts in the team's total and, when it has a
 * category, in that category; never in a user's statistics or a solved count. A revoked award counts 0.
 */
import type { Category } from "../../../db/schema.ts";
import type { CategoryTotals } from "../scoring/rules.ts";

/** The most points one award gives or takes (either way). */
export const MAX_AWARD_POINTS = 100_000;

export interface CountedAward {
  pointsCenti: number;
  category: Category | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What the award counts now: its points, or 0 once revoked. */
export function countedAwardCenti(award: Pick<CountedAward, "pointsCenti" | "revokedAt">): number {
  return award.revokedAt ? 0 : award.pointsCenti;
}

/** When the award last moved the team's points: when it was revoked, else when it was given. */
export function awardChangedAt(award: Pick<CountedAward, "createdAt" | "revokedAt">): Date {
  return award.revokedAt ?? award.createdAt;
}

export interface AwardTotals {
  categories: CategoryTotals;
  totalCenti: number;
  /** The latest give or revoke among these awards, or null when there are none. */
  lastChangedAt: Date | null;
}

/** A team's awards summed: per category (an award without one counts only in the total) and in total. */
export function awardTotalsOf(awards: readonly CountedAward[]): AwardTotals {
  const totals: AwardTotals = { categories: { AI: 0, CS: 0, PS: 0, GD: 0 }, totalCenti: 0, lastChangedAt: null };
  for (const award of awards) {
    const counted = countedAwardCenti(award);
    if (award.category) totals.categories[award.category] += counted;
    totals.totalCenti += counted;
    const changedAt = awardChangedAt(award);
    if (!totals.lastChangedAt || changedAt > totals.lastChangedAt) totals.lastChangedAt = changedAt;
  }
  return totals;
}
