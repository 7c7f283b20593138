import { z } from "zod";
import "../form-fields.ts";
import { messages } from "../messages.ts";
import { rowId } from "../ids.ts";

/**
 * A flag answer as typed (the challenge page's form and POST /api/v1/challenges/{id}/flag). Only its
 * presence is checked here: its length in bytes, control characters and emptiness once trimmed are
 * sendFlag's refusals (app/modules/flags/guess.server.ts), each with its own status.
 */
export const FlagAnswerSchema = z.object({
  answer: z.string({ error: (issue) => (issue.input === undefined ? messages.flags.empty : undefined) }),
});

/** The hidden field that tells the challenge page's action a flag answer from a judged upload. */
export const FLAG_INTENT = "flag";

/** The hidden field of a hint's unlock on the challenge page. */
export const HINT_INTENT = "hint";

/** A hint's unlock: which hint (app/modules/flags/hints.server.ts decides whether the team may). */
export const HintUnlockSchema = z.object({ hintId: rowId() });
