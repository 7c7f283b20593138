import { z } from "zod";
import "../form-fields.ts";
import { messages } from "../messages.ts";

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
