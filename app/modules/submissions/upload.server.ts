/**
 * Reads a submission form: text fields in memory, the file streamed straight to S3 with the byte
 * limit enforced while streaming (STACK.md gotcha 3). Never holds a whole file in memory.
 */
import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { deleteObject, newObjectKey, StorageUnavailableError, uploadStream, UploadTooLargeError } from "../../utils/s3.server.ts";
import { SubmissionFormSchema } from "./schema.ts";
import { assertCanSubmit, saveSubmission, SubmissionError, type StoredFile } from "./submit.server.ts";

/** The multipart field that carries the file. */
export const FILE_FIELD = "file";

export interface ReceivedForm {
  formData: FormData;
  file: StoredFile | null;
}

/**
 * Parses the multipart body. Past `maxBytes` the upload is cut, the partial object removed, and a
 * SubmissionError("tooLarge") thrown; if storage fails, SubmissionError("storage") (503, try again). The stored file comes back apart from the form data, so a text
 * field named like the file can never pose as an upload.
 */
export async function receiveSubmissionForm(request: Request, maxBytes: number): Promise<ReceivedForm> {
  let file: StoredFile | null = null;
  const memoryHandler = unstable_createMemoryUploadHandler({ maxPartSize: 100_000 });
  // Keeps the text as it is read, so a refusal later in the body can still give it back.
  let textSeen: string | undefined;
  const textHandler: UploadHandler = async (part) => {
    const value = await memoryHandler(part);
    if (part.name === "text" && typeof value === "string") textSeen = value;
    return value;
  };
  const fileHandler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (name !== FILE_FIELD) return undefined;
    if (!filename || file) {
      // An empty file input still sends a part (and only one file counts): drain it, store nothing.
      for await (const chunk of data) void chunk;
      return null;
    }
    const key = newObjectKey("submissions");
    const stored = await uploadStream({
      key,
      body: data,
      contentType,
      limitBytes: maxBytes,
      metadata: { filename: encodeURIComponent(filename) },
    });
    if (stored.size === 0) {
      await deleteObject(key).catch(() => {});
      return null;
    }
    file = { key, name: filename.slice(0, 255), type: contentType || "application/octet-stream", size: stored.size };
    return "stored";
  };
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(fileHandler, textHandler),
    );
    return { formData, file };
  } catch (error) {
    const stored = file as StoredFile | null;
    if (stored) await deleteObject(stored.key).catch(() => {});
    if (error instanceof UploadTooLargeError || error instanceof StorageUnavailableError) {
      const refusal = new SubmissionError(error instanceof UploadTooLargeError ? "tooLarge" : "storage");
      refusal.text = textSeen;
      throw refusal;
    }
    throw error;
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
