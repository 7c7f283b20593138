/**
 * A judge scores a submission: one score per judge (re-scoring replaces it), the submission's
 * score becomes the judges' mean, its status moves on, and the team's standings are marked stale
 * in the same transaction; after commit the team is recomputed at once (the queue if that cannot be done).
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { rowsOf, type Rows, sendInOrder } from "../../../db/in-order.ts";
import { challenges, criterionScores as criterionScoresTable, submissionScores, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { executeAudited, type Actor } from "../audit/audit.server.ts";
import { rubricOf, rubricOfSubmissionSql } from "../challenges/challenges.server.ts";
import { endClaimOn } from "../judging/claims.server.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { markStandingsStale } from "../standings/outbox.server.ts";
import { recomputeStandingsNow } from "../standings/recompute.server.ts";
import { rubricScoreCenti, type Criterion } from "./rubric.ts";
import { applyJudging, fromCenti, meanCenti } from "./rules.ts";
import { scoreInputSchema, type Verdict } from "./score-input.ts";

/**
 * A refused score: the score itself (400, on the score input or on a rubric criterion's, `criteria.<id>`),
 * the submission is gone (404), or it changed since the judge looked (409).
 */
export class ScoringError extends DomainError {
  constructor(message: string, field: string | undefined, status: number) {
    super(message, { status, field });
  }
}

export interface ScoreCommand {
  submissionId: number;
  /** The judge, who scores as themselves, as the audit trail names them (their session or token). */
  judge: Actor & { id: number };
  /** When, if not now: only the demo seed, whose story is set in the past. */
  at?: Date;
  /** As typed: validated here against the challenge's points. Not used for a challenge with a rubric. */
  score?: string;
  /** A rubric challenge's score per criterion, as typed, by criterion id (app/modules/scoring/rubric.ts). */
  criteria?: Record<string, string | undefined>;
  comment?: string;
  verdict?: Verdict;
  /**
   * The version the judge looked at (the submission's `revisedAt`): if the team has sent another since,
   * the score is refused (409) rather than given to work the judge has not seen.
   */
  seenRevision?: Date;
}

