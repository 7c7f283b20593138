import { z } from "zod";
import { parseRubric } from "../scoring/rubric.ts";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const m = messages.dashboard;

export const categories = ["AI", "CS", "PS", "GD"] as const;
export const difficulties = ["Easy", "Medium", "Hard"] as const;
export const categoryLabels: Record<(typeof categories)[number], string> = {
  AI: "AI",
  CS: "Cyber Security",
  PS: "Problem Solving",
  GD: "Design",
};

/** The challenge form (the original platform's messages). No wave = a draft: in the dashboard, in no gate. */
export const ChallengeFormSchema = z.object({
  id: rowId().optional(),
  title: text({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(200, m.tooLong),
  description: text({ error: m.descriptionRequired }).trim().min(1, m.descriptionRequired).max(20_000, m.tooLong),
  points: text({ error: m.pointsRequired })
    .trim()
    .min(1, m.pointsRequired)
    .refine((value) => /^\d+$/.test(value) && Number(value) > 0 && Number(value) <= 1_000_000, m.pointsInvalid)
    .transform(Number),
  category: z.enum(categories, { error: m.categoryRequired }),
  hints: text().trim().max(5000, m.tooLong).optional(),
  wave: z.coerce.number({ error: m.waveInvalid }).int(m.waveInvalid).min(1, m.waveInvalid).max(5, m.waveInvalid).optional(),
  difficulty: z.enum(difficulties).optional(),
  // "name | weight | maximum" a line (app/modules/scoring/rubric.ts); empty: a single score box.
  rubric: text()
    .max(5000, m.tooLong)
    .optional()
    .transform((value, context) => {
      const parsed = parseRubric(value);
      if ("error" in parsed) {
        context.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.criteria;
    }),
  removeAttachment: z.literal("on").optional(),
  // Streamed to storage by the server before this schema runs; here only so the form knows the field.
  attachment: z.unknown().optional(),
});

/** A new challenge outside the form (API, bulk import): the form's fields, no id, no file switch. */
export const ChallengeCreateSchema = ChallengeFormSchema.omit({ id: true, removeAttachment: true, attachment: true, rubric: true });

export const ChallengeStatusSchema = z.object({ status: z.enum(["active", "inactive"], { error: "Choose active or inactive" }) });

export type ChallengeFormValues = Omit<z.infer<typeof ChallengeFormSchema>, "attachment">;

export const ChallengeIdSchema = z.object({ id: rowId() });

/** 20 MB: a challenge attachment is a brief or an image, not a data set. */
export const ATTACHMENT_LIMIT_BYTES = 20 * 1024 * 1024;
export const attachmentAccept = ".jpg,.png,.pdf,.docx";
