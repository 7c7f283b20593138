import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { isLocalTimeText, isRealLocalTime } from "./zoned-time.ts";

const m = messages.dashboard;

/**
 * A datetime-local value ("2025-04-24T19:00"), read in the event's zone by the server. A time that does
 * not exist (30 February, 25:00) is refused with its own message, never rolled over into another day.
 */
const instant = text({ error: m.instantRequired })
  .trim()
  .superRefine((value, context) => {
    if (!isLocalTimeText(value)) context.addIssue({ code: "custom", message: m.instantRequired });
    else if (!isRealLocalTime(value)) context.addIssue({ code: "custom", message: m.instantImpossible });
  });

export const GateSettingsSchema = z.object({
  intent: z.literal("gate"),
  number: z.coerce.number().int().min(1).max(5),
  title: text({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(200, m.tooLong),
  description: text({ error: m.descriptionMissing }).trim().min(1, m.descriptionMissing).max(2000, m.tooLong),
  // The Arabic beside the English, optional (docs/domain.md "Event content in two languages"): empty is none.
  titleAr: text().trim().max(200, m.tooLong).optional(),
  descriptionAr: text().trim().max(2000, m.tooLong).optional(),
  opensAt: instant,
});

export const FinalSettingsSchema = z.object({ intent: z.literal("final"), finalAt: instant });

/** Empty: submissions close at the final countdown's instant. */
export const SubmissionsCloseSchema = z.object({ intent: z.literal("submissions-close"), submissionsCloseAt: instant.optional() });

export const MealAddSchema = z.object({
  intent: z.literal("meal-add"),
  label: text({ error: m.labelRequired }).trim().min(1, m.labelRequired).max(100, m.tooLong),
  at: instant,
});

export const MealRemoveSchema = z.object({ intent: z.literal("meal-remove"), id: rowId() });

/** Flag challenges (Settings → Flag challenges): the wrong answers a team may send a minute before it waits, 1 to 1000 (a challenge may set its own). */
export const FlagSettingsSchema = z.object({
  intent: z.literal("flags"),
  flagWrongPerMinute: z.coerce
    .number({ error: messages.flagAnswers.wrongPerMinuteInvalid })
    .int(messages.flagAnswers.wrongPerMinuteInvalid)
    .min(1, messages.flagAnswers.wrongPerMinuteInvalid)
    .max(1000, messages.flagAnswers.wrongPerMinuteInvalid),
});

/** The team size cap (Settings → Teams): 1 to 100 members a team (app/modules/teams/team-size.server.ts). */
export const TeamSizeCapSchema = z.object({
  intent: z.literal("team-cap"),
  teamSizeCap: z.coerce.number({ error: messages.teamSize.capInvalid }).int(messages.teamSize.capInvalid).min(1, messages.teamSize.capInvalid).max(100, messages.teamSize.capInvalid),
});

/** Settings → Sign-in: passwords off for participants (docs/domain.md "Passwords off for participants"). */
export const SignInSettingsSchema = z.object({
  intent: z.literal("sign-in"),
  participantPasswordsOff: z.literal("on").optional().transform(Boolean),
});
