import { redirect } from "@remix-run/node";
import { storedBodyResponse } from "./stored-body.server.ts";
import { openObject, presignDownload } from "../infrastructure/s3.server.ts";
import type { Role } from "../modules/auth/access.ts";
import { contentDisposition } from "../modules/file-names.ts";
import { namesShownTo } from "../modules/judging/blind.server.ts";

/**
 * A stored file (a challenge's attachment, a submission's file) downloaded from storage through a
 * short-lived presigned URL, as an attachment under its shown name (app/modules/file-names.ts).
 */
export async function fileDownloadRedirect(file: { key: string; name: string }): Promise<Response> {
  return redirect(await presignDownload(file.key, contentDisposition(file.name)), { headers: { "Cache-Control": "no-store" } });
}

/**
 * The answer to "download this submission's file": a short-lived presigned URL to storage, as an
 * attachment under its name. A judge while judging is blind gets the bytes from our own server instead,
 * named as blind judging shows it (app/modules/judging/blind.server.ts): storage would name the file in its
 * own headers (the upload's metadata).
 */
export async function submissionFileResponse(request: Request, file: { key: string; name: string }, viewer: { role: Role }): Promise<Response> {
  const names = await namesShownTo(viewer);
  if (!names.hidden) {
    return fileDownloadRedirect(file);
  }
  const object = await openObject(file.key);
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Content-Disposition": contentDisposition(names.fileName(file.name)),
    "Cache-Control": "private, no-store",
  });
  if (object.length !== undefined) headers.set("Content-Length", String(object.length));
  return storedBodyResponse(request, object.body, { headers });
}
