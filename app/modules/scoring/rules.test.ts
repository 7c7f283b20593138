import { describe, expect, it } from "vitest";
import { applyJudging, countedCenti, isSolved, meanCenti, statusAfterJudging, totalsOf, versionMovesStandings, type ScoredSubmission } from "./rules";
import { scoreInputSchema, verdictChoices } from "./score-input";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
const sub = (over: Partial<ScoredSubmission>): ScoredSubmission => ({
  category: "AI",
  points: 100,
  rejected: false,
  scoreCenti: null,
  scoredAt: null,
  ...over,
});

describe("scores", () => {
  it("averages the judges, half up to the hundredth", () => {
    expect(meanCenti([])).toBeNull();
    expect(meanCenti([8000])).toBe(8000);
    expect(meanCenti([1000, 1001])).toBe(1001);
    expect(meanCenti([1000, 1000, 1001])).toBe(1000);
  });

  it("solves at exactly 65 % and not below", () => {
    expect(isSolved(sub({ scoreCenti: 6500 }))).toBe(true);
    expect(isSolved(sub({ scoreCenti: 6499 }))).toBe(false);
    expect(isSolved(sub({ points: 150, scoreCenti: 9750 }))).toBe(true);
    expect(isSolved(sub({ points: 150, scoreCenti: 9749 }))).toBe(false);
  });

  it("counts nothing for an unscored or rejected submission", () => {
    expect(countedCenti(sub({ scoreCenti: null }))).toBe(0);
    expect(countedCenti(sub({ scoreCenti: 9000, rejected: true }))).toBe(0);
    expect(isSolved(sub({ scoreCenti: 9000, rejected: true }))).toBe(false);
    expect(countedCenti(sub({ scoreCenti: 9000 }))).toBe(9000);
  });

  it("sums categories and solved counts, and remembers the last scoring time", () => {
    const totals = totalsOf([
      sub({ category: "AI", scoreCenti: 7000, scoredAt: at(1) }),
      sub({ category: "CS", points: 200, scoreCenti: 5050, scoredAt: at(5) }),
      sub({ category: "AI", scoreCenti: 10000, rejected: true, scoredAt: at(3) }),
      sub({ category: "GD", scoreCenti: null }),
    ]);
    expect(totals.categories).toEqual({ AI: 7000, CS: 5050, PS: 0, GD: 0 });
    expect(totals.totalCenti).toBe(12050);
    expect(totals.solvedCount).toBe(1);
    expect(totals.solvedByCategory.AI).toBe(1);
    expect(totals.lastScoredAt).toEqual(at(5));
  });

  it("marks a first score reviewed, keeps a verdict, honours a new one", () => {
    expect(statusAfterJudging("pending", undefined)).toBe("reviewed");
    expect(statusAfterJudging("rejected", undefined)).toBe("rejected");
    expect(statusAfterJudging("reviewed", "approved")).toBe("approved");
  });

  it("keeps a rejection through a team's update until a judge scores again", () => {
    const rejected = applyJudging(
      { status: "pending", rejected: false, scoreCenti: null, scoredAt: null },
      { scoreCenti: 9000, verdict: "rejected", at: at(1) },
    );
    expect(rejected).toMatchObject({ status: "rejected", rejected: true, scoredAt: null });
    // The team updates it: pending again, still rejected, still counting 0.
    const updated = { ...rejected, status: "pending" as const };
    expect(countedCenti(updated)).toBe(0);
    // A judge scores the update without a verdict: reviewed, and its points count from now on.
    expect(applyJudging(updated, { scoreCenti: 8000, verdict: undefined, at: at(2) })).toEqual({
      status: "reviewed",
      rejected: false,
      scoreCenti: 8000,
      scoredAt: at(2),
    });
  });

  it("moves the tie-break time only when the counted points change", () => {
    const first = applyJudging({ status: "pending", rejected: false, scoreCenti: null, scoredAt: null }, { scoreCenti: 5000, verdict: undefined, at: at(1) });
    expect(first.scoredAt).toEqual(at(1));
    // A second judge gives the same mean: the team did not reach its total any later.
    expect(applyJudging(first, { scoreCenti: 5000, verdict: undefined, at: at(4) }).scoredAt).toEqual(at(1));
    // Re-scoring a rejected submission changes nothing that counts.
    const rejected = applyJudging(first, { scoreCenti: 5000, verdict: "rejected", at: at(5) });
    expect(rejected.scoredAt).toEqual(at(5));
    expect(applyJudging(rejected, { scoreCenti: 7000, verdict: undefined, at: at(6) }).scoredAt).toEqual(at(5));
  });
});

