/**
 * Challenges from a CSV file (a header row: title, description, points, category, difficulty,
 * hints, wave) or a JSON list of the same fields (decision 009). Each row passes the challenge
 * form's schema; the import writes them all in one statement, or none. Attachments are added on
 * the challenge's edit page afterwards.
 */
import { createChallenges } from "../challenges/challenges.server.ts";
import type { Actor } from "../audit/audit.server.ts";
import { ChallengeCreateSchema } from "../challenges/schema.ts";
import { readCsv, readJsonList, type FileRead } from "./read-file.server.ts";
import { validateRows, type ImportIssue } from "./rows.ts";
import { CHALLENGE_COLUMNS, MAX_IMPORT_ROWS } from "./schema.ts";

export interface ChallengePreviewRow {
  row: number;
  title: string;
  category: string;
  points: number;
  wave: number | null;
  difficulty: string | null;
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

function checkChallenges(text: string, fileName: string) {
  const read = readChallengeFile(text, fileName);
  if (!read.ok) return { check: { fileError: read.error, issues: [], rows: [] }, valid: [] };
  const { valid, issues } = validateRows(read.rows, ChallengeCreateSchema);
  const rows = valid.map(({ row, value }) => ({ row, title: value.title, category: value.category, points: value.points, wave: value.wave ?? null, difficulty: value.difficulty ?? null }));
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
