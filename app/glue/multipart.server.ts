/**
 * The one multipart parser (submissions, challenge attachments, the import): busboy, streaming. Text
 * fields are kept in memory within a size limit; each expected file is checked on its first bytes if
 * its rule says so, then streamed to storage (or, for small files, to memory) with its byte limit
 * enforced while it streams. Never holds a whole upload in memory.
 *
 * Written once here: the limits, what a refusal does (the rest of the body is read and dropped, up to
 * 64 MB, so a browser still sending gets the answer instead of a reset connection) and the clean-up
 * (an object stored before the parse failed is deleted; a partial one is aborted by uploadStream).
 *
 * busboy, not Remix's unstable_parseMultipartFormData: the latter's boundary search took about 15 ms
 * of CPU per MB and capped an upload through the web process well below a direct upload to S3
 * (docs/performance-log.md, "What was changed, and the before/after", item 6).
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { deleteObject, newObjectKey, StorageUnavailableError, uploadStream, UploadTooLargeError } from "../infrastructure/s3.server.ts";
import { safeFileName } from "../modules/form-fields.ts";

/** How much of a refused body is still read (and dropped) so the browser gets the answer, not a reset. */
export const DISCARD_AFTER_REFUSAL_BYTES = 64 * 1024 * 1024;

/** No form of ours has more: a body with more parts is no form of ours. */
const MAX_FIELDS = 100;
const MAX_FILES = 10;

export type FileCheck = (filename: string, head: Uint8Array) => { ok: true; contentType: string } | { ok: false; message: string };

export interface FileRule {
  /** "storage": streamed to S3 under `prefix/`; "memory": kept as bytes (a small file: the import). */
  to: "storage" | "memory";
  prefix?: string;
  limitBytes: number;
  /** Checks the first `headBytes` before anything is stored; a refusal drops this file and reads on. */
  check?: { headBytes: number; run: FileCheck };
}

export interface ReceivedFile {
  name: string;
  type: string;
  size: number;
  /** Set for "storage": the object, owned by the caller from here on (delete it if the form is refused). */
  key?: string;
  /** Set for "memory". */
  content?: Buffer;
}

export interface MultipartForm {
  /** The text fields, in the order they came. */
  fields: FormData;
  /** The first non-empty file of each expected field (a zero-byte file counts as none). */
  files: Map<string, ReceivedFile>;
  /** Files refused by their rule's check: field → the check's message. */
  refused: Map<string, string>;
}

export type MultipartFailure = "malformed" | "fieldTooLarge" | "fileTooLarge" | "storage" | "late";

/** The parse stopped. `form` holds what was read before (the text fields typed so far). */
export class MultipartError extends Error {
  constructor(
    public readonly kind: MultipartFailure,
    public readonly form: MultipartForm,
    public readonly field?: string,
  ) {
    super(`multipart ${kind}${field ? ` (${field})` : ""}`);
  }
}

/**
 * Reads a multipart/form-data body (the caller has checked it is one: isMultipartForm). Files of
 * fields `files` does not name, empty file inputs and second files of a field are read and dropped.
 */