export async function scoreSubmission(command: ScoreCommand) {
  const outcome = await getDb().transaction(async (tx) => {
    // Row lock: two judges scoring at once compute the mean one after the other. The challenge's row shared in
    // the same statement: its rubric and points cannot change under this score (an edit locks it for update),
    // and the points read here are those of the version locked.
    // The rubric in the same round trip, read once the lock is held: the rubric of the challenge as locked.
    const [locked, criteria] = await sendInOrder(tx, [lockSubmissionAndChallengeSql(command.submissionId), rubricOfSubmissionSql(command.submissionId)]);
    const row = lockedSubmissionOf(rowsOf(locked));
    if (!row) throw new ScoringError(messages.scoring.submissionNotFound, undefined, 404);
    if (command.seenRevision && command.seenRevision.getTime() !== row.revisedAt.getTime()) {
      throw new ScoringError(messages.scoring.changedWhileScoring, undefined, 409);
    }

    const rubric = rubricOf(rowsOf(criteria));
    const given = rubric.length ? criterionScores(rubric, command.criteria) : null;
    let scoreCenti: number;
    if (given) scoreCenti = rubricScoreCenti(row.points, rubric, given);
    else {
      const parsed = scoreInputSchema(row.points).safeParse(command.score);
      if (!parsed.success) throw new ScoringError(parsed.error.issues[0].message, "score", 400);
      scoreCenti = parsed.data;
    }

    const comment = command.comment?.trim() || null;
    const at = command.at ?? new Date();
    const { mine, scores, previous } = await upsertScoreAndReadAll(tx, { submissionId: row.id, judgeId: command.judge.id, scoreCenti, comment, at: command.at });
    // The judge's criterion scores are replaced with these (none without a rubric); the old ones go to the
    // audit record (teams read them once feedback is published). A challenge without a rubric has no
    // criterion scores to replace (they go with their criteria, and the rubric cannot change under this
    // score): no statement, one round trip less on every plain score.
    const replaced = rubric.length
      ? await tx
          .delete(criterionScoresTable)
          .where(eq(criterionScoresTable.submissionScoreId, mine))
          .returning({ criterionId: criterionScoresTable.criterionId, scoreCenti: criterionScoresTable.scoreCenti })
      : [];
    const namesOf = (scores: Iterable<[number, number]>) => {
      const byId = new Map(scores);
      return Object.fromEntries(rubric.filter((criterion) => byId.has(criterion.id)).map((criterion) => [criterion.name, fromCenti(byId.get(criterion.id)!)]));
    };
    const criteriaBefore = replaced.length ? namesOf(replaced.map((row): [number, number] => [row.criterionId, row.scoreCenti])) : undefined;
    const criteriaAfter = given ? namesOf(given) : undefined;
    if (given) await tx.insert(criterionScoresTable).values([...given].map(([criterionId, centi]) => ({ submissionScoreId: mine, criterionId, scoreCenti: centi })));
    const judged = applyJudging(row, { scoreCenti: meanCenti(scores), verdict: command.verdict, at });
    // Independent writes, sent together (one round trip; their order does not matter). The judge's claim on
    // it ends: they are done with it. The audit record says what the judge's score and the submission were.
    // Saving the very score again (same score, criteria, comment and status) changes nothing: no record.
    const unchanged =
      previous !== null &&
      previous.scoreCenti === scoreCenti &&
      previous.comment === comment &&
      judged.status === row.status &&
      JSON.stringify(criteriaBefore ?? {}) === JSON.stringify(criteriaAfter ?? {});
    const updateSubmission = tx.update(submissions).set(judged).where(eq(submissions.id, row.id));
    await Promise.all([
      markStandingsStale(tx, row.teamId),
      endClaimOn(tx, command.judge.id, row.id),
      // The record rides on the submission's update: one statement (audit.server.ts, executeAudited).
      unchanged ? updateSubmission : executeAudited(tx, command.judge, {
        kind: previous ? "score.changed" : "score.given",
        teamId: row.teamId,
        subjectId: row.id,
        at: command.at,
        before: {
          challenge: row.challengeTitle,
          score: previous ? fromCenti(previous.scoreCenti) : null,
          comment: previous?.comment ?? null,
          ...(criteriaBefore ? { criteria: criteriaBefore } : {}),
          submissionScore: row.scoreCenti === null ? null : fromCenti(row.scoreCenti),
          status: row.status,
        },
        after: {
          challenge: row.challengeTitle,
          score: fromCenti(scoreCenti),
          comment,
          ...(criteriaAfter ? { criteria: criteriaAfter } : {}),
          submissionScore: judged.scoreCenti === null ? null : fromCenti(judged.scoreCenti),
          status: judged.status,
        },
      }, updateSubmission.getSQL()),
    ]);
    return { submissionId: row.id, teamId: row.teamId, scoreCenti: judged.scoreCenti, status: judged.status };
  });
  await recomputeStandingsNow(outcome.teamId);
  broadcastJudgingChanged();
  return outcome;
}

/**
 * The submission locked for update and its challenge for share, in one statement (one round trip: drizzle's
 * builder takes a single locking strength); its row: lockedSubmissionOf.
 */
function lockSubmissionAndChallengeSql(submissionId: number): SQL {
  return sql`
    select ${submissions.id} as id, ${submissions.teamId} as team_id, ${submissions.status} as status, ${submissions.rejected} as rejected,
      ${submissions.scoreCenti} as score_centi, ${submissions.scoredAt} as scored_at, ${submissions.revisedAt} as revised_at,
      ${submissions.challengeId} as challenge_id, ${challenges.title} as challenge_title, ${challenges.points} as points
    from ${submissions} inner join ${challenges} on ${challenges.id} = ${submissions.challengeId}
    where ${submissions.id} = ${submissionId}
    for update of ${submissions} for share of ${challenges}`;
}

