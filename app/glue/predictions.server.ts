/**
 * The prediction challenges' forms (docs/domain.md "Prediction challenges"): a team's predictions file and its
 * choice of the file that counts (/predictions/:id), an admin's settings, labels and reveal (/dashboard/predictions/
 * :id). Files stream to storage through the one multipart parser (app/glue/multipart.server.ts), size-capped while
 * they stream; a refused form's file is deleted.
 */
import { z } from "zod";
import { deleteObject } from "../infrastructure/s3.server.ts";
import { DomainError } from "../modules/errors.ts";
import { messages } from "../modules/messages.ts";
import { METRICS } from "../modules/predictions/metrics.ts";
import { ChoiceSchema } from "../modules/predictions/schema.ts";
import {
  assertMaySendPredictions,
  choosePredictions,
  getPredictionChallenge,
  LABELS_MAX_BYTES,
  PredictionError,
  PREDICTIONS_MAX_BYTES,
  revealPredictions,
  saveLabels,
  savePredictionSettings,
  sendPredictions,
} from "../modules/predictions/predictions.server.ts";
import { checkLabels } from "../modules/predictions/scoring.server.ts";
import type { Faults } from "../modules/predictions/faults.ts";
import type { Actor } from "../modules/audit/audit.server.ts";
import { actorOf } from "./actor.server.ts";
import type { Caller } from "./caller.server.ts";
import { MultipartError, receiveMultipart } from "./multipart.server.ts";
import { isMultipartForm } from "./request-bodies.server.ts";

const m = messages.predictions;
const FILE_FIELD = "file";

/** A form's answer; a sent file's `submissionId`. */
export type PredictionsReply =
  | { ok: true; message: string; submissionId?: number }
  | { ok: false; status: number; message: string; faults?: Faults; fields?: Record<string, string> };

function refusal(error: unknown): PredictionsReply {
  if (error instanceof DomainError) return { ok: false, status: error.status, message: error.message };
  throw error;
}

/** Streams one CSV file of a multipart form to storage (at most `limitBytes`); its text fields come back too. */
async function receiveCsv(request: Request, prefix: string, limitBytes: number) {
  if (!isMultipartForm(request)) return { fields: await request.formData(), file: null };
  try {
    const form = await receiveMultipart(request, { files: { [FILE_FIELD]: { to: "storage", prefix, limitBytes } }, maxFieldBytes: 10_000 });
    const file = form.files.get(FILE_FIELD);
    return { fields: form.fields, file: file?.key ? { key: file.key, name: file.name || "file.csv", size: file.size } : null };
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    if (error.kind === "fileTooLarge") throw new PredictionError(m.fileTooLarge(Math.round(limitBytes / 1024 / 1024)), { status: 413 });
    if (error.kind === "storage") throw new PredictionError(messages.errors.storageUnavailable, { status: 503 });
    throw new PredictionError(messages.errors.badRequest, { status: 400 });
  }
}

/**
 * The team's choice of the file that counts, on /predictions/:id and through the API (PUT /api/v1/challenges/{id}/
 * predictions/choice): the sentence that confirms it.
 */
export async function choose(caller: Caller, challengeId: number, choice: z.output<typeof ChoiceSchema>): Promise<string> {
  const submission = choice.submission === "latest" ? null : choice.submission;
  await choosePredictions(caller, challengeId, submission);
  return submission === null ? m.latestChosen : m.chosen;
}

/**
 * A team's post on /predictions/:id: a file (multipart), or the choice of the file that counts; the API's upload
 * (POST /api/v1/challenges/{id}/predictions) is the same multipart post. The team's right to send and its day's
 * limit are checked before the body is read, so a refused team's file is never stored.
 */
