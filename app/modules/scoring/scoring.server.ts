/**
 * A judge scores a submission: one score per judge (re-scoring replaces it), the submission's
 * score becomes the judges' mean, its status moves on, and the team's standings are marked stale
 * in the same transaction; after commit the team is recomputed at once (the queue if that cannot be done).
 */
import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { GENERIC_PLANS, prebuilt, rowsOf, type Rows, sendInOrder } from "../../../db/in-order.ts";
import { challenges, criterionScores as criterionScoresTable, submissionScores, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { auditedPrebuilt, type Actor } from "../audit/audit.server.ts";
import { rubricOf, rubricOfSubmission } from "../challenges/challenges.server.ts";
import { endClaim } from "../judging/claims.server.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { changeTeamThenRecompute } from "../standings/recompute.server.ts";
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
  // The score is committed, then its team recomputed on the same connection (the live path): its last
  // statements go out with the COMMIT and the recompute's first ones (changeTeamThenRecompute).
  const outcome = await changeTeamThenRecompute(async (tx) => {
    // Row lock: two judges scoring at once compute the mean one after the other. The challenge's row shared in
    // the same statement: its rubric and points cannot change under this score (an edit locks it for update),
    // and the points read here are those of the version locked.
    // In the same round trip, each run once the one before has ended: the rubric, read once the lock is held (the
    // rubric of the challenge as locked), and a single score typed as a number stored at once. The checks below
    // then decide on what was locked; a score they refuse is rolled back with the transaction.
    const comment = command.comment?.trim() || null;
    const at = command.at ?? new Date();
    const typed = command.criteria ? null : scoreInputSchema(Number.POSITIVE_INFINITY).safeParse(command.score);
    const early = typed?.success ? upsertScoreSql({ submissionId: command.submissionId, judgeId: command.judge.id, scoreCenti: typed.data, comment, at: command.at }) : null;
    const [plans, locked, criteria, stored] = await sendInOrder(tx, [
      GENERIC_PLANS,
      lockSubmissionAndChallenge({ submissionId: command.submissionId }),
      rubricOfSubmission({ submissionId: command.submissionId }),
      ...(early ? [early] : []),
    ]);
    rowsOf(plans);
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

    // The score stored with the lock is this one (a plain score, checked above); a rubric's is stored now.
    const upsert = stored && !given ? stored : (await sendInOrder(tx, [upsertScoreSql({ submissionId: row.id, judgeId: command.judge.id, scoreCenti, comment, at: command.at })]))[0];
    const { mine, scores, previous } = scoresOf(rowsOf(upsert));
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
    const judged = applyJudging(row, { scoreCenti: meanCenti(scores), verdict: command.verdict, at });
    // The last writes, independent of each other: sent with the COMMIT. The judge's criterion scores; the
    // judge's claim on it ends (they are done with it); the submission's update, with the audit record of what
    // the judge's score and the submission were. Saving the very score again (same score, criteria, comment and
    // status) changes nothing: no record.
    const unchanged =
      previous !== null &&
      previous.scoreCenti === scoreCenti &&
      previous.comment === comment &&
      judged.status === row.status &&
      JSON.stringify(criteriaBefore ?? {}) === JSON.stringify(criteriaAfter ?? {});
    const update = { submissionId: row.id, status: judged.status, rejected: judged.rejected, scoreCenti: judged.scoreCenti, scoredAt: judged.scoredAt?.toISOString() ?? null, updatedAt: new Date().toISOString() };
    const finish = [
      ...(given ? [tx.insert(criterionScoresTable).values([...given].map(([criterionId, centi]) => ({ submissionScoreId: mine, criterionId, scoreCenti: centi }))).getSQL()] : []),
      endClaim({ judgeId: command.judge.id, submissionId: row.id }),
      // The record rides on the submission's update: one statement (audit.server.ts, auditedPrebuilt).
      unchanged
        ? updateSubmission(update)
        : auditedUpdateSubmission(
            command.judge,
            {
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
            },
            update,
          ),
    ];
    return { value: { submissionId: row.id, teamId: row.teamId, scoreCenti: judged.scoreCenti, status: judged.status }, teamId: row.teamId, finish };
  });
  broadcastJudgingChanged();
  return outcome;
}

