/**
 * Reads the signals page's starter file form through the one multipart parser (app/glue/multipart.server.ts):
 * its few text fields in memory, the file streamed to storage under `starters/` with its size limit enforced
 * while it streams, never held whole (docs/decisions/048-starter-files.md). Any kind of file is taken: it is
 * never served to anyone, only read by the integrity worker.
 */
import { MultipartError, receiveMultipart, type ReceivedFile } from "./multipart.server.ts";
import { UnreadableBodyError } from "./request-bodies.server.ts";
import { messages } from "../modules/messages.ts";
import { STARTER_FILE_LIMIT_BYTES } from "../modules/integrity/schema.ts";

/** The form's text fields are an intent and a row id. */
const MAX_FIELD_BYTES = 1000;

export interface ParsedStarterFileForm {
  formData: FormData;
  /** The stored file (the caller deletes it if the form is refused), or null when none came. */
  file: (ReceivedFile & { key: string }) | null;
  fileError: string | null;
  /** Storage did not take the file: a 503 (try again), nothing saved. */
  storageUnavailable: boolean;
}

export async function parseStarterFileForm(request: Request): Promise<ParsedStarterFileForm> {
  try {
    const form = await receiveMultipart(request, { files: { file: { to: "storage", prefix: "starters", limitBytes: STARTER_FILE_LIMIT_BYTES } }, maxFieldBytes: MAX_FIELD_BYTES });
    const file = form.files.get("file");
    return { formData: form.fields, file: file?.key ? { ...file, key: file.key } : null, fileError: file?.key ? null : messages.integrity.starterFileRequired, storageUnavailable: false };
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    // A field this long is no form of ours.
    if (error.kind === "malformed" || error.kind === "late" || error.kind === "fieldTooLarge") throw new UnreadableBodyError(400);
    const storageUnavailable = error.kind === "storage";
    const fileError = storageUnavailable ? messages.errors.storageUnavailable : messages.integrity.starterFileTooLarge;
    return { formData: error.form.fields, file: null, fileError, storageUnavailable };
  }
}
