/**
 * Challenges from a CSV file (a header row: the columns of CHALLENGE_COLUMNS in ./schema.ts) or a JSON list of
 * the same fields (decision 009). Each row passes the challenge form's schema, and a flag challenge's patterns
 * are compiled; its points' curve, its limits, its release, its hints that cost points and its prerequisites
 * are the form's own fields. Prerequisites are named by title: a challenge already saved, or another row of
 * the file (one that is alone with its title), never a circle. The import writes them all in one transaction,
 * or none. The preview shows how each is checked and how many answers it has, never an answer. Attachments
 * are added on the challenge's edit page afterwards.
 */
import { challenges } from "../../../db/schema.ts";
import { anyOf } from "../../../db/any-of.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { createChallenges } from "../challenges/challenges.server.ts";
import type { Actor } from "../audit/audit.server.ts";
import { ChallengeCreateSchema } from "../challenges/schema.ts";
import { parseAnswers } from "../flags/answers.ts";
import { parseAnswersToSave } from "../flags/answers.server.ts";
import { paidHintsText, parsePaidHints } from "../flags/paid-hints.ts";
import { messages } from "../messages.ts";
import { readCsv, readJsonList, type FileRead, type FileRow } from "./read-file.server.ts";
import { addIssue, validateRows, type ImportIssue } from "./rows.ts";
import { CHALLENGE_COLUMNS, MAX_IMPORT_ROWS } from "./schema.ts";

/** A challenge's prerequisites at most (the form's). */
const MAX_PREREQUISITES = 20;

export interface ChallengePreviewRow {
  row: number;
  title: string;
  /** Its Arabic title (null: none). */
  titleAr: string | null;
  category: string;
  points: number;
  wave: number | null;
  difficulty: string | null;
  checking: "judges" | "flag" | "metric" | "tests";
  /** How many answers a flag challenge accepts (never which). */
  answerCount: number;
  /** A dynamic flag challenge's curve (null: static points). */
  dynamic: { minimumPoints: number; decay: number } | null;
  releaseAfterMinutes: number | null;
  /** How many hints that cost points, and how many prerequisites. */
  paidHints: number;
  prerequisites: number;
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

/** The form's field of each column whose name differs (the others are the field's own name). */
const fieldOf: Record<string, string> = {
  wrong_per_minute: "wrongPerMinute",
  max_attempts: "maxAttempts",
  minimum_points: "minimumPoints",
  release_after_minutes: "releaseAfterMinutes",
  paid_hints: "paidHints",
  title_ar: "titleAr",
  description_ar: "descriptionAr",
};
const columnOf: Record<string, string> = Object.fromEntries(Object.entries(fieldOf).map(([column, field]) => [field, column]));

/** A cell of lines: its text, or in a JSON file a list of strings, one a line. */
function linesOf(value: unknown): unknown {
  return Array.isArray(value) && value.every((line) => typeof line === "string") ? value.join("\n") : value;
}

/** The titles a `prerequisites` cell names, one a line (trimmed, each once); a cell that is not text names none. */
function titlesOf(value: unknown): string[] {
  const text = linesOf(value);
  if (typeof text !== "string") return [];
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))];
}

interface ChallengeRow extends FileRow {
  /** The titles of the challenges it requires. */
  requires: string[];
}

/** The file's column names as the form's fields (wrong_per_minute → wrongPerMinute); lists of lines as the text. */
function asFormFields({ row, fields }: FileRow): ChallengeRow {
  const { prerequisites, answers, paid_hints: paidHints, ...rest } = fields;
  const named = Object.fromEntries(Object.entries(rest).map(([column, value]) => [fieldOf[column] ?? column, value]));
  return {
    row,
    fields: {
      ...named,
      ...(answers === undefined ? {} : { answers: linesOf(answers) }),
      ...(paidHints === undefined ? {} : { paidHints: paidHintsText(paidHints) }),
    },
    requires: titlesOf(prerequisites),
  };
}

/** What a row requires, once its titles are found: challenges already saved (ids), and rows of the file (their index). */
interface Requires {
  ids: number[];
  rows: number[];
}

/**
 * Finds each row's prerequisites by title (an issue on the row for a title that names nothing, several
 * challenges, or the row itself; too many), then refuses the rows of a circle among the file's rows (saved
 * challenges cannot require new ones: a circle can only be inside the file).
 */
