/**
 * A judge scores a submission: one score per judge (re-scoring replaces it), the submission's
 * score becomes the judges' mean, its status moves on, and the team's standings are marked stale
 * in the same transaction; a standings job is enqueued after commit.
 */
import { and, eq } from "drizzle-orm";
import { challenges, submissionScores, submissions } from "../../../db/schema.ts";
import { getDb } from "../../utils/db.server.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { applyJudging, meanCenti } from "./rules.ts";
import { scoreInputSchema, type Verdict } from "./score-input.ts";

export class ScoringError extends Error {
  constructor(
    message: string,
    public readonly field: "score" | "submission",
    public readonly status: number,
  ) {
    super(message);
  }
}

export interface ScoreCommand {
  submissionId: number;
  judgeId: number;
  /** As typed: validated here against the challenge's points. */
  score: string;
  comment?: string;
  verdict?: Verdict;
}

export async function scoreSubmission(command: ScoreCommand) {
  const outcome = await getDb().transaction(async (tx) => {
    // Row lock: two judges scoring at once compute the mean one after the other.
    const [row] = await tx
      .select({
        id: submissions.id,
        teamId: submissions.teamId,
        status: submissions.status,
        rejected: submissions.rejected,
        scoreCenti: submissions.scoreCenti,
        scoredAt: submissions.scoredAt,
        points: challenges.points,
      })
      .from(submissions)
      .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
      .where(eq(submissions.id, command.submissionId))
      .for("update", { of: submissions });
    if (!row) throw new ScoringError(messages.scoring.submissionNotFound, "submission", 404);

    const parsed = scoreInputSchema(row.points).safeParse(command.score);
    if (!parsed.success) throw new ScoringError(parsed.error.issues[0].message, "score", 400);

    const comment = command.comment?.trim() || null;
    await tx
      .insert(submissionScores)
      .values({ submissionId: row.id, judgeId: command.judgeId, scoreCenti: parsed.data, comment })
      .onConflictDoUpdate({
        target: [submissionScores.submissionId, submissionScores.judgeId],
        set: { scoreCenti: parsed.data, comment, updatedAt: new Date() },
      });
    const scores = await tx.select({ scoreCenti: submissionScores.scoreCenti }).from(submissionScores).where(eq(submissionScores.submissionId, row.id));
    const judged = applyJudging(row, { scoreCenti: meanCenti(scores.map((score) => score.scoreCenti)), verdict: command.verdict, at: new Date() });
    await tx.update(submissions).set(judged).where(eq(submissions.id, row.id));
    await markStandingsStale(tx, row.teamId);
    return { submissionId: row.id, teamId: row.teamId, scoreCenti: judged.scoreCenti, status: judged.status };
  });
  await requestStandingsRecompute(outcome.teamId);
  return outcome;
}

/** A judge's own score on a submission, to prefill the form. */
export async function judgeScore(submissionId: number, judgeId: number) {
  const [row] = await getDb()
    .select({ scoreCenti: submissionScores.scoreCenti, comment: submissionScores.comment })
    .from(submissionScores)
    .where(and(eq(submissionScores.submissionId, submissionId), eq(submissionScores.judgeId, judgeId)));
  return row ?? null;
}
