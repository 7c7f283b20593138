/**
 * What s3rver (the embedded S3 of dev and tests) lacks for multipart uploads: it answers an
 * AbortMultipartUpload with 405 and keeps every part it was sent, so each refused 200 MB upload left
 * 200 MB on disk. Here: the abort (the parts removed at once), and a sweep of uploads left incomplete
 * for longer than a day (as the lifecycle rule does on MinIO and AWS: docs/deployment.md).
 */
import fs from "node:fs/promises";
import path from "node:path";

/** The little of a Koa context this needs (s3rver is a Koa app; Koa's types are not installed). */
interface Context {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Next = () => Promise<unknown>;

/** s3rver keeps a bucket's incomplete uploads here, one directory per upload id. */
export const uploadsDir = (root: string, bucket: string) => path.join(root, bucket, "._S3rver_uploads");

/** Upload ids are 32 hex digits (s3rver); bucket names are S3's. Anything else names nothing. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const noSuchUpload = (uploadId: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId.replace(/[^0-9a-zA-Z]/g, "")}</UploadId></Error>`;

/** How many aborted upload ids are remembered (their late parts are refused and removed). */
const REMEMBERED_ABORTS = 10_000;

function notFound(ctx: Context, uploadId: string) {
  ctx.status = 404;
  ctx.type = "application/xml";
  ctx.body = noSuchUpload(uploadId);
}

/**
 * Koa middleware, placed before s3rver's own: DELETE /bucket/key?uploadId=… removes that upload's parts.
 * A part still being received when the abort comes (the client gave up on it, s3rver has not) would
 * recreate the upload's directory when it finishes, as S3 itself warns ("abort again"): its directory
 * is removed once more after it, and a part sent for an aborted upload is refused.
 */
export function abortMultipartUploads(root: string) {
  const aborted = new Set<string>();
  return async (ctx: Context, next: Next) => {
    const uploadId = ctx.query.uploadId;
    if (typeof uploadId !== "string") return next();
    let bucket = "";
    try {
      bucket = decodeURIComponent(ctx.path.split("/")[1] ?? "");
    } catch {
      // Not a name at all ("%zz"): no such upload.
    }
    const named = UPLOAD_ID.test(uploadId) && BUCKET.test(bucket);
    const dir = path.join(uploadsDir(root, bucket), uploadId);
    if (ctx.method !== "DELETE") {
      if (!named) return next();
      if (aborted.has(uploadId)) return notFound(ctx, uploadId);
      try {
        return await next();
      } finally {
        if (aborted.has(uploadId)) await fs.rm(dir, { recursive: true, force: true });
      }
    }
    const exists = named && (await fs.stat(dir).then((stat) => stat.isDirectory(), () => false));
    if (!exists) return notFound(ctx, uploadId);
    aborted.add(uploadId);
    if (aborted.size > REMEMBERED_ABORTS) aborted.delete(aborted.values().next().value!);
    await fs.rm(dir, { recursive: true, force: true });
    ctx.status = 204;
  };
}

/** Removes every bucket's uploads begun more than `maxAgeMs` ago; returns how many. */
export async function sweepStaleUploads(root: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  const buckets = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const bucket of buckets) {
    if (!bucket.isDirectory()) continue;
    const dir = uploadsDir(root, bucket.name);
    for (const upload of await fs.readdir(dir).catch(() => [])) {
      const stat = await fs.stat(path.join(dir, upload)).catch(() => null);
      if (stat && now - stat.mtimeMs > maxAgeMs) {
        await fs.rm(path.join(dir, upload), { recursive: true, force: true });
        removed++;
      }
    }
  }
  return removed;
}
