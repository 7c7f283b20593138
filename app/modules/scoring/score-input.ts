import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { toCenti } from "./rules.ts";

/**
 * A judge's score as typed: a number from 0 to the challenge's points with at most 2 decimals.
 * Returns hundredths. The same schema serves the form, the action and the API.
 */
export function scoreInputSchema(points: number) {
  return text({ error: messages.scoring.required })
    .trim()
    .min(1, messages.scoring.required)
    .refine((value) => /^-?\d+(\.\d+)?$/.test(value), messages.scoring.notANumber)
    .refine((value) => !/\.\d{3,}$/.test(value), messages.scoring.decimals)
    .transform((value) => Number(value))
    .refine((value) => value >= 0 && value <= points, messages.scoring.range(points))
    .transform(toCenti);
}

export const verdicts = ["reviewed", "approved", "rejected"] as const;
export type Verdict = (typeof verdicts)[number];

export const ScoreFormSchema = z.object({
  submissionId: rowId(),
  score: text({ error: messages.scoring.required }),
  comment: text().trim().max(2000, messages.scoring.commentTooLong).optional(),
  verdict: z.enum(verdicts).optional(),
});
