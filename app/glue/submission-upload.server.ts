/**
 * Reads a submission form: text fields in memory, the file streamed straight to storage with the byte
 * limit enforced while streaming, through the one multipart parser (app/glue/multipart.server.ts).
 */
import { deleteObject } from "../infrastructure/s3.server.ts";
import { actorOf } from "./actor.server.ts";
import type { Caller } from "./caller.server.ts";
import { MultipartError, receiveMultipart, type MultipartFailure } from "./multipart.server.ts";
import { isMultipartForm } from "./request-bodies.server.ts";
import { lastPartBy } from "../modules/submissions/close.ts";
import { SubmissionFormSchema } from "../modules/submissions/schema.ts";
import { assertCanSubmit, saveSubmission, SubmissionError, type StoredFile } from "../modules/submissions/submit.server.ts";

/** The multipart field that carries the file. */
export const FILE_FIELD = "file";

/** A text field longer than this is refused (the form's text is far shorter; this only stops abuse). */
const MAX_FIELD_BYTES = 100_000;

export interface ReceivedForm {
  formData: FormData;
  file: StoredFile | null;
}

const refusalCode: Record<MultipartFailure, "tooLarge" | "storage" | "textTooLong" | "malformed" | "submissionsClosed"> = {
  late: "submissionsClosed",
  fileTooLarge: "tooLarge",
  storage: "storage",
  fieldTooLarge: "textTooLong",
  malformed: "malformed",
};

function textOf(formData: FormData): string | undefined {
  const value = formData.get("text");
  return typeof value === "string" ? value : undefined;
}

/**
 * Parses the submission form. Past `maxBytes` the upload is cut and a SubmissionError("tooLarge")
 * thrown; if storage fails, SubmissionError("storage") (503, try again); either way with the text read so
 * far. The stored file comes back apart from the form data, so a text field named like the file can
 * never pose as an upload.
 */
export async function receiveSubmissionForm(request: Request, maxBytes: number, closesAt: Date | null = null): Promise<ReceivedForm> {
  if (!isMultipartForm(request)) return { formData: await request.formData(), file: null };
  try {
    const form = await receiveMultipart(request, {
      files: { [FILE_FIELD]: { to: "storage", prefix: "submissions", limitBytes: maxBytes } },
      maxFieldBytes: MAX_FIELD_BYTES,
      // Each part must start by the close and its grace (the rule's: app/modules/submissions/close.ts).
      partsBy: lastPartBy(closesAt),
    });
    const file = form.files.get(FILE_FIELD);
    return { formData: form.fields, file: file?.key ? { key: file.key, name: file.name, type: file.type, size: file.size } : null };
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    const refusal = new SubmissionError(refusalCode[error.kind]);
    refusal.text = textOf(error.form.fields);
    throw refusal;
  }
}

/**
 * The text of a submission refused before its body is read, so the page can give it back: the same
 * parser with no file expected (files are read and dropped, never stored). An unreadable body gives none.
 */
async function readTextOnly(request: Request): Promise<string | undefined> {
  if (!request.body || request.bodyUsed) return undefined;
  try {
    const formData = isMultipartForm(request) ? (await receiveMultipart(request, { files: {}, maxFieldBytes: MAX_FIELD_BYTES })).fields : await request.formData();
    return textOf(formData);
  } catch (error) {
    return error instanceof MultipartError ? textOf(error.form.fields) : undefined;
  }
}

export type SubmissionOutcome =
  | { ok: true; created: boolean; submissionId: number }
  | { ok: false; status: number; message: string; text: string };

/**
 * The whole POST of a submission form, shared by the page's action (no JavaScript) and the upload
 * endpoint the enhanced form posts to with progress: checks the rules before reading the body,
 * streams the file, then saves.
 */
export async function handleSubmissionPost(
  request: Request,
  input: { caller: Caller; challengeId: number; maxBytes: number; begunAt: Date },
): Promise<SubmissionOutcome> {
  let text = "";
  try {
    let closesAt: Date | null;
    try {
      ({ closesAt } = await assertCanSubmit({ teamId: input.caller.teamId, challengeId: input.challengeId, begunAt: input.begunAt }));
    } catch (error) {
      // Refused before the body is read: the form still gets its text back (files are read and dropped).
      if (error instanceof SubmissionError) error.text = await readTextOnly(request);
      throw error;
    }
    const { formData, file } = await receiveSubmissionForm(request, input.maxBytes, closesAt);
    const raw = formData.get("text");
    text = typeof raw === "string" ? raw : "";
    const parsed = SubmissionFormSchema.safeParse({ text });
    if (!parsed.success) {
      if (file) await deleteObject(file.key).catch(() => {});
      return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid text", text };
    }
    const saved = await saveSubmission({
      actor: actorOf(input.caller, request),
      teamId: input.caller.teamId,
      challengeId: input.challengeId,
      begunAt: input.begunAt,
      text: parsed.data.text,
      file,
    });
    return { ok: true, ...saved };
  } catch (error) {
    if (error instanceof SubmissionError) return { ok: false, status: error.status, message: error.message, text: error.text ?? text };
    throw error;
  }
}
