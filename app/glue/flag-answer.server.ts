/**
 * A flag answer sent from the challenge page (docs/domain.md "Flag challenges"): its form is a plain
 * URL-encoded post with `intent=flag` to the page's own action, so it works without JavaScript; the
 * enhanced form sends the same post with a fetcher. The verdict comes back in the action's data, what
 * was typed with it on a wrong or refused answer; the page's loader reads the team's state afresh.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { sendFlag } from "../modules/flags/guess.server.ts";
import { FLAG_INTENT, FlagAnswerSchema } from "../modules/flags/schema.ts";
import { messages } from "../modules/messages.ts";
import { actorOf } from "./actor.server.ts";
import type { Caller } from "./caller.server.ts";
import { failureOf } from "./failures.server.ts";
import { isMultipartForm } from "./request-bodies.server.ts";

/** What the page shows of an answer just sent: never more than the verdict's words and what was typed. */
export interface FlagReply {
  verdict: "correct" | "incorrect" | "refused";
  /** In English (messages.flags): the page shows it in the viewer's language (translateMessage). */
  message: string;
  /** What was typed, given back unless it was right. */
  answer: string;
}

export interface FlagPostOutcome {
  status: number;
  headers?: Record<string, string>;
  reply: FlagReply;
}

/**
 * The page's form data if this post is a flag answer (`intent=flag`, never multipart), else null: the body
 * is read from a copy, so a judged upload's post still has its own.
 */
export async function flagPostOf(request: Request): Promise<FormData | null> {
  if (isMultipartForm(request) || !request.body) return null;
  try {
    const formData = await request.clone().formData();
    return formData.get("intent") === FLAG_INTENT ? formData : null;
  } catch {
    return null;
  }
}

/** Checks the answer for the caller's team (sendFlag): the reply and the status the page answers with. */
export async function answerFlagPost(
  request: Request,
  formData: FormData,
  input: { caller: Caller; challengeId: number; begunAt: Date },
): Promise<FlagPostOutcome> {
  const typed = formData.get("answer");
  const answer = typeof typed === "string" ? typed : "";
  const submission = parseWithZod(formData, { schema: FlagAnswerSchema });
  if (submission.status !== "success") {
    return { status: 400, reply: { verdict: "refused", message: submission.error?.answer?.[0] ?? messages.flags.empty, answer } };
  }
  try {
    const verdict = await sendFlag({
      actor: actorOf(input.caller, request),
      teamId: input.caller.teamId,
      challengeId: input.challengeId,
      answer: submission.value.answer,
      begunAt: input.begunAt,
    });
    return { status: 200, reply: { verdict: verdict.verdict, message: verdict.message, answer: verdict.verdict === "correct" ? "" : answer } };
  } catch (error) {
    const failure = failureOf(error, { log: "flag answer failed", fallback: messages.errors.server });
    return { status: failure.status, headers: failure.headers, reply: { verdict: "refused", message: failure.message, answer } };
  }
}