describe("score input", () => {
  const schema = scoreInputSchema(150);
  const error = (value: unknown) => {
    const result = schema.safeParse(value);
    return result.success ? null : result.error.issues[0].message;
  };

  it("accepts 0 to the challenge's points with up to 2 decimals, in hundredths", () => {
    expect(schema.parse("0")).toBe(0);
    expect(schema.parse(" 97.5 ")).toBe(9750);
    expect(schema.parse("150")).toBe(15000);
    expect(schema.parse("33.33")).toBe(3333);
  });

  it("refuses the rest with a clear message", () => {
    expect(error("")).toBe("Please enter a score");
    expect(error(undefined)).toBe("Please enter a score");
    expect(error("abc")).toBe("The score must be a number");
    expect(error("1e3")).toBe("The score must be a number");
    expect(error("12.345")).toBe("Use at most 2 decimals");
    expect(error("150.01")).toBe("The score must be between 0 and 150");
    expect(error("-1")).toBe("The score must be between 0 and 150");
  });
});

describe("status choices beside a score", () => {
  const labels = (status: Parameters<typeof verdictChoices>[0]) => verdictChoices(status).map((choice) => `${choice.value}: ${choice.label}`);

  it("name what sending does: a pending row becomes reviewed by default, any other keeps its status", () => {
    expect(labels("pending")).toEqual([": Mark reviewed (default)", "approved: Approve", "rejected: Reject"]);
    expect(labels("reviewed")).toEqual([": Keep reviewed (default)", "approved: Approve", "rejected: Reject"]);
    expect(labels("approved")).toEqual([": Keep approved (default)", "rejected: Reject", "reviewed: Mark reviewed"]);
    expect(labels("rejected")).toEqual([": Keep rejected (default)", "approved: Approve", "reviewed: Mark reviewed"]);
  });

  it("offer each outcome once, and the default is what the rules do without a verdict", () => {
    for (const status of ["pending", "approved", "rejected", "reviewed"] as const) {
      const outcomes = verdictChoices(status).map((choice) => statusAfterJudging(status, choice.value || undefined));
      expect(new Set(outcomes).size).toBe(outcomes.length);
      expect(outcomes[0]).toBe(statusAfterJudging(status, undefined));
    }
  });
});

describe("a new version and the standings", () => {
  const unjudged = { userId: 1, rejected: false, scoreCenti: null, scoredAt: null };
  it("moves them only when another member is credited with an answer already judged", () => {
    expect(versionMovesStandings(undefined, 1)).toBe(false);
    expect(versionMovesStandings(unjudged, 2)).toBe(false);
    expect(versionMovesStandings({ ...unjudged, scoreCenti: 0, scoredAt: new Date() }, 1)).toBe(false);
    expect(versionMovesStandings({ ...unjudged, scoreCenti: 0, scoredAt: new Date() }, 2)).toBe(true);
    expect(versionMovesStandings({ ...unjudged, rejected: true, scoredAt: new Date() }, 2)).toBe(true);
    // Credited to nobody (an account deleted): any member sending it is a change.
    expect(versionMovesStandings({ ...unjudged, userId: null, scoreCenti: 500 }, 2)).toBe(true);
  });
});
