/**
 * A submission's file (or an earlier version's) served by our own origin to be shown in the page: only
 * what its first bytes prove to be a raster image or a PDF (app/modules/submissions/file-view.ts), under
 * that type and never the uploader's, with headers that keep it from doing anything else.
 */
import type { Readable } from "node:stream";
import { openObject, readObjectStart } from "../../infrastructure/s3.server.ts";
import { contentDisposition } from "../file-names.ts";
import { fileView, SNIFF_BYTES, type InlineType } from "./file-view.ts";
import { findDownloadableSubmissionFile, type Viewer } from "./submit.server.ts";

/** The path that shows a submission's file inline (`?version=` for an earlier one): framed by the judge's page. */
export const INLINE_FILE_PATH = /^\/submissions\/\d+\/inline$/;

export type InlineFile =
  | { found: false }
  | { found: true; inline: false }
  | { found: true; inline: true; type: InlineType; name: string; body: Readable; length: number | undefined };

export async function openInlineSubmissionFile(submissionId: number, viewer: Viewer, versionId?: number): Promise<InlineFile> {
  const file = await findDownloadableSubmissionFile(submissionId, viewer, versionId);
  if (!file) return { found: false };
  const view = fileView(await readObjectStart(file.key, SNIFF_BYTES));
  if (view.kind !== "image" && view.kind !== "pdf") return { found: true, inline: false };
  const object = await openObject(file.key);
  return { found: true, inline: true, type: view.type, name: file.name, body: object.body, length: object.length };
}

/**
 * Headers for an inline file: its proven type (server.ts adds `nosniff` to every answer), shown rather than saved, private to the
 * viewer, and a policy that loads nothing and runs nothing (a sandbox for images; Chromium refuses to
 * show a PDF in a sandboxed document, and its viewer runs apart from our pages anyway). Framed only by
 * our own pages.
 */
export function inlineFileHeaders(file: { type: InlineType; name: string; length: number | undefined }): Headers {
  const headers = new Headers({
    "Content-Type": file.type,
    "Content-Disposition": contentDisposition(file.name, "inline"),
    "Cache-Control": "private, no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": `default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'${file.type === "application/pdf" ? "" : "; sandbox"}`,
  });
  if (file.length !== undefined) headers.set("Content-Length", String(file.length));
  return headers;
}
