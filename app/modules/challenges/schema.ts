import { z } from "zod";
import { parseRubric } from "../scoring/rubric.ts";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { checkAnswers, flagKinds, formatAnswers, parseAnswers } from "../flags/answers.ts";
import { paidHintsText, parsePaidHints } from "../flags/paid-hints.ts";

const m = messages.dashboard;
const fm = messages.flagAnswers;

export const categories = ["AI", "CS", "PS", "GD"] as const;
export const difficulties = ["Easy", "Medium", "Hard"] as const;
export const categoryLabels: Record<(typeof categories)[number], string> = {
  AI: "AI",
  CS: "Cyber Security",
  PS: "Problem Solving",
  GD: "Design",
};

/**
 * How a challenge is checked (docs/domain.md "Flag challenges", "Prediction challenges", "Code challenges"): by
 * judges, or by the platform against its answers, by a metric over a team's predictions file, or by running a
 * team's program against hidden tests.
 */
export const checkingModes = ["judges", "flag", "metric", "tests"] as const;
export type CheckingMode = (typeof checkingModes)[number];
/** A flag challenge's points: static, or falling with its solves (app/modules/flags/decay.ts). */
export const scoringModes = ["static", "dynamic"] as const;
export type ScoringMode = (typeof scoringModes)[number];

