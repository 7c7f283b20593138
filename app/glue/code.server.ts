/**
 * The code challenges' forms (docs/domain.md "Code challenges"): a team's program, pasted or as a file
 * (/code/:id), and an admin's settings and hidden tests (/dashboard/code/:id). A program is read into memory,
 * size-capped while it streams; a tests archive streams to storage, is checked entry by entry, and is deleted
 * if refused. A refused form gives back what was typed.
 */
import { z } from "zod";
import { getDb } from "../infrastructure/db.server.ts";
import { deleteObject } from "../infrastructure/s3.server.ts";
import { LANGUAGE_IDS } from "../infrastructure/sandbox/languages.server.ts";
import { CHECKER_MAX_BYTES, saveChecker } from "../modules/code/checker.server.ts";
import { COMPARATORS } from "../modules/code/compare.ts";
import { pauseJudging, rejudgeRuns } from "../modules/code/rejudge.server.ts";
import { assertCanSendRun, sendRun, SOURCE_MAX_BYTES } from "../modules/code/runs.server.ts";
import { checkTestsArchive, CodeError, getCodeChallenge, MEMORY_LIMIT_MB, saveCodeSettings, saveTests, TESTS_MAX_BYTES, TIME_LIMIT_MS } from "../modules/code/settings.server.ts";
import { DomainError } from "../modules/errors.ts";
import { parseRowId } from "../modules/ids.ts";
import { messages } from "../modules/messages.ts";
import type { Actor } from "../modules/audit/audit.server.ts";
import { actorOf } from "./actor.server.ts";
import { readFields } from "./api.server.ts";
import type { Caller } from "./caller.server.ts";
import { MultipartError, receiveMultipart } from "./multipart.server.ts";
import { isMultipartForm, mediaType } from "./request-bodies.server.ts";

const m = messages.code;

/**
 * A form's answer: on a refusal its status, the sentence, the input to blame (`field`), the seconds to wait for a 429
 * (`retryAfterSeconds`, sent as Retry-After) and what was typed (`fields`); a sent program's `runId`.
 */
export type CodeReply =
  | { ok: true; message: string; runId?: number }
  | { ok: false; status: number; message: string; field?: string; retryAfterSeconds?: number; fields?: Record<string, string> };

function refusal(error: unknown, fields?: Record<string, string>): CodeReply {
  if (error instanceof DomainError) {
    return {
      ok: false,
      status: error.status,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      ...(fields ? { fields } : {}),
    };
  }
  throw error;
}

const typedBack = (form: FormData) => Object.fromEntries([...form].filter(([, value]) => typeof value === "string").map(([key, value]) => [key, String(value)]));

/**
 * A team's program on /code/:id and through the API (POST /api/v1/challenges/{id}/runs): its language and its source,
 * pasted (`source`) or as a file (`file`, multipart); the API's JSON body is read as the form's fields. The team's
 * right to send is checked before the body is read.
 */
export async function codePost(request: Request, caller: Caller, challengeId: number, begunAt: Date): Promise<CodeReply> {
  let fields: Record<string, string> | undefined;
  try {
    await assertCanSendRun(getDb(), { teamId: caller.teamId, challengeId, begunAt });
    let form: FormData;
    let file: Buffer | null = null;
    if (mediaType(request.headers.get("Content-Type")) === "application/json") form = await jsonForm(request);
    else if (isMultipartForm(request)) {
      try {
        const received = await receiveMultipart(request, { files: { file: { to: "memory", limitBytes: SOURCE_MAX_BYTES } }, maxFieldBytes: SOURCE_MAX_BYTES * 4 });
        form = received.fields;
        file = received.files.get("file")?.content ?? null;
      } catch (error) {
        if (!(error instanceof MultipartError)) throw error;
        fields = typedBack(error.form.fields);
        if (error.kind === "fileTooLarge" || error.kind === "fieldTooLarge") return { ok: false, status: 413, message: m.sourceTooLarge(SOURCE_MAX_BYTES / 1024), fields };
        return { ok: false, status: 400, message: messages.errors.badRequest, fields };
      }
    } else form = await request.formData();
    fields = typedBack(form);
    const language = String(form.get("language") ?? "");
    const pasted = String(form.get("source") ?? "");
    if (!(LANGUAGE_IDS as readonly string[]).includes(language)) return { ok: false, status: 400, message: m.languageInvalid, fields };
    if (file && pasted.trim() !== "") return { ok: false, status: 400, message: m.sourceTwice, fields };
    const source = file ? file.toString("utf8") : pasted;
    if (file && (file.includes(0) || source.includes("\uFFFD"))) return { ok: false, status: 400, message: m.sourceBinary, fields };
    const runId = await sendRun(caller, challengeId, { language, source }, begunAt);
    return { ok: true, message: m.sent, runId };
  } catch (error) {
    return refusal(error, fields);
  }
}

/** The API's JSON body as the form's fields (its 256 KB cap and its refusals: api.server.ts). */
async function jsonForm(request: Request): Promise<FormData> {
  const form = new FormData();
  for (const [key, value] of Object.entries(await readFields(request))) form.set(key, typeof value === "string" ? value : JSON.stringify(value));
  return form;
}

/**
 * A rejudge on /dashboard/code/:id or through the API (POST /api/v1/challenges/{id}/rejudge), by an admin or a judge:
 * `run`, a run's id as typed, or "" for every judged run of the challenge. Returns how many runs were queued again.
 */
