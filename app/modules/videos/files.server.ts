/**
 * Video files we store ourselves (the demo event's home video): in S3 under `videos/<uuid>`, played from
 * `/media/<uuid>` (OWN_VIDEO_PATH) by any signed-in user, like the home page that shows them. Nothing
 * else of the bucket is reachable that way: the path names a uuid, never a key.
 */
import { Readable } from "node:stream";
import { newObjectKey, openObjectPart, uploadStream } from "../../infrastructure/s3.server.ts";
import { OWN_VIDEO_PATH } from "./schema.ts";

const PREFIX = "videos";
/** What a stored video may be served as; anything else is a download (application/octet-stream). */
const PLAYABLE = new Set(["video/webm", "video/mp4", "video/ogg"]);
/** The largest home video file we store (the demo's is about 30 KB). */
const MAX_BYTES = 50 * 1024 * 1024;

/** Stores a video file and answers the path a home video URL may hold. */
export async function storeVideoFile(body: Buffer, contentType: string): Promise<string> {
  const key = newObjectKey(PREFIX);
  await uploadStream({ key, body: Readable.from([body]), contentType, limitBytes: MAX_BYTES });
  return `/media/${key.slice(PREFIX.length + 1)}`;
}

/** `bytes=first-` or `bytes=first-last`; anything else (a suffix, several ranges) is answered whole. */
export function parseByteRange(header: string | null): { first: number; last?: number } | null {
  const match = header?.match(/^bytes=(\d{1,15})-(\d{0,15})$/);
  if (!match) return null;
  const first = Number(match[1]);
  const last = match[2] === "" ? undefined : Number(match[2]);
  return last !== undefined && last < first ? null : { first, last };
}

export type VideoAnswer =
  | { kind: "missing" }
  | { kind: "unsatisfiable"; size: number | undefined }
  | { kind: "video"; body: Readable; type: string; length: number | undefined; contentRange: string | undefined };

/** The stored video `/media/<id>` names, whole or the part `range` asks for. */
export async function openVideoFile(id: string, range: string | null): Promise<VideoAnswer> {
  const match = OWN_VIDEO_PATH.exec(`/media/${id}`);
  if (!match) return { kind: "missing" };
  const part = await openObjectPart(`${PREFIX}/${match[1]}`, parseByteRange(range));
  if (!part.found) return { kind: "missing" };
  if (!part.satisfiable) return { kind: "unsatisfiable", size: part.size };
  const type = part.contentType && PLAYABLE.has(part.contentType) ? part.contentType : "application/octet-stream";
  return { kind: "video", body: part.body, type, length: part.length, contentRange: part.contentRange };
}
