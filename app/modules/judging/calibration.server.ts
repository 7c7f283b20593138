/**
 * Judge calibration (docs/domain.md "Scoring and standings"): how each judge scores against the other
 * judges on the same submissions, so the admins see a judge who is much harsher or more generous than
 * the rest. Percentages are of each challenge's own points, so a 10-point and a 200-point challenge
 * weigh alike.
 */
import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import { challenges, submissionScores, submissions, users, type Role } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";

/** An outlier has at least this many submissions that another judge scored too... */
export const OUTLIER_MIN_SHARED = 3;
/** ...and on them differs from the others by at least this much on average, in percentage points. */
export const OUTLIER_MIN_DIFFERENCE = 15;

/** What the database says of one judge; every figure already rounded to one decimal. */
export interface JudgeFigures {
  id: number;
  name: string;
  role: Role;
  /** Submissions this judge scored. */
  scored: number;
  /** Their mean score, as a percentage of each challenge's points; null when they scored nothing. */
  meanPercent: number | null;
  /** Submissions they scored that at least one other judge scored too. */
  shared: number;
  /**
   * On those: their score minus the mean of the other judges' scores, in percentage points of the
   * challenge's points, averaged. Negative: harsher than the others. Null without shared submissions.
   */
  meanDifference: number | null;
  /** The sample standard deviation of those differences; null with fewer than two. */
  spread: number | null;
}

export interface JudgeCalibration extends JudgeFigures {
  outlier: boolean;
}

/** Rounded in SQL (numeric, half away from zero): what the page shows is exactly what the rule compares. */
const oneDecimal = (expression: ReturnType<typeof sql>) => sql<number | null>`round(${expression}, 1)::float8`;

/**
 * Every judge (role judge, and each admin who scored something) with their figures, in one query. A
 * score's "others" are every other score of the same submission, a deleted judge's included: they still
 * make the submission's mean.
 */
export async function judgeFigures(): Promise<JudgeFigures[]> {
  const db = getDb();
  const onSubmission = sql`over (partition by ${submissionScores.submissionId})`;
  const perScore = db.$with("per_score").as(
    db
      .select({
        judgeId: submissionScores.judgeId,
        percent: sql<string>`${submissionScores.scoreCenti}::numeric / ${challenges.points}`.as("percent"),
        // (own − mean of the others) / points, in hundredths over points: percentage points.
        difference: sql<string | null>`case when count(*) ${onSubmission} > 1 then
            (${submissionScores.scoreCenti} - (sum(${submissionScores.scoreCenti}) ${onSubmission} - ${submissionScores.scoreCenti})::numeric / (count(*) ${onSubmission} - 1))
            / ${challenges.points} end`.as("difference"),
      })
      .from(submissionScores)
      .innerJoin(submissions, eq(submissions.id, submissionScores.submissionId))
      .innerJoin(challenges, eq(challenges.id, submissions.challengeId)),
  );
  const rows = await db
    .with(perScore)
    .select({
      id: users.id,
      name: users.name,
      role: users.role,
      scored: sql<number>`count(${perScore.judgeId})::int`,
      meanPercent: oneDecimal(sql`avg(${perScore.percent})`),
      shared: sql<number>`count(${perScore.difference})::int`,
      meanDifference: oneDecimal(sql`avg(${perScore.difference})`),
      spread: oneDecimal(sql`stddev_samp(${perScore.difference})`),
    })
    .from(users)
    .leftJoin(perScore, eq(perScore.judgeId, users.id))
    .where(or(eq(users.role, "judge"), and(eq(users.role, "admin"), isNotNull(perScore.judgeId))))
    .groupBy(users.id);
  return rows;
}

/** The rule: enough shared submissions, and a mean difference of at least the threshold either way. */
export function isOutlier(judge: Pick<JudgeFigures, "shared" | "meanDifference">): boolean {
  return judge.shared >= OUTLIER_MIN_SHARED && judge.meanDifference !== null && Math.abs(judge.meanDifference) >= OUTLIER_MIN_DIFFERENCE;
}

/**
 * Marks the outliers and puts the judges in the page's order: the largest difference either way first,
 * judges with no shared submission last, then by name.
 */
export function calibrate(judges: JudgeFigures[]): JudgeCalibration[] {
  const distance = (judge: JudgeFigures) => (judge.meanDifference === null ? -1 : Math.abs(judge.meanDifference));
  return judges
    .map((judge) => ({ ...judge, outlier: isOutlier(judge) }))
    .sort((a, b) => distance(b) - distance(a) || a.name.localeCompare(b.name) || a.id - b.id);
}

/** The admins' calibration table: every judge, outliers marked, in order. */
export async function judgeCalibration(): Promise<JudgeCalibration[]> {
  return calibrate(await judgeFigures());
}
