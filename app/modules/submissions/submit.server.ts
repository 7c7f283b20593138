/**
 * Submissions: one per (team, challenge), a file and/or a text, accepted only for an active challenge of
 * an opened gate, by a user with a team, from a request begun before submissions close (the event
 * setting, else the final countdown's instant: ./close.ts). Server time decides (docs/RELIABILITY.md "Rules at the
 * edges").
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { challenges, eventSettings, gates, submissions, submissionVersions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { deleteObject } from "../../infrastructure/s3.server.ts";
import { mayReadTeam, STAFF_READERS, type Role } from "../auth/access.ts";
import { answerGateColumns, challengeGateJoin, maySeeChallenge, missingPrerequisites, refusalToAnswer } from "../challenges/visibility.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { versionMovesStandings } from "../scoring/rules.ts";
import { LOCK_CLASS } from "../../../db/advisory-locks.ts";

export type SubmissionErrorCode =
  | "noTeam"
  | "notFound"
  | "inactive"
  | "noGate"
  | "closed"
  | "submissionsClosed"
  | "empty"
  | "tooLarge"
  | "textTooLong"
  | "malformed"
  | "storage"
  | "judgedByFlag"
  | "checkedByMetric"
  | "checkedByTests"
  | "notReleased"
  | "locked";

const errorText: Record<SubmissionErrorCode, string> = {
  noTeam: messages.participant.noTeam,
  notFound: messages.participant.challengeNotFound,
  inactive: messages.participant.challengeInactive,
  noGate: messages.participant.challengeNoGate,
  closed: messages.participant.gateClosed,
  submissionsClosed: messages.participant.submissionsClosed,
  empty: messages.participant.emptySubmission,
  tooLarge: messages.participant.fileTooLarge,
  textTooLong: messages.participant.textTooLong,
  malformed: messages.errors.badRequest,
  storage: messages.errors.storageUnavailable,
  notReleased: messages.participant.challengeNotReleased,
  locked: messages.participant.challengeLocked,
  judgedByFlag: messages.flags.judgedByFlag,
  checkedByMetric: messages.predictions.checkedByMetric,
  checkedByTests: messages.code.checkedByTests,
};

/** A refused submission, with the message the user sees and the HTTP status it maps to. */
const errorStatus: Partial<Record<SubmissionErrorCode, number>> = {
  notFound: 404,
  tooLarge: 413,
  storage: 503,
  noTeam: 403,
  closed: 403,
  submissionsClosed: 403,
  inactive: 403,
  noGate: 403,
  judgedByFlag: 409,
  checkedByMetric: 409,
  checkedByTests: 409,
};

export class SubmissionError extends DomainError {
  /** What the user typed, when it was read before the refusal: the form gives it back. */
  text?: string;
  constructor(public readonly code: SubmissionErrorCode) {
    super(errorText[code], { status: errorStatus[code] ?? 400 });
  }
}

/** The upload limit in bytes (default 209,715,200: 200 MB). */
export function submissionMaxBytes(): number {
  return getEnv().SUBMISSION_MAX_BYTES;
}

/** A file already streamed to storage, waiting to be attached to a submission. */
export interface StoredFile {
  key: string;
  name: string;
  type: string;
  size: number;
}

/**
 * Throws a SubmissionError unless the team may submit to the challenge now. Called before the body
 * is read (no upload for a closed gate) and again inside the saving transaction. `begunAt` is when the
 * request arrived: an upload begun before submissions close is accepted when it completes.
 */
export async function assertCanSubmit(
  input: { teamId: number | null; challengeId: number; now?: Date; begunAt?: Date },
  db: Queryable = getDb(),
): Promise<{ closesAt: Date | null }> {
  if (input.teamId === null) throw new SubmissionError("noTeam");
  const now = input.now ?? new Date();
  const [row] = await db
    .select({
      ...answerGateColumns,
      checking: challenges.checking,
    })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, input.challengeId))
    .limit(1);
  if (!row) throw new SubmissionError("notFound");
  const refused = await refusalToAnswer(db, row, { teamId: input.teamId, challengeId: input.challengeId }, now, input.begunAt ?? now);
  if (refused && refused !== "submissionsClosed") throw new SubmissionError(refused);
  // A flag challenge takes typed answers only (app/modules/flags/guess.server.ts), never a judged upload.
  if (row.checking === "flag") throw new SubmissionError("judgedByFlag");
  // A prediction challenge takes a predictions file on its own page (app/modules/predictions), never a judged upload.
  if (row.checking === "metric") throw new SubmissionError("checkedByMetric");
  // A code challenge takes programs on its own page (app/modules/code), judged by the runner, never a judged upload.
  if (row.checking === "tests") throw new SubmissionError("checkedByTests");
  if (refused) throw new SubmissionError(refused);
  return { closesAt: row.closesAt };
}