export async function predictionsPost(request: Request, caller: Caller, challengeId: number, begunAt: Date): Promise<PredictionsReply> {
  try {
    if (!isMultipartForm(request)) {
      const form = Object.fromEntries(await request.formData());
      const parsed = ChoiceSchema.safeParse(form);
      if (form.intent !== "choose" || !parsed.success) return { ok: false, status: 400, message: messages.errors.badRequest };
      return { ok: true, message: await choose(caller, challengeId, parsed.data) };
    }
    // The right to send and the day's limit, before the body is read: a refused team's file is never stored.
    await assertMaySendPredictions(caller, challengeId, begunAt);
    const { file } = await receiveCsv(request, "predictions", PREDICTIONS_MAX_BYTES);
    if (!file) return { ok: false, status: 400, message: m.fileRequired };
    let submissionId: number;
    try {
      submissionId = await sendPredictions(caller, challengeId, file, begunAt);
    } catch (error) {
      await deleteObject(file.key).catch(() => undefined);
      throw error;
    }
    return { ok: true, message: m.sent, submissionId };
  } catch (error) {
    return refusal(error);
  }
}

const decimal = z
  .string()
  .trim()
  .regex(/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/, m.numberInvalid)
  .transform(Number)
  .refine(Number.isFinite, m.numberInvalid);

export const PredictionSettingsSchema = z.object({
  metric: z.enum(METRICS, { error: m.metricInvalid }),
  publicPercent: z
    .string()
    .trim()
    .regex(/^[0-9]{1,2}$/, m.percentInvalid)
    .transform(Number)
    .refine((value) => value >= 1 && value <= 99, m.percentInvalid),
  baseline: decimal,
  target: decimal,
  dailyLimit: z
    .string()
    .trim()
    .regex(/^[0-9]{1,4}$/, m.dailyLimitInvalid)
    .transform(Number)
    .refine((value) => value >= 1 && value <= 1000, m.dailyLimitInvalid),
});

/** An admin's reveal of the private scores, on /dashboard/predictions/:id and through the API (POST …/predictions/reveal). */
export async function reveal(actor: Actor, challengeId: number): Promise<PredictionsReply> {
  if (!(await getPredictionChallenge(challengeId))) return { ok: false, status: 409, message: m.settingsFirst };
  return (await revealPredictions(actor, challengeId)) ? { ok: true, message: m.revealedNow } : { ok: false, status: 409, message: m.alreadyRevealed };
}

/**
 * An admin's post on /dashboard/predictions/:id: the settings (`intent=settings`), the labels file (multipart), or
 * the reveal (`intent=reveal`).
 */
export async function adminPredictionsPost(request: Request, caller: Caller, challengeId: number): Promise<PredictionsReply> {
  const actor = actorOf(caller, request);
  try {
    if (isMultipartForm(request)) {
      const settings = await getPredictionChallenge(challengeId);
      if (!settings) return { ok: false, status: 409, message: m.settingsFirst };
      const { file } = await receiveCsv(request, "labels", LABELS_MAX_BYTES);
      if (!file) return { ok: false, status: 400, message: m.labelsRequired };
      const checked = await checkLabels(file, settings).catch(async (error: unknown) => {
        await deleteObject(file.key).catch(() => undefined);
        throw error;
      });
      if (!checked.ok) {
        await deleteObject(file.key).catch(() => undefined);
        return { ok: false, status: 400, message: m.labelsRefused, faults: checked.faults };
      }
      const replaced = await saveLabels(actor, challengeId, checked.value).catch(async (error: unknown) => {
        await deleteObject(file.key).catch(() => undefined);
        throw error;
      });
      if (replaced) await deleteObject(replaced).catch(() => undefined);
      return { ok: true, message: m.labelsSaved(checked.value.rows) };
    }
    const form = Object.fromEntries(await request.formData());
    if (form.intent === "reveal") return await reveal(actor, challengeId);
    if (form.intent !== "settings") return { ok: false, status: 400, message: messages.errors.badRequest };
    const parsed = PredictionSettingsSchema.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, status: 400, message: issue.message, fields: Object.fromEntries(Object.entries(form).map(([key, value]) => [key, String(value)])) };
    }
    await savePredictionSettings(actor, challengeId, parsed.data);
    return { ok: true, message: m.settingsSaved };
  } catch (error) {
    return refusal(error);
  }
}
