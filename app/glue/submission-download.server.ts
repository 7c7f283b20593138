import { redirect } from "@remix-run/node";
import { storedBodyResponse } from "./stored-body.server.ts";
import { openObject, presignDownload } from "../infrastructure/s3.server.ts";
import type { Role } from "../modules/auth/access.ts";
import { namesShownTo } from "../modules/judging/blind.server.ts";

/**
 * The answer to "download this submission's file": a short-lived presigned URL to storage, as an
 * attachment under its name. A judge while judging is blind gets the bytes from our own server instead,
 * named as blind judging shows it (app/modules/judging/blind.server.ts): storage would name the file in its
 * own headers (the upload's metadata).
 */
export async function submissionFileResponse(request: Request, file: { key: string; name: string }, viewer: { role: Role }): Promise<Response> {
  const names = await namesShownTo(viewer);
  if (!names.hidden) {
    return redirect(await presignDownload(file.key, file.name), { headers: { "Cache-Control": "no-store" } });
  }
  const object = await openObject(file.key);
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "Content-Disposition": `attachment; filename="${names.fileName(file.name)}"`,
    "Cache-Control": "private, no-store",
  });
  if (object.length !== undefined) headers.set("Content-Length", String(object.length));
  return storedBodyResponse(request, object.body, { headers });
}
