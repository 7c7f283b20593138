/**
 * One submission as a judge works on it: the team, the challenge with its description, hints and points,
 * the text, the file as it may be shown (app/modules/submissions/file-view.ts), the team's earlier
 * versions, and the judge's own score.
 */
import { and, count, desc, eq } from "drizzle-orm";
import { challenges, criterionScores, submissionScores, submissions, submissionVersions, teams, users, type Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { readObjectStart } from "../../infrastructure/s3.server.ts";
import { shownFileName } from "../file-names.ts";
import { getRubric } from "../challenges/challenges.server.ts";
import { decodeText, fileView, showControls, TEXT_PREVIEW_BYTES, type FileView } from "../submissions/file-view.ts";
import type { QueueItem } from "./queue.server.ts";

export interface FileShown {
  name: string;
  size: number | null;
  /** The type the uploader's browser claimed: said beside a download, never used to show the file. */
  type: string | null;
  view: FileView;
  /**
   * A text file's first TEXT_PREVIEW_BYTES, decoded; `truncated` when there is more; `reordering` when it
   * holds characters that reorder text (shown as their codes).
   */
  text?: { content: string; truncated: boolean; reordering: boolean };
  /** Storage did not answer: only the download link is offered. */
  previewFailed?: true;
}

export interface SubmissionVersionView {
  id: number;
  user: string | null;
  text: string | null;
  file: { name: string; size: number | null } | null;
  /** It had a file, no longer kept (only the latest versions keep theirs). */
  fileDropped: boolean;
  submittedAt: Date;
  replacedAt: Date;
}

export interface SubmissionForJudge {
  id: number;
  teamId: number;
  team: string;
  user: string | null;
  /** The challenge, its texts in both languages (the workspace shows the judge's). */
  challenge: { id: number; title: string; description: string; titleAr: string | null; descriptionAr: string | null; hints: string | null; points: number; category: Category; wave: number | null };
  text: string | null;
  file: FileShown | null;
  status: "pending" | "approved" | "rejected" | "reviewed";
  revisedAt: Date;
  createdAt: Date;
  /** This judge's score, if any (on this version or an earlier one: compare `scoredAt` with `revisedAt`). */
  mine: { scoreCenti: number; comment: string | null; scoredAt: Date; criteria: Record<number, number> } | null;
  /** The challenge's rubric (empty: a single score box). */
  rubric: Array<{ id: number; name: string; weight: number; maxPoints: number }>;
  judgesScored: number;
  versions: SubmissionVersionView[];
}

/**
 * What each stored file may show, by key: an object never changes once stored (a new file gets a new key),
 * so a page that re-reads itself does not read storage again. A few dozen entries of at most 64 KB each.
 */
const shownFiles = new Map<string, FileShown>();
const SHOWN_FILES_KEPT = 48;

/** What a stored file may show, read from its first bytes (one ranged read; text keeps what it read). */
export async function showFile(file: { key: string; name: string | null; size: number | null; type: string | null }): Promise<FileShown> {
  const name = file.name === null ? "submission" : shownFileName(file.name);
  const known = shownFiles.get(file.key);
  if (known) return { ...known, name, size: file.size, type: file.type };
  const shown = { name, size: file.size, type: file.type };
  let result: FileShown;
  try {
    const start = await readObjectStart(file.key, TEXT_PREVIEW_BYTES);
    const view = fileView(start);
    const content = view.kind === "text" ? decodeText(start) : null;
    if (view.kind !== "text") result = { ...shown, view };
    else if (content === null) result = { ...shown, view: { kind: "download" } };
    else {
      const visible = showControls(content);
      result = {
        ...shown,
        view,
        text: {
          content: visible.text,
          truncated: file.size !== null ? file.size > start.length : start.length >= TEXT_PREVIEW_BYTES,
          reordering: visible.reordering,
        },
      };
    }
  } catch (error) {
    // Not remembered: storage may answer next time.
    getLogger().warn({ err: error, key: file.key }, "submission file preview not read");
    return { ...shown, view: { kind: "download" }, previewFailed: true };
  }
  if (shownFiles.size >= SHOWN_FILES_KEPT) shownFiles.delete(shownFiles.keys().next().value!);
  shownFiles.set(file.key, result);
  return result;
}

export async function submissionForJudge(submissionId: number, judgeId: number): Promise<SubmissionForJudge | null> {
  const db = getDb();
  const [row] = await db
    .select({
      id: submissions.id,
      teamId: submissions.teamId,
      team: teams.name,
      user: users.name,
      challengeId: challenges.id,
      title: challenges.title,
      description: challenges.description,
      titleAr: challenges.titleAr,
      descriptionAr: challenges.descriptionAr,
      hints: challenges.hints,
      points: challenges.points,
      category: challenges.category,
      wave: challenges.wave,
      text: submissions.text,
      fileKey: submissions.fileKey,
      fileName: submissions.fileName,
      fileSize: submissions.fileSize,
      fileType: submissions.fileType,
      status: submissions.status,
      revisedAt: submissions.revisedAt,
      createdAt: submissions.createdAt,
    })
    .from(submissions)
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .leftJoin(users, eq(users.id, submissions.userId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row) return null;
  const [mine, [scored], versionRows, file, rubric] = await Promise.all([
    db
      .select({ id: submissionScores.id, scoreCenti: submissionScores.scoreCenti, comment: submissionScores.comment, scoredAt: submissionScores.updatedAt })
      .from(submissionScores)
      .where(and(eq(submissionScores.submissionId, row.id), eq(submissionScores.judgeId, judgeId)))
      .limit(1),
    db.select({ count: count() }).from(submissionScores).where(eq(submissionScores.submissionId, row.id)),
    db
      .select({
        id: submissionVersions.id,
        user: users.name,
        text: submissionVersions.text,
        fileName: submissionVersions.fileName,
        fileKey: submissionVersions.fileKey,
        fileSize: submissionVersions.fileSize,
        submittedAt: submissionVersions.submittedAt,
        replacedAt: submissionVersions.replacedAt,
      })
      .from(submissionVersions)
      .leftJoin(users, eq(users.id, submissionVersions.userId))
      .where(eq(submissionVersions.submissionId, row.id))
      .orderBy(desc(submissionVersions.submittedAt), desc(submissionVersions.id)),
    row.fileKey ? showFile({ key: row.fileKey, name: row.fileName, size: row.fileSize, type: row.fileType }) : Promise.resolve(null),
    getRubric(row.challengeId),
  ]);
  const myScore = mine[0];
  const myCriteria = myScore
    ? await db.select({ criterionId: criterionScores.criterionId, scoreCenti: criterionScores.scoreCenti }).from(criterionScores).where(eq(criterionScores.submissionScoreId, myScore.id))
    : [];
  return {
    id: row.id,
    teamId: row.teamId,
    team: row.team,
    user: row.user,
    challenge: {
      id: row.challengeId,
      title: row.title,
      description: row.description,
      titleAr: row.titleAr,
      descriptionAr: row.descriptionAr,
      hints: row.hints,
      points: row.points,
      category: row.category,
      wave: row.wave,
    },
    text: row.text,
    file,
    status: row.status,
    revisedAt: row.revisedAt,
    createdAt: row.createdAt,
    mine: myScore
      ? {
          scoreCenti: myScore.scoreCenti,
          comment: myScore.comment,
          scoredAt: myScore.scoredAt,
          criteria: Object.fromEntries(myCriteria.map((criterion) => [criterion.criterionId, criterion.scoreCenti])),
        }
      : null,
    rubric,
    judgesScored: scored?.count ?? 0,
    versions: versionRows.map((version) => ({
      id: version.id,
      user: version.user,
      text: version.text,
      file: version.fileKey ? { name: version.fileName === null ? "submission" : shownFileName(version.fileName), size: version.fileSize } : null,
      fileDropped: !version.fileKey && version.fileName !== null,
      submittedAt: version.submittedAt,
      replacedAt: version.replacedAt,
    })),
  };
}

/** The submissions before and after `id` in the queue (skip and back); the head when `id` is not in it. */
export function neighbours(queue: readonly Pick<QueueItem, "id">[], id: number | null): { previous: number | null; next: number | null } {
  const index = id === null ? -1 : queue.findIndex((item) => item.id === id);
  if (index < 0) return { previous: null, next: queue.find((item) => item.id !== id)?.id ?? null };
  return { previous: index > 0 ? queue[index - 1].id : null, next: index + 1 < queue.length ? queue[index + 1].id : null };
}

