/**
 * An admin's test of an answer on Dashboard → Attempts (docs/domain.md "Flag challenges"): which accepted
 * answer it matches, as a team for a per-team one; nothing is recorded. A plain post to the page's action,
 * so it works without JavaScript: the verdict and what was typed come back in the action's data.
 */
import { tryFlag } from "../modules/flags/guess.server.ts";
import { TryAnswerSchema, type TriedAnswer } from "../modules/flags/attempts-query.ts";
import { messages } from "../modules/messages.ts";
import { failureOf } from "./failures.server.ts";

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

export async function tryAnswerPost(formData: FormData): Promise<TriedAnswer & { status: number }> {
  const values = { challengeId: text(formData.get("challengeId")), teamId: text(formData.get("teamId")), answer: text(formData.get("answer")) };
  const parsed = TryAnswerSchema.safeParse({ challengeId: values.challengeId, teamId: values.teamId || undefined, answer: values.answer });
  if (!parsed.success) return { ok: false, matched: null, message: messages.flagAttempts.tryInvalid, values, status: 400 };
  try {
    const tried = await tryFlag(parsed.data.challengeId, parsed.data.answer, parsed.data.teamId ?? null);
    return { ok: true, matched: tried.matched, message: tried.message, values, status: 200 };
  } catch (error) {
    const failure = failureOf(error, { log: "answer test failed", fallback: messages.errors.server });
    return { ok: false, matched: null, message: failure.message, values, status: failure.status };
  }
}