async function resolvePrerequisites(rows: readonly ChallengeRow[], issues: ImportIssue[]): Promise<Map<number, Requires>> {
  const resolved = new Map<number, Requires>();
  const wanted = [...new Set(rows.flatMap((row) => row.requires))];
  if (wanted.length === 0) return resolved;
  const saved = new Map<string, number[]>();
  for (const challenge of await getDb().select({ id: challenges.id, title: challenges.title }).from(challenges).where(anyOf(challenges.title, wanted))) {
    saved.set(challenge.title, [...(saved.get(challenge.title) ?? []), challenge.id]);
  }
  const inFile = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const title = typeof row.fields.title === "string" ? row.fields.title.trim() : "";
    inFile.set(title, [...(inFile.get(title) ?? []), index]);
  });
  const im = messages.imports;
  rows.forEach((row, index) => {
    if (row.requires.length === 0) return;
    if (row.requires.length > MAX_PREREQUISITES) return addIssue(issues, row.row, `prerequisites: ${im.prerequisitesTooMany(MAX_PREREQUISITES)}`);
    const requires: Requires = { ids: [], rows: [] };
    for (const title of row.requires) {
      const fileRows = inFile.get(title) ?? [];
      const ids = saved.get(title) ?? [];
      if (fileRows.includes(index)) addIssue(issues, row.row, `prerequisites: ${messages.dashboard.prerequisiteSelf}`);
      else if (fileRows.length + ids.length === 0) addIssue(issues, row.row, `prerequisites: ${im.prerequisiteUnknown(title)}`);
      else if (fileRows.length + ids.length > 1) addIssue(issues, row.row, `prerequisites: ${im.prerequisiteAmbiguous(title)}`);
      else if (fileRows.length === 1) requires.rows.push(fileRows[0]);
      else requires.ids.push(ids[0]);
    }
    resolved.set(index, requires);
  });
  // A circle through the file's rows: each row on one is refused.
  const state = new Map<number, "open" | "done">();
  const inCircle = new Set<number>();
  const visit = (index: number, path: number[]) => {
    if (state.get(index) === "done") return;
    if (state.get(index) === "open") {
      for (const member of path.slice(path.indexOf(index))) inCircle.add(member);
      return;
    }
    state.set(index, "open");
    for (const next of resolved.get(index)?.rows ?? []) visit(next, [...path, index]);
    state.set(index, "done");
  };
  for (const index of resolved.keys()) visit(index, []);
  for (const index of inCircle) addIssue(issues, rows[index].row, `prerequisites: ${messages.dashboard.prerequisiteCycle}`);
  return resolved;
}

async function checkChallenges(text: string, fileName: string) {
  const read = readChallengeFile(text, fileName);
  if (!read.ok) return { check: { fileError: read.error, issues: [], rows: [] }, valid: [] };
  const rows = read.rows.map(asFormFields);
  const checked = validateRows(rows, ChallengeCreateSchema);
  // A problem names the file's column, not the form's field.
  const issues = checked.issues.map((issue) => ({
    ...issue,
    messages: issue.messages.map((message) => message.replace(/^([A-Za-z]+):/, (whole, field: string) => (columnOf[field] ? `${columnOf[field]}:` : whole))),
  }));
  const requires = await resolvePrerequisites(rows, issues);
  const indexOfRow = new Map(rows.map((row, index) => [row.row, index]));
  const valid = checked.valid
    .filter(({ row, value }) => {
      const parsed = value.checking === "flag" ? parseAnswersToSave(value.answers) : null;
      if (parsed && "error" in parsed) addIssue(issues, row, `answers: ${parsed.error}`);
      return !(parsed && "error" in parsed);
    })
    .map(({ row, value }) => {
      const linked = requires.get(indexOfRow.get(row)!) ?? { ids: [], rows: [] };
      return { row, value: { ...value, prerequisites: linked.ids, prerequisiteRows: linked.rows } };
    });
  const preview = valid.map(({ row, value }): ChallengePreviewRow => {
    const parsed = parseAnswers(value.answers);
    const hints = parsePaidHints(value.paidHints);
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
      dynamic: value.scoring === "dynamic" ? { minimumPoints: value.minimumPoints!, decay: value.decay! } : null,
      releaseAfterMinutes: value.releaseAfterMinutes ?? null,
      paidHints: "hints" in hints ? hints.hints.length : 0,
      prerequisites: value.prerequisites.length + value.prerequisiteRows.length,
    };
  });
  return { check: { fileError: null, issues: issues.sort((a, b) => a.row - b.row), rows: preview } satisfies ChallengesCheck, valid };
}

export async function previewChallengesImport(text: string, fileName: string): Promise<ChallengesCheck> {
  return (await checkChallenges(text, fileName)).check;
}

export async function importChallenges(actor: Actor, text: string, fileName: string): Promise<ChallengesImportResult> {
  const { check, valid } = await checkChallenges(text, fileName);
  if (check.fileError || check.issues.length) return { ok: false, check };
  const created = await createChallenges(
    actor,
    valid.map(({ value }) => value),
    fileName,
  );
  return { ok: true, created: created.length };
}