export interface SaveResult {
  submissionId: number;
  created: boolean;
}


/**
 * Creates or updates the team's submission (the unique index makes it one). Sets it pending, credits
 * the user, and marks the team's standings stale in the same transaction when that can move them (another member
 * credited with an answer already judged: versionMovesStandings). An update keeps the version it
 * replaces (text and file, whose object stays in storage); a text-only update keeps the stored file.
 * If anything is refused, the freshly stored file is deleted so nothing is left behind. Judges' pages
 * hear of it live (their queue and backlog).
 */
export async function saveSubmission(input: {
  /** The member sending it: credited with it, and named by its audit record. */
  actor: Actor & { id: number };
  teamId: number | null;
  challengeId: number;
  text: string | null | undefined;
  file: StoredFile | null;
  now?: Date;
  /** When the request arrived (default: now); see assertCanSubmit. */
  begunAt?: Date;
}): Promise<SaveResult> {
  const text = input.text?.trim() ? input.text.trim() : null;
  let result: SaveResult;
  // Whether this version can move the standings (versionMovesStandings): most cannot, and ask no recompute.
  let moves = false;
  try {
    if (!text && !input.file) throw new SubmissionError("empty");
    const teamId = input.teamId;
    if (teamId === null) throw new SubmissionError("noTeam");
    result = await getDb().transaction(async (tx) => {
      // One writer at a time per team: two members sending the first answer at once would both find no
      // row to lock, both say "created", and the first file would lose its row to the second's upsert.
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.submission}, ${teamId})`);
      await assertCanSubmit({ teamId, challengeId: input.challengeId, now: input.now, begunAt: input.begunAt }, tx);
      const [existing] = await tx
        .select({ id: submissions.id, ...auditedColumns, userId: submissions.userId, rejected: submissions.rejected, scoreCenti: submissions.scoreCenti, scoredAt: submissions.scoredAt })
        .from(submissions)
        .where(and(eq(submissions.teamId, teamId), eq(submissions.challengeId, input.challengeId)))
        .for("update")
        .limit(1);
      // The version being replaced is kept, file and text, for the judges (docs/domain.md "Judging").
      if (existing) await keepVersion(tx, existing.id);
      const fileFields = input.file
        ? { fileKey: input.file.key, fileName: input.file.name, fileType: input.file.type, fileSize: input.file.size }
        : {};
      const textFields = text ? { text } : {};
      const [row] = await tx
        .insert(submissions)
        .values({ teamId, challengeId: input.challengeId, userId: input.actor.id, text, ...fileFields, status: "pending" })
        .onConflictDoUpdate({
          target: [submissions.teamId, submissions.challengeId],
          set: { userId: input.actor.id, status: "pending", updatedAt: sql`now()`, revisedAt: sql`now()`, ...textFields, ...fileFields },
        })
        .returning({ id: submissions.id, ...auditedColumns });
      moves = versionMovesStandings(existing, input.actor.id);
      await Promise.all([
        moves ? markStandingsStale(tx, teamId) : undefined,
        recordAudit(tx, input.actor, {
          kind: existing ? "submission.updated" : "submission.created",
          teamId,
          userId: input.actor.id,
          subjectId: row.id,
          before: existing ? audited(existing) : null,
          after: audited(row),
        }),
      ]);
      return { submissionId: row.id, created: !existing };
    });
  } catch (error) {
    if (input.file) await deleteObject(input.file.key).catch(() => {});
    throw error;
  }
  if (moves && input.teamId !== null) await requestStandingsRecompute(input.teamId);
  if (!result.created) await dropOldVersionFiles(result.submissionId);
  broadcastJudgingChanged();
  await requestIntegrityCheck(result.submissionId);
  return result;
}

/** What a submission's audit record keeps of it: never the text itself, its length. */
const auditedColumns = {
  challengeId: submissions.challengeId,
  status: submissions.status,
  fileKey: submissions.fileKey,
  fileName: submissions.fileName,
  fileSize: submissions.fileSize,
  textLength: sql<number | null>`char_length(${submissions.text})`,
};

function audited(row: { challengeId: number; status: string; fileKey: string | null; fileName: string | null; fileSize: number | null; textLength: number | null }) {
  return { challengeId: row.challengeId, status: row.status, fileKey: row.fileKey, fileName: row.fileName, fileSize: row.fileSize, textLength: row.textLength === null ? null : Number(row.textLength) };
}

/**
 * How many of a submission's earlier versions keep their file: enough for any dispute about recent work,
 * and a bound on what one team can leave in storage by sending the same answer again and again (each
 * file up to the upload limit). Older versions keep their text, name and size; their file is deleted.
 */
export const KEPT_VERSION_FILES = 10;

async function dropOldVersionFiles(submissionId: number) {
  const dropped = await getDb().execute<{ file_key: string }>(sql`
    with old as (
      select id, file_key from ${submissionVersions}
      where submission_id = ${submissionId} and file_key is not null
      order by submitted_at desc, id desc offset ${KEPT_VERSION_FILES}
    )
    update ${submissionVersions} as v set file_key = null from old where v.id = old.id
    returning old.file_key`);
  const keys = [...new Set(dropped.map((row) => row.file_key))];
  for (const key of keys) {
    // A text-only update keeps the file: a newer version or the submission itself may still use it.
    const [inUse] = await getDb().execute<{ used: boolean }>(sql`
      select exists (select 1 from ${submissions} where file_key = ${key})
          or exists (select 1 from ${submissionVersions} where file_key = ${key}) as used`);
    if (!inUse?.used) await cleanupObject(key);
  }
}

/**
 * Asks the integrity worker to fingerprint the version just committed (app/modules/integrity): never in the
 * request. Redis down: the version is not compared, which is said in the log (the answer is saved).
 */
async function requestIntegrityCheck(submissionId: number) {
  try {
    await enqueue("integrity", { kind: "version", submissionId });
  } catch (error) {
    getLogger().warn({ err: error, submissionId }, "integrity check not enqueued");
  }
}

/** Deletes an object no row uses through the cleanup queue; if Redis is down, right away. */
async function cleanupObject(key: string) {
  try {
    await enqueue("storageCleanup", { key });
  } catch (error) {
    getLogger().warn({ err: error, key }, "storage cleanup not enqueued; deleting now");
    await deleteObject(key).catch((deleteError: unknown) => getLogger().error({ err: deleteError, key }, "object not deleted"));
  }
}

/** Copies a submission as it stands into its versions (in the saving transaction, before the update). */
async function keepVersion(tx: Queryable, submissionId: number) {
  await tx.execute(sql`
    insert into ${submissionVersions} (submission_id, user_id, text, file_key, file_name, file_size, file_type, submitted_at)
    select id, user_id, text, file_key, file_name, file_size, file_type, revised_at from ${submissions} where id = ${submissionId}`);
}

export interface Viewer {
  role: Role;
  teamId: number | null;
}

/**
 * The stored file of a submission, or of one of its earlier versions, if the viewer may read it (own team,
 * judge, admin), else null.
 */
export async function findDownloadableSubmissionFile(submissionId: number, viewer: Viewer, versionId?: number) {
  const db = getDb();
  const [row] = versionId
    ? await db
        .select({ teamId: submissions.teamId, key: submissionVersions.fileKey, name: submissionVersions.fileName, size: submissionVersions.fileSize })
        .from(submissionVersions)
        .innerJoin(submissions, eq(submissions.id, submissionVersions.submissionId))
        .where(and(eq(submissionVersions.id, versionId), eq(submissionVersions.submissionId, submissionId)))
        .limit(1)
    : await db
        .select({ teamId: submissions.teamId, key: submissions.fileKey, name: submissions.fileName, size: submissions.fileSize })
        .from(submissions)
        .where(eq(submissions.id, submissionId))
        .limit(1);
  if (!row?.key) return null;
  return mayReadTeam(viewer, row.teamId) ? { key: row.key, name: row.name ?? "submission", size: row.size } : null;
}

/** A challenge's attachment if the viewer may see the challenge (app/modules/challenges/visibility.server.ts). */
export async function findDownloadableAttachment(challengeId: number, viewer: Viewer, now = new Date()) {
  const [row] = await getDb()
    .select({
      key: challenges.attachmentKey,
      name: challenges.attachmentName,
      status: challenges.status,
      opensAt: gates.opensAt,
      releaseAfterMinutes: challenges.releaseAfterMinutes,
    })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .where(eq(challenges.id, challengeId))
    .limit(1);
  if (!row?.key || !maySeeChallenge(viewer, row, now)) return null;
  // A locked challenge's file is not its team's yet (staff: no team, never held back).
  if (!STAFF_READERS.includes(viewer.role) && (await missingPrerequisites(getDb(), viewer.teamId ?? null, [challengeId])).size > 0) return null;
  return { key: row.key, name: row.name ?? "attachment" };
}
