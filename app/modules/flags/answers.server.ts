/**
 * The admin's text form of a challenge's answers (answers.ts), read as it is saved: every line's rules, then
 * every pattern compiled by RE2, so a refusal names its line and RE2's reason. Server-only (RE2).
 */
import { messages } from "../messages.ts";
import { parseAnswers } from "./answers.ts";
import { checkPattern } from "./matching.server.ts";

export function parseAnswersToSave(text: string | undefined): ReturnType<typeof parseAnswers> {
  const parsed = parseAnswers(text);
  if ("error" in parsed) return parsed;
  for (const [index, answer] of parsed.answers.entries()) {
    const reason = answer.kind === "regex" ? checkPattern(answer.value) : null;
    if (reason) return { error: messages.flagAnswers.badPattern(parsed.lines[index], reason) };
  }
  return parsed;
}