// A field is reported when its value has arrived; a file when its headers have.
export async function receiveMultipart(
  request: Request,
  options: {
    files: Record<string, FileRule>;
    maxFieldBytes: number;
    /** A field or file that starts arriving after this instant (ms since the epoch) stops the parse: "late". */
    partsBy?: number;
  },
): Promise<MultipartForm> {
  const form: MultipartForm = { fields: new FormData(), files: new Map(), refused: new Map() };
  if (!request.body) throw new MultipartError("malformed", form);
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  let parser: ReturnType<typeof busboy>;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { fieldSize: options.maxFieldBytes, fields: MAX_FIELDS, files: MAX_FILES },
      defParamCharset: "utf8",
    });
  } catch {
    source.resume();
    throw new MultipartError("malformed", form);
  }

  const started = new Set<string>();
  const work: Array<Promise<void>> = [];
  const streaming = new Set<Readable>();
  let dropped = 0;
  let failed = false;
  let failure: unknown;

  const parsed = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      failure = classify(error, form);
      // A file still streaming stops here (its upload is aborted), so every file settles.
      for (const stream of streaming) stream.destroy(new Error("multipart parse stopped"));
      // The answer goes out now, but a browser still sending its file reads it only once it has sent
      // everything: the rest is read and dropped, up to a bound past which the sender is cut off.
      source.unpipe(parser);
      parser.removeAllListeners("file");
      let discarded = 0;
      source.on("data", (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > DISCARD_AFTER_REFUSAL_BYTES) source.destroy();
      });
      source.resume();
      reject(failure);
    };
    const drop = (stream: Readable) => {
      stream.on("data", (chunk: Buffer) => {
        dropped += chunk.length;
        if (dropped > DISCARD_AFTER_REFUSAL_BYTES) fail(new MultipartError("malformed", form));
      });
    };
    const late = () => options.partsBy !== undefined && Date.now() > options.partsBy;
    parser.on("field", (name, value, info) => {
      if (late()) return fail(new MultipartError("late", form, name));
      if (info.valueTruncated) return fail(new MultipartError("fieldTooLarge", form, name));
      form.fields.append(name, value);
    });
    parser.on("file", (field, stream, info) => {
      if (late()) {
        drop(stream);
        return fail(new MultipartError("late", form, field));
      }
      const rule = options.files[field];
      if (!rule || !info.filename || started.has(field)) return drop(stream);
      started.add(field);
      streaming.add(stream);
      const task = receiveFile(field, stream, info.filename, info.mimeType, rule, form)
        .catch((error: unknown) => fail(error))
        .finally(() => streaming.delete(stream));
      work.push(task);
    });
    parser.on("fieldsLimit", () => fail(new MultipartError("malformed", form)));
    parser.on("filesLimit", () => fail(new MultipartError("malformed", form)));
    parser.on("error", () => fail(new MultipartError("malformed", form)));
    source.on("error", () => fail(new MultipartError("malformed", form)));
    // Parsed to the end; a file's last part may still be on its way to storage.
    parser.on("close", () => void Promise.all(work).then(() => (failed ? reject(failure) : resolve())));
  });
  source.pipe(parser);

  try {
    await parsed;
    return form;
  } catch (error) {
    // Wait for every file to settle, then delete what was stored: the caller gets nothing to clean up.
    await Promise.allSettled(work);
    for (const file of form.files.values()) if (file.key) await deleteObject(file.key).catch(() => {});
    form.files.clear();
    throw error;
  }
}

function classify(error: unknown, form: MultipartForm): unknown {
  if (error instanceof MultipartError) return error;
  if (error instanceof UploadTooLargeError) return new MultipartError("fileTooLarge", form);
  if (error instanceof StorageUnavailableError) return new MultipartError("storage", form);
  return error;
}

async function receiveFile(field: string, stream: Readable, filename: string, mimeType: string, rule: FileRule, form: MultipartForm): Promise<void> {
  const name = safeFileName(filename);
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let type = mimeType || "application/octet-stream";
  if (rule.check) {
    while (head.length < rule.check.headBytes) {
      const next = await chunks.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
    }
    const verdict = rule.check.run(filename, head);
    if (!verdict.ok) {
      form.refused.set(field, verdict.message);
      // Read on (and drop) within the file's own limit: the fields after it still count.
      let size = head.length;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        size += next.value.length;
        if (size > rule.limitBytes) throw new MultipartError("fileTooLarge", form, field);
      }
      return;
    }
    type = verdict.contentType;
  }
  const body = (async function* () {
    if (head.length) yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();

  if (rule.to === "memory") {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > rule.limitBytes) throw new MultipartError("fileTooLarge", form, field);
      parts.push(chunk);
    }
    if (size > 0) form.files.set(field, { name, type, size, content: Buffer.concat(parts) });
    return;
  }

  const key = newObjectKey(rule.prefix ?? "uploads");
  try {
    const stored = await uploadStream({ key, body, contentType: type, limitBytes: rule.limitBytes, metadata: { filename: encodeURIComponent(name) } });
    if (stored.size === 0) {
      await deleteObject(key).catch(() => {});
      return;
    }
    form.files.set(field, { name, type, size: stored.size, key });
  } catch (error) {
    const classified = classify(error, form);
    throw classified instanceof MultipartError ? new MultipartError(classified.kind, form, field) : error;
  }
}
