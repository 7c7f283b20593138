/**
 * Reads the challenge form through the one multipart parser (app/glue/multipart.server.ts): text
 * fields in memory, the attachment checked on its first bytes (its content must be what its extension
 * says) and streamed to storage, never held whole. A refused attachment never reaches storage, and the
 * text fields typed so far are kept either way.
 */
import { isMultipartForm, UnreadableBodyError } from "./request-bodies.server.ts";
import { MultipartError, receiveMultipart, type FileCheck } from "./multipart.server.ts";
import { messages } from "../modules/messages.ts";
import { SNIFF_BYTES, sniffAttachment } from "../modules/challenges/attachment.ts";
import { ATTACHMENT_LIMIT_BYTES } from "../modules/challenges/schema.ts";
import type { StoredAttachment } from "../modules/challenges/challenges.server.ts";

const m = messages.dashboard;

/** The longest text field the challenge form takes (a description, hints). */
const MAX_FIELD_BYTES = 100_000;

export interface ParsedChallengeForm {
  formData: FormData;
  attachment: StoredAttachment | null;
  attachmentError: string | null;
  /** The attachment passed the size limit (the API answers 413). */
  attachmentTooLarge: boolean;
  /** Storage did not take the attachment: the form comes back with a 503 (try again), nothing saved. */
  storageUnavailable: boolean;
}

const checkAttachment: FileCheck = (filename, head) => {
  const sniff = sniffAttachment(filename, head);
  return sniff.ok ? sniff : { ok: false, message: sniff.reason === "type" ? m.attachmentType : m.attachmentContent };
};

export async function parseChallengeForm(request: Request, fieldName = "attachment"): Promise<ParsedChallengeForm> {
  const parsed: ParsedChallengeForm = { formData: new FormData(), attachment: null, attachmentError: null, attachmentTooLarge: false, storageUnavailable: false };
  // Another form encoding is read as it is (no attachment); a body that is no form, or multipart without
  // a boundary, is an UnreadableBodyError (415/400).
  if (!isMultipartForm(request)) return { ...parsed, formData: await request.formData() };
  try {
    const form = await receiveMultipart(request, {
      files: { [fieldName]: { to: "storage", prefix: "challenges", limitBytes: ATTACHMENT_LIMIT_BYTES, check: { headBytes: SNIFF_BYTES, run: checkAttachment } } },
      maxFieldBytes: MAX_FIELD_BYTES,
    });
    const file = form.files.get(fieldName);
    return {
      ...parsed,
      formData: form.fields,
      attachment: file?.key ? { key: file.key, name: file.name, contentType: file.type, size: file.size } : null,
      attachmentError: form.refused.get(fieldName) ?? null,
    };
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    if (error.kind === "malformed" || error.kind === "late") throw new UnreadableBodyError(400);
    const storageUnavailable = error.kind === "storage";
    const attachmentError = storageUnavailable ? messages.errors.storageUnavailable : error.kind === "fileTooLarge" ? m.attachmentTooLarge : m.tooLong;
    return { ...parsed, formData: error.form.fields, attachmentError, attachmentTooLarge: error.kind === "fileTooLarge", storageUnavailable };
  }
}