/** A whole number from `min` to `max` typed in a box (empty: not given). */
const wholeNumber = (min: number, max: number, message: string) =>
  text({ error: message })
    .trim()
    .refine((value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max, message)
    .transform(Number)
    .optional();

/**
 * A challenge's answers in the admin's text form (app/modules/flags/answers.ts), checked line by line and given
 * on as that text (the module reads it again, with each answer's line, and compiles the patterns). Control
 * characters are refused, not stripped: they are never part of a flag.
 */
const answersText = z
  .string()
  .max(60_000, m.tooLong)
  .optional()
  .superRefine((value, context) => {
    const parsed = parseAnswers(value);
    if ("error" in parsed) context.addIssue({ code: "custom", message: parsed.error });
  });

/** How a challenge is checked, its answers and limits: the same fields wherever a challenge is written. */
const checkingFields = {
  checking: z.enum(checkingModes, { error: fm.checkingInvalid }).default("judges"),
  answers: answersText,
  // Empty: the event's setting (Settings → Flag challenges).
  wrongPerMinute: wholeNumber(1, 1000, fm.wrongPerMinuteInvalid),
  // Empty: no maximum.
  maxAttempts: wholeNumber(1, 1_000_000, fm.maxAttemptsInvalid),
  // A flag challenge's points: static, or dynamic from `points` down to `minimumPoints` at `decay` solves.
  scoring: z.enum(scoringModes, { error: fm.scoringInvalid }).default("static"),
  minimumPoints: wholeNumber(1, 1_000_000, fm.minimumInvalid),
  decay: wholeNumber(1, 1_000_000, fm.decayInvalid),
  // Hints that cost points, `cost | text` a line (app/modules/flags/paid-hints.ts); empty: none.
  paidHints: z
    .string()
    .max(30_000, m.tooLong)
    .optional()
    .superRefine((value, context) => {
      const parsed = parsePaidHints(value);
      if ("error" in parsed) context.addIssue({ code: "custom", message: parsed.error });
    }),
};

/** A flag challenge has answers; a judged one none (its limits are not kept). No mode (the API's update): answers neither. */
function checkingRules(
  value: { checking?: CheckingMode | undefined; answers?: unknown; scoring?: string; minimumPoints?: number; decay?: number; points?: number },
  context: z.RefinementCtx,
) {
  if (value.scoring === "dynamic") {
    if (value.checking !== "flag") context.addIssue({ code: "custom", path: ["scoring"], message: fm.dynamicForFlags });
    if (value.minimumPoints === undefined) context.addIssue({ code: "custom", path: ["minimumPoints"], message: fm.dynamicNeedsCurve });
    if (value.decay === undefined) context.addIssue({ code: "custom", path: ["decay"], message: fm.dynamicNeedsCurve });
    if (value.minimumPoints !== undefined && value.points !== undefined && value.minimumPoints > value.points)
      context.addIssue({ code: "custom", path: ["minimumPoints"], message: fm.minimumAbovePoints });
  }
  // The text, or (the API's list refused by its own check, so not turned into text) the list.
  const given = Array.isArray(value.answers) ? value.answers.length > 0 : typeof value.answers === "string" && value.answers.trim() !== "";
  if (value.checking === undefined && given) context.addIssue({ code: "custom", path: ["checking"], message: fm.checkingInvalid });
  if (value.checking === "flag" && !given) context.addIssue({ code: "custom", path: ["answers"], message: fm.required });
  if ((value.checking === "judges" || value.checking === "metric" || value.checking === "tests") && given) context.addIssue({ code: "custom", path: ["answers"], message: fm.notForJudges });
}

/** The challenge form (the original platform's messages). No wave = a draft: in the dashboard, in no gate. */
const challengeFields = z.object({
  id: rowId().optional(),
  title: text({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(200, m.tooLong),
  description: text({ error: m.descriptionRequired }).trim().min(1, m.descriptionRequired).max(20_000, m.tooLong),
  // The Arabic beside the English, optional (docs/domain.md "Event content in two languages"): empty is none.
  titleAr: text().trim().max(200, m.tooLong).optional(),
  descriptionAr: text().trim().max(20_000, m.tooLong).optional(),
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
  // Opens this many minutes after its gate (empty: with it).
  releaseAfterMinutes: wholeNumber(1, 10_080, m.releaseInvalid),
  // The challenges a team must solve first (a multiple select: its values are ids).
  prerequisites: z.array(rowId()).max(20, m.tooLong).optional(),
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
  ...checkingFields,
  removeAttachment: z.literal("on").optional(),
  // Streamed to storage by the server before this schema runs; here only so the form knows the field.
  attachment: z.unknown().optional(),
});

export const ChallengeFormSchema = challengeFields.superRefine(checkingRules);

const createFields = challengeFields.omit({ id: true, removeAttachment: true, attachment: true, rubric: true });

/** A new challenge outside the form (API, bulk import): the form's fields, no id, no file switch; the answers as the form's text. */
export const ChallengeCreateSchema = createFields.superRefine(checkingRules);

/** One accepted answer as the API takes it. */
export const FlagAnswerInputSchema = z.object({ kind: z.enum(flagKinds), value: z.string() }).meta({
  id: "FlagAnswerInput",
  description: "exact: the same characters; exact_ci: the same in any case; regex: an RE2 pattern matching the whole answer; per_team: each team's own flag, `<hmac>` marking where the team's HMAC goes",
});

/** One hint that costs points as the API takes it. */
export const PaidHintInputSchema = z
  .object({ cost: z.number().meta({ description: "Points, 0 to 100,000, up to 2 decimals (0: free)" }), text: z.string() })
  .meta({ id: "PaidHintInput", description: "A hint a team may unlock for its cost (its text reaches that team only from then on)" });

/**
 * A challenge as the API's JSON writes it (create and update): the create schema with the answers as a list of
 * `{ kind, value }` and the hints that cost points as a list of `{ cost, text }` (or either as the form's
 * text), checked by the same rules (the n-th item is "line n" in a message) and given on as the form's text.
 */
export const ChallengeApiSchema = createFields
  .extend({
    // Not given: an updated challenge keeps its hints; an empty list removes them (one a team unlocked cannot be).
    paidHints: z
      .union([z.string().max(30_000, m.tooLong), z.array(PaidHintInputSchema).max(100, m.tooLong)])
      .optional()
      .transform((value) => paidHintsText(value) as string | undefined)
      .superRefine((value, context) => {
        const parsed = parsePaidHints(value);
        if ("error" in parsed) context.addIssue({ code: "custom", message: parsed.error });
      }),
    // Not given: a new challenge is judged; an updated one keeps its mode, answers and limits.
    checking: z.enum(checkingModes, { error: fm.checkingInvalid }).optional(),
    answers: z
      .array(FlagAnswerInputSchema)
      .optional()
      .superRefine((list, context) => {
        const error = list ? checkAnswers(list.map((answer) => ({ kind: answer.kind, value: answer.value.trim() }))) : null;
        if (error) context.addIssue({ code: "custom", message: error });
      })
      .transform((list) => (list ? formatAnswers(list.map((answer) => ({ kind: answer.kind, value: answer.value.trim() }))) : undefined)),
  })
  .superRefine(checkingRules);

export const ChallengeStatusSchema = z.object({ status: z.enum(["active", "inactive"], { error: "Choose active or inactive" }) });

export type ChallengeFormValues = Omit<z.infer<typeof ChallengeFormSchema>, "attachment">;

export const ChallengeIdSchema = z.object({ id: rowId() });

/** 20 MB: a challenge attachment is a brief or an image, not a data set. */
export const ATTACHMENT_LIMIT_BYTES = 20 * 1024 * 1024;
export const attachmentAccept = ".jpg,.png,.pdf,.docx";
