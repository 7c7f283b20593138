/**
 * The scoring rules (docs/domain.md), pure: no I/O, shared by the judge's action, the standings
 * worker, the full rebuild and the tests. Points are integer hundredths ("centi", decision 003).
 */
import type { Category } from "../../../db/schema.ts";

export const categories = ["AI", "CS", "PS", "GD"] as const satisfies readonly Category[];

/** A challenge counts as solved at 65 % of its points. */
export const SOLVE_THRESHOLD_PERCENT = 65;

export type SubmissionStatus = "pending" | "approved" | "rejected" | "reviewed";

export const toCenti = (points: number) => Math.round(points * 100);
export const fromCenti = (centi: number) => centi / 100;

/** The submission's score: the judges' mean, rounded half up to the hundredth. Null when unscored. */
export function meanCenti(scores: readonly number[]): number | null {
  if (scores.length === 0) return null;
  return Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
}

export interface ScoredSubmission {
  category: Category;
  /** The challenge's points (whole points, not hundredths). */
  points: number;
  /**
   * The judge's rejection. Not the same as status "rejected": a team's update sets the status to pending
   * but the rejection stands (it counts 0) until a judge scores the submission again.
   */
  rejected: boolean;
  scoreCenti: number | null;
  scoredAt: Date | null;
  /** A flag solve: solved by definition, whatever its (dynamic) value has fallen to. Judged answers: false or absent. */
  flag?: boolean;
}

/** Points count once a judge scored the submission, unless it was rejected (which counts 0). */
export function countedCenti(submission: Pick<ScoredSubmission, "rejected" | "scoreCenti">): number {
  if (submission.scoreCenti === null || submission.rejected) return 0;
  return submission.scoreCenti;
}

/**
 * Whether a team's new version of its answer can move the standings or a member's statistics. A version keeps the
 * answer's judging (score, rejection, time: pending again, the judges' score stands until they score again) and is
 * credited to the member who sent it; so only a change of member on an answer a judge has already judged can (its
 * points and solve move to that member's statistics). A first answer, and a new version of one not judged yet or
 * sent by the member already credited, count nothing new.
 */
export function versionMovesStandings(before: { userId: number | null; rejected: boolean; scoreCenti: number | null; scoredAt: Date | null } | undefined, senderId: number): boolean {
  if (!before || before.userId === senderId) return false;
  return before.rejected || before.scoreCenti !== null || before.scoredAt !== null;
}

/** Solved: a flag solve; or a judged answer that counts, at least 65 % of the challenge's points. */
export function isSolved(submission: Pick<ScoredSubmission, "rejected" | "scoreCenti" | "points" | "flag">): boolean {
  if (submission.flag) return true;
  if (submission.scoreCenti === null || submission.rejected) return false;
  // score ≥ 65 % of points ⇔ scoreCenti ≥ 65 × points (points × 100 hundredths × 0.65), exact in integers.
  return submission.scoreCenti >= SOLVE_THRESHOLD_PERCENT * submission.points;
}

export type CategoryTotals = Record<Category, number>;

export interface Totals {
  categories: CategoryTotals;
  totalCenti: number;
  solvedCount: number;
  solvedByCategory: CategoryTotals;
  /** The latest time a judge changed the points one of these submissions counts, or null. */
  lastScoredAt: Date | null;
}

/** Category points, total, solved count: the same sum for a team's or a user's submissions. */
export function totalsOf(submissions: readonly ScoredSubmission[]): Totals {
  const totals: Totals = {
    categories: { AI: 0, CS: 0, PS: 0, GD: 0 },
    totalCenti: 0,
    solvedCount: 0,
    solvedByCategory: { AI: 0, CS: 0, PS: 0, GD: 0 },
    lastScoredAt: null,
  };
  for (const submission of submissions) {
    const counted = countedCenti(submission);
    totals.categories[submission.category] += counted;
    totals.totalCenti += counted;
    if (isSolved(submission)) {
      totals.solvedCount += 1;
      totals.solvedByCategory[submission.category] += 1;
    }
    if (submission.scoredAt && (!totals.lastScoredAt || submission.scoredAt > totals.lastScoredAt)) {
      totals.lastScoredAt = submission.scoredAt;
    }
  }
  return totals;
}

/** The new status after a judge's action: an explicit verdict wins; a first score marks it reviewed. */
export function statusAfterJudging(current: SubmissionStatus, verdict: Exclude<SubmissionStatus, "pending"> | undefined): SubmissionStatus {
  if (verdict) return verdict;
  return current === "pending" ? "reviewed" : current;
}

type Judged = Pick<ScoredSubmission, "rejected" | "scoreCenti" | "scoredAt"> & { status: SubmissionStatus };

/**
 * A judge's score (and optional verdict) applied to a submission. After judging, the rejection is exactly
 * the status "rejected". The tie-break time moves only when the points that count change: a second judge
 * confirming the same mean, or a score on a rejected submission, does not make the team "reach" its total later.
 */
export function applyJudging(
  before: Judged,
  judged: { scoreCenti: number | null; verdict: Exclude<SubmissionStatus, "pending"> | undefined; at: Date },
): Judged {
  const status = statusAfterJudging(before.status, judged.verdict);
  const after = { status, rejected: status === "rejected", scoreCenti: judged.scoreCenti };
  const changed = countedCenti(after) !== countedCenti(before);
  return { ...after, scoredAt: changed ? judged.at : before.scoredAt };
}
