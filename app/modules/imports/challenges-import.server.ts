/**
 * Challenges from a CSV file (a header row: title, description, points, category, title_ar,
 * description_ar, difficulty, hints, wave, checking, answers, wrong_per_minute, max_attempts) or a JSON list of the same fields
 * (decision 009). Each row passes the challenge form's schema, and a flag challenge's patterns are
 * compiled; the import writes them all in one transaction, or none. The preview shows how each is
 * checked and how many answers it has, never an answer. Attachments are added on the challenge's edit
 * page afterwards.
 */
import { createChallenges } from "../challenges/challenges.server.ts";
import type { Actor } from "../audit/audit.server.ts";
import { ChallengeCreateSchema } from "../challenges/schema.ts";
import { parseAnswers } from "../flags/answers.ts";
import { parseAnswersToSave } from "../flags/answers.server.ts";
import { readCsv, readJsonList, type FileRead, type FileRow } from "./read-file.server.ts";
import { addIssue, validateRows, type ImportIssue } from "./rows.ts";
import { CHALLENGE_COLUMNS, MAX_IMPORT_ROWS } from "./schema.ts";

export interface ChallengePreviewRow {
  row: number;
  title: string;
  /** Its Arabic title (null: none). */
  titleAr: string | null;
  category: string;
  points: number;
  wave: number | null;
  difficulty: string | null;
  checking: "judges" | "flag";
  /** How many answers a flag challenge accepts (never which). */
  answerCount: number;
}

export interface ChallengesCheck {
  fileError: string | null;
  issues: ImportIssue[];
  rows: ChallengePreviewRow[];
}

export type ChallengesImportResult = { ok: true; created: number } | { ok: false; check: ChallengesCheck };

/** JSON when the name says so or the content starts like JSON; CSV otherwise. */
function readChallengeFile(text: string, fileName: string): FileRead {
  const json = /\.json$/i.test(fileName) || /^\uFEFF?\s*[[{]/.test(text);
  return json ? readJsonList(text, "challenges", CHALLENGE_COLUMNS, MAX_IMPORT_ROWS) : readCsv(text, CHALLENGE_COLUMNS, MAX_IMPORT_ROWS);
}

/** The form's fields named otherwise in the file. */
const columnOf: Record<string, string> = { wrongPerMinute: "wrong_per_minute", maxAttempts: "max_attempts", titleAr: "title_ar", descriptionAr: "description_ar" };

/** The file's column names as the form's fields (wrong_per_minute → wrongPerMinute); a JSON list of answer lines as the text. */
function asFormFields({ row, fields }: FileRow): FileRow {
  const { wrong_per_minute: wrongPerMinute, max_attempts: maxAttempts, title_ar: titleAr, description_ar: descriptionAr, answers, ...rest } = fields;
  return {
    row,
    fields: {
      ...rest,
      ...(titleAr === undefined ? {} : { titleAr }),
      ...(descriptionAr === undefined ? {} : { descriptionAr }),
      ...(answers === undefined ? {} : { answers: Array.isArray(answers) && answers.every((line) => typeof line === "string") ? answers.join("\n") : answers }),
      ...(wrongPerMinute === undefined ? {} : { wrongPerMinute }),
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
    },
  };
}

function checkChallenges(text: string, fileName: string) {
  const read = readChallengeFile(text, fileName);
  if (!read.ok) return { check: { fileError: read.error, issues: [], rows: [] }, valid: [] };
  const checked = validateRows(read.rows.map(asFormFields), ChallengeCreateSchema);
  // A problem names the file's column, not the form's field.
  const issues = checked.issues.map((issue) => ({ ...issue, messages: issue.messages.map((text) => text.replace(/^(wrongPerMinute|maxAttempts|titleAr|descriptionAr):/, (_, field: string) => `${columnOf[field]}:`)) }));
  const valid = checked.valid.filter(({ row, value }) => {
    const parsed = value.checking === "flag" ? parseAnswersToSave(value.answers) : null;
    if (parsed && "error" in parsed) addIssue(issues, row, `answers: ${parsed.error}`);
    return !(parsed && "error" in parsed);
  });
  const rows = valid.map(({ row, value }) => {
    const parsed = parseAnswers(value.answers);
    return {
      row,
      title: value.title,
      titleAr: value.titleAr || null,
      category: value.category,
      points: value.points,
      wave: value.wave ?? null,
      difficulty: value.difficulty ?? null,
      checking: value.checking,
      answerCount: "answers" in parsed ? parsed.answers.length : 0,
    };
  });
  return { check: { fileError: null, issues, rows } satisfies ChallengesCheck, valid };
}

export function previewChallengesImport(text: string, fileName: string): ChallengesCheck {
  return checkChallenges(text, fileName).check;
}

export async function importChallenges(actor: Actor, text: string, fileName: string): Promise<ChallengesImportResult> {
  const { check, valid } = checkChallenges(text, fileName);
  if (check.fileError || check.issues.length) return { ok: false, check };
  const created = await createChallenges(actor, valid.map(({ value }) => value), fileName);
  return { ok: true, created: created.length };
}
