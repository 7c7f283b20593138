/**
 * An award as an admin types it (docs/domain.md "Scoring and standings", Awards): the team, the points (a
 * positive or negative number up to 2 decimals, not 0, at most MAX_AWARD_POINTS either way), an optional
 * category and a reason. The same schema serves the form, its action and the module, which parses again.
 */
import { z } from "zod";
import type { Category } from "../../../db/schema.ts";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { categories, toCenti } from "../scoring/rules.ts";
import { MAX_AWARD_POINTS } from "./rules.ts";

const m = messages.awards;

/** The longest reason: a sentence or two, shown on the team's status page. */
export const REASON_MAX_LENGTH = 500;

/** Points as typed: kept as text (the module turns them into hundredths with `awardPointsCenti`). */
export const awardPointsField = () =>
  text({ error: m.pointsRequired })
    .trim()
    .min(1, m.pointsRequired)
    .refine((value) => /^[+-]?\d+(\.\d+)?$/.test(value), m.pointsNotANumber)
    .refine((value) => !/\.\d{3,}$/.test(value), m.decimals)
    .refine((value) => Number(value) !== 0, m.pointsZero)
    .refine((value) => Math.abs(Number(value)) <= MAX_AWARD_POINTS, m.pointsRange(MAX_AWARD_POINTS.toLocaleString("en-US")));

/** Valid points (`awardPointsField`) in hundredths: exact, at most 2 decimals. */
export function awardPointsCenti(points: string): number {
  return toCenti(Number(points));
}

export const AwardFormSchema = z.object({
  teamId: rowId(m.teamRequired),
  points: awardPointsField(),
  // Empty (conform drops it): no category, the award counts only in the total.
  category: z.enum(categories, { error: m.categoryInvalid }).optional(),
  reason: text({ error: m.reasonRequired }).trim().min(1, m.reasonRequired).max(REASON_MAX_LENGTH, m.reasonTooLong(REASON_MAX_LENGTH)),
});

/** What `giveAward` takes: the form's fields as typed (the module validates them again). */
export interface AwardInput {
  teamId: number;
  points: string;
  category?: Category | null;
  reason: string;
}

export const AwardRevokeSchema = z.object({ id: rowId() });