export async function rejudge(actor: Actor, challengeId: number, run: string): Promise<number> {
  // A row's id as every id from outside (app/modules/ids.ts): 2147483648 would reach Postgres as a failed query.
  const runId = run === "" ? null : parseRowId(run);
  if (run !== "" && runId === null) throw new CodeError(messages.errors.badRequest, { status: 400, field: "run" });
  return rejudgeRuns(actor, challengeId, runId);
}

const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{1,6}$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);

export const CodeSettingsSchema = z.object({
  languages: z.array(z.enum(LANGUAGE_IDS, { error: m.languageInvalid }), { error: m.languagesRequired }).min(1, m.languagesRequired),
  timeLimitMs: wholeNumber(TIME_LIMIT_MS.min, TIME_LIMIT_MS.max, m.timeLimitInvalid),
  memoryLimitMb: wholeNumber(MEMORY_LIMIT_MB.min, MEMORY_LIMIT_MB.max, m.memoryLimitInvalid),
  comparator: z.enum(COMPARATORS, { error: m.comparatorInvalid }),
});

/**
 * An admin's post on /dashboard/code/:id: the settings (`intent=settings`), the tests archive (multipart), the checker
 * (multipart, `intent=checker`: its language and source file), a rejudge
 * (`intent=rejudge`, of one `run` or of every judged run; a judge's too), or pausing and resuming every runner.
 */
export async function adminCodePost(request: Request, caller: Caller, challengeId: number): Promise<CodeReply> {
  const actor = actorOf(caller, request);
  try {
    // Judges rejudge; the settings, the tests and pausing are the admins'.
    const adminOnly = caller.role !== "admin";
    if (isMultipartForm(request)) {
      if (adminOnly) return { ok: false, status: 403, message: m.adminOnly };
      if (!(await getCodeChallenge(challengeId))) return { ok: false, status: 409, message: m.settingsFirst };
      let stored: { key: string; name: string } | null = null;
      let received: Awaited<ReturnType<typeof receiveMultipart>>;
      try {
        received = await receiveMultipart(request, {
          files: { file: { to: "storage", prefix: "tests", limitBytes: TESTS_MAX_BYTES }, checker: { to: "memory", limitBytes: CHECKER_MAX_BYTES } },
          maxFieldBytes: 10_000,
        });
        const file = received.files.get("file");
        if (file?.key) stored = { key: file.key, name: file.name || "tests.tar.gz" };
      } catch (error) {
        if (!(error instanceof MultipartError)) throw error;
        const fields = typedBack(error.form.fields);
        if (error.kind === "fileTooLarge" && error.field === "checker") return { ok: false, status: 413, message: m.checkerTooLarge(CHECKER_MAX_BYTES / 1024), fields };
        if (error.kind === "fileTooLarge") return { ok: false, status: 413, message: m.testsTooLarge(TESTS_MAX_BYTES / 1024 / 1024) };
        if (error.kind === "storage") return { ok: false, status: 503, message: messages.errors.storageUnavailable };
        return { ok: false, status: 400, message: messages.errors.badRequest };
      }
      if (received.fields.get("intent") === "checker") {
        if (stored) await deleteObject(stored.key).catch(() => undefined);
        const fields = typedBack(received.fields);
        const checker = received.files.get("checker");
        try {
          await saveChecker(actor, challengeId, { language: fields.checkerLanguage ?? "", source: checker?.content?.toString("utf8") ?? "", name: checker?.name ?? "" });
        } catch (error) {
          return refusal(error, fields);
        }
        return { ok: true, message: m.checkerSaved };
      }
      if (!stored) return { ok: false, status: 400, message: m.testsRequired };
      const file = stored;
      try {
        const checked = await checkTestsArchive(file.key);
        if (!checked.ok) {
          await deleteObject(file.key).catch(() => undefined);
          return { ok: false, status: 400, message: m.testsRefused(checked.reason) };
        }
        const replaced = await saveTests(actor, challengeId, { key: file.key, name: file.name, subtasks: checked.subtasks, totalShare: checked.totalShare });
        if (replaced) await deleteObject(replaced).catch(() => undefined);
        return { ok: true, message: m.testsSaved(checked.subtasks.reduce((sum, subtask) => sum + subtask.tests, 0), checked.subtasks.length) };
      } catch (error) {
        await deleteObject(file.key).catch(() => undefined);
        throw error;
      }
    }
    const form = await request.formData();
    const fields = typedBack(form);
    const intent = form.get("intent");
    if (intent !== "settings" && intent !== "rejudge" && intent !== "pause" && intent !== "resume") return { ok: false, status: 400, message: messages.errors.badRequest };
    if (intent === "rejudge") {
      return { ok: true, message: m.rejudged(await rejudge(actor, challengeId, String(form.get("run") ?? ""))) };
    }
    if (adminOnly) return { ok: false, status: 403, message: m.adminOnly };
    if (intent === "pause" || intent === "resume") {
      const changed = await pauseJudging(actor, intent === "pause");
      if (!changed) return { ok: false, status: 409, message: intent === "pause" ? m.alreadyPaused : m.alreadyRunning };
      return { ok: true, message: intent === "pause" ? m.paused : m.resumed };
    }
    const typed = { ...fields, languages: form.getAll("languages").map(String).join(",") };
    const parsed = CodeSettingsSchema.safeParse({ ...fields, languages: form.getAll("languages").map(String) });
    if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0].message, fields: typed };
    try {
      await saveCodeSettings(actor, challengeId, parsed.data);
    } catch (error) {
      return refusal(error, typed);
    }
    return { ok: true, message: m.settingsSaved };
  } catch (error) {
    return refusal(error);
  }
}