/** The locked row as drizzle's select would map the same columns; null: no such submission. */
function lockedSubmissionOf([found]: Rows) {
  if (!found) return null;
  return {
    id: Number(found.id),
    teamId: Number(found.team_id),
    status: found.status as (typeof submissions.$inferSelect)["status"],
    rejected: found.rejected === true,
    scoreCenti: found.score_centi === null ? null : Number(found.score_centi),
    scoredAt: found.scored_at === null ? null : (submissions.scoredAt.mapFromDriverValue(found.scored_at as string) as Date),
    revisedAt: submissions.revisedAt.mapFromDriverValue(found.revised_at as string) as Date,
    challengeId: Number(found.challenge_id),
    challengeTitle: String(found.challenge_title),
    points: Number(found.points),
  };
}

/** Each criterion's score as typed, checked against its maximum; the first bad one is refused on its own input. */
function criterionScores(rubric: readonly Criterion[], typed: Record<string, string | undefined> | undefined): Map<number, number> {
  if (!typed) throw new ScoringError(messages.scoring.rubricRequired, "score", 400);
  const given = new Map<number, number>();
  for (const criterion of rubric) {
    const parsed = scoreInputSchema(criterion.maxPoints).safeParse(typed[String(criterion.id)]);
    if (!parsed.success) throw new ScoringError(`${criterion.name}: ${parsed.error.issues[0].message}`, `criteria.${criterion.id}`, 400);
    given.set(criterion.id, parsed.data);
  }
  return given;
}

/**
 * Stores the judge's score (replacing their earlier one) and returns its row, every judge's score on the
 * submission, the new one included, and the judge's earlier score if any, in one statement: a
 * data-modifying CTE's rows are not visible to the rest of its statement, so the new score comes from
 * RETURNING, the earlier one and the others from the table as it was ("is distinct from": a deleted judge's
 * score stays, with judge_id null, and still counts).
 */
async function upsertScoreAndReadAll(
  tx: Queryable,
  score: { submissionId: number; judgeId: number; scoreCenti: number; comment: string | null; at?: Date },
): Promise<{ mine: number; scores: number[]; previous: { scoreCenti: number; comment: string | null } | null }> {
  // The transaction's time, as a default column would have it; the demo seed's story gives its own.
  const when = score.at ? sql`${score.at.toISOString()}::timestamptz` : sql`now()`;
  const rows = await tx.execute<{ id: number; score_centi: number; comment: string | null; role: "mine" | "other" | "previous" }>(sql`
    with upserted as (
      insert into ${submissionScores} (submission_id, judge_id, score_centi, comment, created_at, updated_at)
      values (${score.submissionId}, ${score.judgeId}, ${score.scoreCenti}, ${score.comment}, ${when}, ${when})
      on conflict (submission_id, judge_id) do update set score_centi = excluded.score_centi, comment = excluded.comment, updated_at = excluded.updated_at
      returning id, score_centi
    )
    select id, score_centi, null as comment, 'mine' as role from upserted
    union all
    select id, score_centi, comment, case when judge_id = ${score.judgeId} then 'previous' else 'other' end as role
    from ${submissionScores} where submission_id = ${score.submissionId}`);
  const previous = rows.find((row) => row.role === "previous");
  return {
    mine: Number(rows.find((row) => row.role === "mine")!.id),
    scores: rows.filter((row) => row.role !== "previous").map((row) => Number(row.score_centi)),
    previous: previous ? { scoreCenti: Number(previous.score_centi), comment: previous.comment } : null,
  };
}

/** A judge's own score on a submission, to prefill the form. */
export async function judgeScore(submissionId: number, judgeId: number) {
  const [row] = await getDb()
    .select({ scoreCenti: submissionScores.scoreCenti, comment: submissionScores.comment })
    .from(submissionScores)
    .where(and(eq(submissionScores.submissionId, submissionId), eq(submissionScores.judgeId, judgeId)));
  return row ?? null;
}
