/**
 * Reads the challenge form as it streams in (STACK.md gotcha 3): text fields go to a memory
 * handler, the attachment is sniffed from its first bytes and streamed to S3, never held whole.
 * A refused attachment never reaches storage, and the text fields typed so far are kept either way.
 */
import {
  MaxPartSizeExceededError,
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { isMultipartForm, UnreadableBodyError } from "./request-bodies.server.ts";
import { newObjectKey, StorageUnavailableError, uploadStream, UploadTooLargeError } from "./s3.server.ts";
import { safeFileName } from "../modules/form-fields.ts";
import { messages } from "../modules/messages.ts";
import { SNIFF_BYTES, sniffAttachment } from "../modules/challenges/attachment.ts";
import { ATTACHMENT_LIMIT_BYTES } from "../modules/challenges/schema.ts";
import type { StoredAttachment } from "../modules/challenges/challenges.server.ts";

const m = messages.dashboard;

export interface ParsedChallengeForm {
  formData: FormData;
  attachment: StoredAttachment | null;
  attachmentError: string | null;
  /** The attachment passed the size limit (the API answers 413). */
  attachmentTooLarge: boolean;
  /** Storage did not take the attachment: the form comes back with a 503 (try again), nothing saved. */
  storageUnavailable: boolean;
}

class AbortParse extends Error {}

/** Reads and drops what is left of a refused part, up to the limit (then the parse stops). */
async function drain(iterator: AsyncIterator<Uint8Array>, limit: number) {
  let size = 0;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    size += next.value.byteLength;
    if (size > limit) throw new AbortParse("refused part too large");
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export async function parseChallengeForm(request: Request, fieldName = "attachment"): Promise<ParsedChallengeForm> {
  // Another form encoding is read as it is (no attachment); a body that is no form, or multipart without
  // a boundary, is an UnreadableBodyError (415/400).
  if (!isMultipartForm(request)) {
    return { formData: await request.formData(), attachment: null, attachmentError: null, attachmentTooLarge: false, storageUnavailable: false };
  }
  const fields = new FormData();
  // A failure of ours (storage) stays what it is; anything else the parser throws is a body it cannot read.
  let ourFailure: unknown;
  let attachment: StoredAttachment | null = null;
  let attachmentError: string | null = null;
  let attachmentTooLarge = false;
  let storageUnavailable = false;

  const attachmentHandler: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) return undefined; // a text field: the memory handler takes it
    const iterator = data[Symbol.asyncIterator]();
    if (name !== fieldName || !filename || attachment) {
      // An empty file input (no file chosen) or an unexpected file part.
      await drain(iterator, ATTACHMENT_LIMIT_BYTES);
      return "";
    }
    let head: Uint8Array = new Uint8Array(0);
    while (head.length < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) break;
      head = concat(head, next.value);
    }
    const sniff = sniffAttachment(filename, head);
    if (!sniff.ok) {
      attachmentError = sniff.reason === "type" ? m.attachmentType : m.attachmentContent;
      await drain(iterator, ATTACHMENT_LIMIT_BYTES);
      return "";
    }
    const key = newObjectKey("challenges");
    const body = (async function* () {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
    try {
      const stored = await uploadStream({
        key,
        body,
        contentType: sniff.contentType,
        limitBytes: ATTACHMENT_LIMIT_BYTES,
        metadata: { filename: encodeURIComponent(safeFileName(filename)) },
      });
      attachment = { key, name: safeFileName(filename), contentType: sniff.contentType, size: stored.size };
    } catch (error) {
      if (error instanceof UploadTooLargeError || error instanceof StorageUnavailableError) {
        storageUnavailable = error instanceof StorageUnavailableError;
        attachmentTooLarge = !storageUnavailable;
        attachmentError = storageUnavailable ? messages.errors.storageUnavailable : m.attachmentTooLarge;
        // Stop reading: the rest of the body is not worth receiving. The file input is the form's last
        // field, so every text field has been read already.
        throw new AbortParse(storageUnavailable ? "storage unavailable" : "attachment too large");
      }
      ourFailure = error;
      throw error;
    }
    return "";
  };

  const memory = unstable_createMemoryUploadHandler({ maxPartSize: 100_000 });
  const textHandler: UploadHandler = async (part) => {
    const value = await memory(part);
    if (typeof value === "string") fields.append(part.name, value);
    return value;
  };

  try {
    await unstable_parseMultipartFormData(request, unstable_composeUploadHandlers(attachmentHandler, textHandler));
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) attachmentError ??= m.tooLong;
    else if (error === ourFailure) throw error;
    else if (!(error instanceof AbortParse)) throw new UnreadableBodyError(400);
  }
  return { formData: fields, attachment, attachmentError, attachmentTooLarge, storageUnavailable };
}
