/**
 * The import page's post, read: the preview posts the file (multipart, through the one multipart parser,
 * app/glue/multipart.server.ts; the file is small and kept in memory); the import posts its content back
 * from the preview page (a plain form) and is checked again.
 */
import { MAX_IMPORT_FILE_BYTES } from "../modules/imports/schema.ts";
import { messages } from "../modules/messages.ts";
import { MultipartError, receiveMultipart } from "./multipart.server.ts";
import { isMultipartForm, UnreadableBodyError } from "./request-bodies.server.ts";

export interface ImportForm {
  /** The text fields. */
  formData: FormData;
  /** The file's text and name, as uploaded or as posted back; null when none came. */
  file: { content: string; fileName: string } | null;
  /** Set when the file was refused (too large); `file` is null then. */
  fileError: string | null;
}

export async function readImportForm(request: Request): Promise<ImportForm> {
  if (!isMultipartForm(request)) {
    const formData = await request.formData();
    return { formData, file: postedBack(formData), fileError: null };
  }
  try {
    const form = await receiveMultipart(request, { files: { file: { to: "memory", limitBytes: MAX_IMPORT_FILE_BYTES } }, maxFieldBytes: MAX_IMPORT_FILE_BYTES });
    const upload = form.files.get("file");
    const file = upload?.content ? { content: upload.content.toString("utf8"), fileName: upload.name } : postedBack(form.fields);
    return { formData: form.fields, file, fileError: null };
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    if (error.kind === "fileTooLarge" || error.kind === "fieldTooLarge") {
      return { formData: error.form.fields, file: null, fileError: messages.imports.fileTooLarge(MAX_IMPORT_FILE_BYTES) };
    }
    // Nothing is stored here: anything else is a body the parser cannot read (cut short).
    throw new UnreadableBodyError(400);
  }
}

/** The file's content as the preview page posts it back for the import. */
function postedBack(formData: FormData): { content: string; fileName: string } | null {
  const content = formData.get("content");
  return typeof content === "string" && content ? { content, fileName: String(formData.get("fileName") ?? "") } : null;
}
