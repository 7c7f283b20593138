/**
 * Reads a submission form: text fields in memory, the file streamed straight to S3 with the byte
 * limit enforced while streaming (STACK.md gotcha 3). Never holds a whole file in memory.
 *
 * The multipart body is parsed by busboy, not Remix's unstable_parseMultipartFormData: the latter's
 * boundary search ran at about 15 ms of CPU per MB and capped an upload through the web process
 * well below a direct upload to S3 (docs/PERFORMANCE.md).
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { deleteObject, newObjectKey, StorageUnavailableError, uploadStream, UploadTooLargeError } from "../../utils/s3.server.ts";
import { safeFileName } from "../form-fields.ts";
import { SubmissionFormSchema } from "./schema.ts";
import { assertCanSubmit, saveSubmission, SubmissionError, type StoredFile } from "./submit.server.ts";

/** The multipart field that carries the file. */
export const FILE_FIELD = "file";

/** How much of a refused upload is still read (and dropped) so the browser gets the answer, not a reset. */
const DISCARD_AFTER_REFUSAL_BYTES = 64 * 1024 * 1024;

/** A text field longer than this is refused (the form's text is far shorter; this only stops abuse). */
const MAX_FIELD_BYTES = 100_000;

export interface ReceivedForm {
  formData: FormData;
  file: StoredFile | null;
}

class FieldTooLargeError extends Error {
  constructor(name: string) {
    super(`field ${name} exceeds ${MAX_FIELD_BYTES} bytes`);
  }
}

/** A body that is not the multipart form it claims to be (cut short, a broken boundary). */
class MalformedFormError extends Error {}

/**
 * Parses the multipart body. Past `maxBytes` the upload is cut, the partial object removed, and a
 * SubmissionError("tooLarge") thrown; if storage fails, SubmissionError("storage") (503, try again). The
 * stored file comes back apart from the form data, so a text field named like the file can never pose
 * as an upload.
 */
export async function receiveSubmissionForm(request: Request, maxBytes: number): Promise<ReceivedForm> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) return { formData: await request.formData(), file: null };

  const formData = new FormData();
  let file: StoredFile | null = null;
  // Kept as it is read, so a refusal later in the body can still give the text back.
  let textSeen: string | undefined;
  let storing: Promise<void> | null = null;
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  let parser: ReturnType<typeof busboy>;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { fieldSize: MAX_FIELD_BYTES }, defParamCharset: "utf8" });
  } catch {
    // Multipart without a boundary, or one busboy cannot read: no form of ours sends it.
    throw new SubmissionError("malformed");
  }

  const parsed = new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // The answer goes out now, but a browser still sending the rest of its file only reads it once it has
      // sent everything: cutting the connection would show it a blank "connection reset" page instead of
      // the message. So the rest is read and thrown away (never kept), up to a bound past which a client
      // sending far more than the limit is cut off.
      source.unpipe(parser);
      parser.removeAllListeners("file");
      let discarded = 0;
      source.on("data", (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > DISCARD_AFTER_REFUSAL_BYTES) source.destroy();
      });
      source.resume();
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new FieldTooLargeError(name));
      if (name === "text") textSeen = value;
      formData.append(name, value);
    });
    parser.on("file", (name, stream, info) => {
      if (name !== FILE_FIELD || !info.filename || storing) {
        // An empty file input still sends a part, and only one file counts: drain it, store nothing.
        stream.resume();
        return;
      }
      const key = newObjectKey("submissions");
      const filename = safeFileName(info.filename);
      storing = uploadStream({ key, body: stream, contentType: info.mimeType, limitBytes: maxBytes, metadata: { filename: encodeURIComponent(filename) } }).then(
        async (stored) => {
          if (stored.size === 0) {
            await deleteObject(key).catch(() => {});
            return;
          }
          file = { key, name: filename, type: info.mimeType || "application/octet-stream", size: stored.size };
        },
      );
      storing.catch(fail);
    });
    parser.on("error", (error: Error) => fail(new MalformedFormError(error.message)));
    source.on("error", (error: Error) => fail(new MalformedFormError(error.message)));
    // Parsed to the end; the file's last part may still be on its way to S3.
    parser.on("close", () => void (storing ?? Promise.resolve()).then(() => resolve(), fail));
  });
  source.pipe(parser);

  try {
    await parsed;
    return { formData, file };
  } catch (error) {
    const stored = file as StoredFile | null;
    if (stored) await deleteObject(stored.key).catch(() => {});
    const code =
      error instanceof UploadTooLargeError ? "tooLarge"
      : error instanceof StorageUnavailableError ? "storage"
      : error instanceof FieldTooLargeError ? "textTooLong"
      : error instanceof MalformedFormError ? "malformed"
      : null;
    if (!code) throw error;
    const refusal = new SubmissionError(code);
    refusal.text = textSeen;
    throw refusal;
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
  input: { userId: number; teamId: number | null; challengeId: number; maxBytes: number },
): Promise<SubmissionOutcome> {
  let text = "";
  try {
    await assertCanSubmit({ teamId: input.teamId, challengeId: input.challengeId });
    const { formData, file } = await receiveSubmissionForm(request, input.maxBytes);
    const raw = formData.get("text");
    text = typeof raw === "string" ? raw : "";
    const parsed = SubmissionFormSchema.safeParse({ text });
    if (!parsed.success) {
      if (file) await deleteObject(file.key).catch(() => {});
      return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid text", text };
    }
    const saved = await saveSubmission({ ...input, text: parsed.data.text, file });
    return { ok: true, ...saved };
  } catch (error) {
    if (error instanceof SubmissionError) return { ok: false, status: error.status, message: error.message, text: error.text ?? text };
    throw error;
  }
}
