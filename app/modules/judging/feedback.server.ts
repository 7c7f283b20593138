/**
 * Judging feedback returned to teams (docs/domain.md "Feedback to teams"). An admin publishes it per gate
 * (Settings → Judging feedback, off by default). Once a challenge's gate is published, a team reads on its
 * own submission its score per rubric criterion (the judges' mean), each judge's score and comment under
 * "Judge 1", "Judge 2"… (in the order the scores were first given, by score id; never a judge's id or name),
 * and the submission's score (the mean). Before that, or for another gate, nothing of it leaves the server:
 * `readFeedback` is the one place that decides, and it answers null.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { challengeCriteria, criterionScores, eventSettings, submissionScores, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { sharedRead, type EventVersions } from "../event-data/shared.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { meanCenti } from "../scoring/rules.ts";
import { FEEDBACK_GATE_NUMBERS } from "./schema.ts";

/** The gates whose feedback is published, ascending. */
export async function getFeedbackGates(): Promise<number[]> {
  const [row] = await getDb().select({ gates: eventSettings.feedbackGates }).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return normalise(row?.gates ?? []);
}

/** The published gates, read once per version of the event's settings when the request read the versions (app/modules/event-data/shared.server.ts). */
const publishedGates = sharedRead(["event_settings"], getFeedbackGates);

/** Each gate once, 1 to 5, ascending: a set, so the same choice in another order is no change. */
function normalise(gates: readonly number[]): number[] {
  return [...new Set(gates)].filter((gate) => FEEDBACK_GATE_NUMBERS.includes(gate as 1)).sort((a, b) => a - b);
}

/**
 * Publishes the feedback of exactly these gates (and withdraws the others'), in one transaction, recorded
 * (`event.feedback`, the gates before and after) only when the set changes. Returns the gates now published.
 */
export async function updateFeedbackGates(actor: Actor, gates: readonly number[]): Promise<number[]> {
  const after = normalise(gates);
  await getDb().transaction(async (tx) => {
    const [row] = await tx.select({ gates: eventSettings.feedbackGates }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!row) throw new DomainError(messages.judging.needsFinal, { status: 400 });
    const before = normalise(row.gates);
    if (before.join() === after.join()) return;
    await tx.update(eventSettings).set({ feedbackGates: after }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.feedback", before: { gates: before }, after: { gates: after } });
  });
  return after;
}

/** One judge's score as the team reads it: a number in the order the scores were given, never who. */
export interface JudgeFeedback {
  /** 1, 2, 3…: "Judge 1" is the judge whose score on this submission was given first. */
  number: number;
  scoreCenti: number;
  comment: string | null;
  /** Given to an earlier version of the answer (the team sent another since); it counts until re-scored. */
  earlierVersion: boolean;
}

export interface CriterionFeedback {
  name: string;
  /** The criterion's maximum, whole points. */
  maxPoints: number;
  /** The mean over the judges who scored this criterion, in hundredths; null when none did (a rubric changed since). */
  meanCenti: number | null;
}

export interface SubmissionFeedback {
  /** The submission's score: the judges' mean, in hundredths; null until a judge scores it. */
  meanCenti: number | null;
  /** The challenge's points: the most a score can be. */
  points: number;
  /** Rejected by a judge: it counts 0 whatever its score. */
  rejected: boolean;
  /** The challenge's rubric, in its order (empty without one). */
  criteria: CriterionFeedback[];
  judges: JudgeFeedback[];
}

export interface FeedbackSubject {
  submissionId: number;
  /** The challenge's gate. */
  wave: number;
  challengeId: number;
  points: number;
  scoreCenti: number | null;
  rejected: boolean;
}

/**
 * The feedback on a submission if its gate's is published, else null (the caller has checked the reader may
 * see the submission). `versions`: the event data's versions the request read (null: read the setting).
 */
export async function readFeedback(subject: FeedbackSubject, versions: EventVersions | null = null): Promise<SubmissionFeedback | null> {
  if (!(await publishedGates(versions)).includes(subject.wave)) return null;
  const db = getDb();
  const [scores, criteria] = await Promise.all([
    db
      .select({
        id: submissionScores.id,
        scoreCenti: submissionScores.scoreCenti,
        comment: submissionScores.comment,
        // Compared in Postgres, to the microsecond, as the judging queue compares them.
        earlierVersion: sql<boolean>`${submissionScores.updatedAt} < ${submissions.revisedAt}`,
      })
      .from(submissionScores)
      .innerJoin(submissions, eq(submissions.id, submissionScores.submissionId))
      .where(eq(submissionScores.submissionId, subject.submissionId))
      .orderBy(asc(submissionScores.id)),
    db
      .select({ id: challengeCriteria.id, name: challengeCriteria.name, maxPoints: challengeCriteria.maxPoints })
      .from(challengeCriteria)
      .where(eq(challengeCriteria.challengeId, subject.challengeId))
      .orderBy(asc(challengeCriteria.position)),
  ]);
  const given =
    scores.length && criteria.length
      ? await db
          .select({ criterionId: criterionScores.criterionId, scoreCenti: criterionScores.scoreCenti })
          .from(criterionScores)
          .where(
            and(
              anyOf(
                criterionScores.submissionScoreId,
                scores.map((score) => score.id),
              ),
              anyOf(
                criterionScores.criterionId,
                criteria.map((criterion) => criterion.id),
              ),
            ),
          )
      : [];
  return {
    meanCenti: subject.scoreCenti,
    points: subject.points,
    rejected: subject.rejected,
    criteria: criteria.map((criterion) => ({
      name: criterion.name,
      maxPoints: criterion.maxPoints,
      meanCenti: meanCenti(given.filter((score) => score.criterionId === criterion.id).map((score) => score.scoreCenti)),
    })),
    judges: scores.map((score, index) => ({
      number: index + 1,
      scoreCenti: score.scoreCenti,
      comment: score.comment?.trim() ? score.comment : null,
      earlierVersion: score.earlierVersion,
    })),
  };
}
