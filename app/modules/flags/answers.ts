/**
 * A flag challenge's accepted answers as an admin writes them (docs/domain.md "Flag challenges"): one answer
 * a line, each line one of
 *
 *   exact: <answer>        the same characters
 *   any case: <answer>     the same ignoring case
 *   regex: <pattern>       RE2, matching the whole answer (compile-checked on the server when saved)
 *   per team: <text>       each team's own flag: the text with `<hmac>` replaced by the team's HMAC
 *
 * A line with none of these prefixes is an exact answer (so an answer that itself begins with "regex:" is
 * written "exact: regex: …"). Prefixes are read in any case; blank lines are skipped; a value is trimmed (an
 * answer is trimmed before it is matched). 1 to 20 answers, each 1 to 1,024 bytes in UTF-8 with no control
 * character, at most one per team. Pure and browser-safe (no node:crypto, no RE2): the form, the import and
 * the API share it; `checkPattern` (matching.server.ts) compiles the patterns on the server.
 */
import { messages } from "../messages.ts";

const m = messages.flagAnswers;

export const flagKinds = ["exact", "exact_ci", "regex", "per_team"] as const;
export type FlagKind = (typeof flagKinds)[number];

export interface FlagAnswer {
  kind: FlagKind;
  /** The answer, the pattern, or the per-team flag's text with `<hmac>` where the team's HMAC goes. */
  value: string;
}

/** The longest answer matched, in UTF-8 bytes; longer ones are refused unread. */
export const MAX_ANSWER_BYTES = 1024;
/** A flag challenge's most answers. */
export const MAX_FLAG_ANSWERS = 20;
/** The marker in a per-team answer's text that the team's HMAC replaces. */
export const PER_TEAM_SLOT = "<hmac>";

/** Each kind's prefix, as `formatAnswers` writes it. */
export const answerPrefixes: Record<FlagKind, string> = { exact: "exact", exact_ci: "any case", regex: "regex", per_team: "per team" };

// C0 controls but tab, DEL and C1 controls: never part of a flag (and a NUL cannot be stored).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/** Whether a text holds a control character no answer may hold (a tab may). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** The UTF-8 length of a text, in bytes. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

const PREFIXED = /^(exact|any[ _-]?case|regex|per[ _-]?team)\s*:(.*)$/is;

function kindOf(prefix: string): FlagKind {
  const word = prefix.toLowerCase().replace(/[ _-]/g, "");
  return word === "anycase" ? "exact_ci" : word === "perteam" ? "per_team" : (word as "exact" | "regex");
}

/** What is wrong with one answer (its line or place, from 1), or null. */
function answerProblem(answer: FlagAnswer, line: number): string | null {
  if (answer.value === "") return m.emptyValue(line);
  if (hasControlCharacters(answer.value)) return m.controlCharacters(line);
  if (utf8Bytes(answer.value) > MAX_ANSWER_BYTES) return m.tooLong(line);
  return null;
}

/**
 * The rules every list of answers keeps, however it was written (the form's text, the import's, the API's
 * list): at most 20, each 1 to 1,024 bytes without control characters, at most one per team. `lines`: the
 * line (or place) each answer came from, for the message. Null when all is well.
 */
export function checkAnswers(answers: readonly FlagAnswer[], lines: readonly number[] = answers.map((_, index) => index + 1)): string | null {
  if (answers.length > MAX_FLAG_ANSWERS) return m.tooMany;
  let perTeamSeen = false;
  for (const [index, answer] of answers.entries()) {
    const problem = answerProblem(answer, lines[index]);
    if (problem) return problem;
    if (answer.kind === "per_team") {
      if (perTeamSeen) return m.onePerTeam(lines[index]);
      perTeamSeen = true;
    }
  }
  return null;
}

/** The text form read into answers (empty: none), with the line each came from; or the first problem, naming its line. */
export function parseAnswers(text: string | undefined): { answers: FlagAnswer[]; lines: number[] } | { error: string } {
  const answers: FlagAnswer[] = [];
  const lines: number[] = [];
  for (const [index, raw] of (text ?? "").split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const prefixed = PREFIXED.exec(line);
    answers.push(prefixed ? { kind: kindOf(prefixed[1]), value: prefixed[2].trim() } : { kind: "exact", value: line });
    lines.push(index + 1);
  }
  const error = checkAnswers(answers, lines);
  return error ? { error } : { answers, lines };
}

/** The answers written back as the admin types them (every line prefixed, so `parseAnswers` reads them back the same). */
export function formatAnswers(answers: readonly FlagAnswer[]): string {
  return answers.map((answer) => `${answerPrefixes[answer.kind]}: ${answer.value}`).join("\n");
}

/** What an audit record keeps of a challenge's answers: how many of each kind, never a value. */
export function answersSummary(answers: readonly FlagAnswer[]): { count: number; kinds: Partial<Record<FlagKind, number>> } {
  const kinds: Partial<Record<FlagKind, number>> = {};
  for (const answer of answers) kinds[answer.kind] = (kinds[answer.kind] ?? 0) + 1;
  return { count: answers.length, kinds };
}

/** Whether two lists of answers are the same, in order. */
export function sameAnswers(a: readonly FlagAnswer[], b: readonly FlagAnswer[]): boolean {
  return a.length === b.length && a.every((answer, index) => answer.kind === b[index].kind && answer.value === b[index].value);
}
