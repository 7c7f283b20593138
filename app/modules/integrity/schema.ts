/**
 * The integrity signals' forms and query (docs/domain.md "Integrity signals"): the admin page's filters, the
 * dismiss and confirm forms, a challenge's starter code and the thresholds. The same schemas serve the
 * forms, their actions and the module.
 */
import { z } from "zod";
import { awardPointsField, REASON_MAX_LENGTH } from "../awards/schema.ts";
import { text } from "../form-fields.ts";
import { parseRowId, rowId } from "../ids.ts";
import { messages } from "../messages.ts";

const m = messages.integrity;

export const signalKinds = ["similar", "identical-file", "image", "flag-shared", "device-shared", "many-devices"] as const;
export type SignalKind = (typeof signalKinds)[number];
export const signalStatuses = ["open", "dismissed", "confirmed"] as const;

/** The list's filters (?status=&challenge=&team=&kind=): unknown values are ignored. */
export const SignalFilterSchema = z.object({
  status: z.enum(signalStatuses).optional().catch(undefined),
  challenge: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  team: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  kind: z.enum(signalKinds).optional().catch(undefined),
});
export type SignalFilter = z.infer<typeof SignalFilterSchema>;

export function readSignalFilter(searchParams: URLSearchParams): SignalFilter {
  return SignalFilterSchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
}

/** The longest reason an admin gives for a dismissal. */
export const DISMISS_REASON_MAX = 1000;

export const DismissSchema = z.object({
  intent: z.literal("dismiss"),
  id: rowId(),
  reason: text({ error: m.reasonRequired }).trim().min(1, m.reasonRequired).max(DISMISS_REASON_MAX, messages.awards.reasonTooLong(DISMISS_REASON_MAX)),
});

/** A confirmation: the team penalised (one of the signal's two), the points taken (a penalty, whatever the sign typed), the reason the team reads. */
export const ConfirmSchema = z.object({
  intent: z.literal("confirm"),
  id: rowId(),
  teamId: rowId(m.teamRequired),
  points: awardPointsField(),
  publicReason: text({ error: m.reasonRequired }).trim().min(1, m.reasonRequired).max(REASON_MAX_LENGTH, messages.awards.reasonTooLong(REASON_MAX_LENGTH)),
});

/** The longest starter code or template (what every team is given). */
export const STARTER_MAX = 100_000;

export const StarterSchema = z.object({
  intent: z.literal("starter"),
  challengeId: rowId(m.challengeNotFound),
  // Empty (conform drops it): the starter is removed.
  starter: z.string().max(STARTER_MAX, m.starterTooLong(STARTER_MAX)).optional().default(""),
});

/** The largest starter file (as a challenge's attachment) and the most a challenge holds (docs/decisions/048-starter-files.md). */
export const STARTER_FILE_LIMIT_BYTES = 20 * 1024 * 1024;
export const STARTER_FILES_MAX = 20;

/** A starter file's form: its challenge (the file itself comes through the multipart parser). */
export const StarterFileSchema = z.object({
  intent: z.literal("starter-file"),
  challengeId: rowId(m.challengeNotFound),
});

export const StarterFileRemoveSchema = z.object({
  intent: z.literal("starter-file-remove"),
  id: rowId(m.starterFileNotFound),
});

export const ThresholdsSchema = z.object({
  intent: z.literal("thresholds"),
  similarityPercent: z.coerce.number({ error: m.similarityRange }).int(m.similarityRange).min(10, m.similarityRange).max(100, m.similarityRange),
  devicesPerAccount: z.coerce.number({ error: m.devicesRange }).int(m.devicesRange).min(2, m.devicesRange).max(100, m.devicesRange),
});