/** A score's update of its submission: the judges' mean, the status, when it was scored (applyJudging). */
const SUBMISSION_UPDATE = ["submissionId", "status", "rejected", "scoreCenti", "scoredAt", "updatedAt"] as const;
const submissionUpdate = (value: Record<(typeof SUBMISSION_UPDATE)[number], SQLWrapper>) => sql`
  update ${submissions} set status = ${value.status}::submission_status, rejected = ${value.rejected}::boolean, score_centi = ${value.scoreCenti}::int,
    scored_at = ${value.scoredAt}::timestamptz, updated_at = ${value.updatedAt}::timestamptz
  where ${submissions.id} = ${value.submissionId}`;
const updateSubmission = prebuilt(SUBMISSION_UPDATE, submissionUpdate);
const auditedUpdateSubmission = auditedPrebuilt(SUBMISSION_UPDATE, submissionUpdate);

/**
 * The submission locked for update and its challenge for share, in one statement (one round trip: drizzle's
 * builder takes a single locking strength); its row: lockedSubmissionOf.
 */
const lockSubmissionAndChallenge = prebuilt(
  ["submissionId"],
  ({ submissionId }) => sql`
    select ${submissions.id} as id, ${submissions.teamId} as team_id, ${submissions.status} as status, ${submissions.rejected} as rejected,
      ${submissions.scoreCenti} as score_centi, ${submissions.scoredAt} as scored_at, ${submissions.revisedAt} as revised_at,
      ${submissions.challengeId} as challenge_id, ${challenges.title} as challenge_title, ${challenges.points} as points
    from ${submissions} inner join ${challenges} on ${challenges.id} = ${submissions.challengeId}
    where ${submissions.id} = ${submissionId}
    for update of ${submissions} for share of ${challenges}`,
);

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
 * score stays, with judge_id null, and still counts). Nothing for a submission that does not exist. Its
 * rows: scoresOf.
 */
const upsertScore = prebuilt(
  ["submissionId", "judgeId", "scoreCenti", "comment", "at"],
  ({ submissionId, judgeId, scoreCenti, comment, at }) => sql`
    with upserted as (
      insert into ${submissionScores} (submission_id, judge_id, score_centi, comment, created_at, updated_at)
      select ${submissionId}::int, ${judgeId}::int, ${scoreCenti}::int, ${comment}::text, coalesce(${at}::timestamptz, now()), coalesce(${at}::timestamptz, now())
      where exists (select 1 from ${submissions} where ${submissions.id} = ${submissionId})
      on conflict (submission_id, judge_id) do update set score_centi = excluded.score_centi, comment = excluded.comment, updated_at = excluded.updated_at
      returning id, score_centi
    )
    select id, score_centi, null as comment, 'mine' as role from upserted
    union all
    select id, score_centi, comment, case when judge_id = ${judgeId} then 'previous' else 'other' end as role
    from ${submissionScores} where submission_id = ${submissionId}`,
);

/** upsertScore's values: the transaction's time, as a default column would have it, unless the demo seed's story gives its own. */
function upsertScoreSql(score: { submissionId: number; judgeId: number; scoreCenti: number; comment: string | null; at?: Date }) {
  return upsertScore({ ...score, at: score.at?.toISOString() ?? null });
}

/** What upsertScoreSql answered: the judge's score row (`mine`), every judge's score, the judge's earlier one. */
function scoresOf(rows: Rows): { mine: number; scores: number[]; previous: { scoreCenti: number; comment: string | null } | null } {
  const previous = rows.find((row) => row.role === "previous");
  return {
    mine: Number(rows.find((row) => row.role === "mine")!.id),
    scores: rows.filter((row) => row.role !== "previous").map((row) => Number(row.score_centi)),
    previous: previous ? { scoreCenti: Number(previous.score_centi), comment: (previous.comment as string | null) ?? null } : null,
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
