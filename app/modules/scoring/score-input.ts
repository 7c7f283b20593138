import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { statusAfterJudging, toCenti, type SubmissionStatus } from "./rules.ts";

/**
 * A judge's score as typed: a number from 0 to the challenge's points with at most 2 decimals.
 * Returns hundredths. The same schema serves the form, the action and the API. One schema per maximum,
 * made once (a zod schema is immutable; building one costs more than parsing a score with it).
 */
export function scoreInputSchema(points: number) {
  let schema = schemasByPoints.get(points);
  if (!schema) {
    // Maximums are the challenges' points and their criteria's: few. A bound all the same.
    if (schemasByPoints.size >= 1000) schemasByPoints.clear();
    schema = makeScoreInputSchema(points);
    schemasByPoints.set(points, schema);
  }
  return schema;
}

const schemasByPoints = new Map<number, ReturnType<typeof makeScoreInputSchema>>();

function makeScoreInputSchema(points: number) {
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

const verdictActions: Record<Verdict, string> = { approved: "Approve", rejected: "Reject", reviewed: "Mark reviewed" };

/**
 * The status choices beside a judge's score, each named by what sending does to the row: first the
 * default (no verdict: a pending submission becomes reviewed, any other keeps its status), then each
 * verdict that would end elsewhere. A verdict equal to the default's outcome is not offered twice.
 */
export function verdictChoices(status: SubmissionStatus): Array<{ value: Verdict | ""; label: string }> {
  const byDefault = statusAfterJudging(status, undefined);
  const others = (["approved", "rejected", "reviewed"] as const).filter((verdict) => verdict !== byDefault);
  return [
    { value: "", label: `${byDefault === status || byDefault === "pending" ? `Keep ${byDefault}` : verdictActions[byDefault]} (default)` },
    ...others.map((verdict) => ({ value: verdict, label: verdictActions[verdict] })),
  ];
}

export const ScoreFormSchema = z.object({
  submissionId: rowId(),
  score: text({ error: messages.scoring.required }),
  comment: text().trim().max(2000, messages.scoring.commentTooLong).optional(),
  verdict: z.enum(verdicts).optional(),
});
