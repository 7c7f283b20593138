import { randomUUID } from "node:crypto";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { getEnv } from "./env.server.ts";
import { getLogger } from "./logger.server.ts";

const globalForS3 = globalThis as typeof globalThis & { __gatekeeperS3?: S3Client; __gatekeeperS3Public?: S3Client };

function createS3Client(endpoint: string): S3Client {
  // The SDK is pinned (package.json): its notice about future releases needing Node 22 is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const env = getEnv();
  return new S3Client({
    endpoint,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    // With the default checksum mode a streamed PutObject stores the SDK's chunk framing inside
    // the object on s3rver. MinIO and AWS accept this mode too.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

export function getS3(): S3Client {
  globalForS3.__gatekeeperS3 ??= createS3Client(getEnv().S3_ENDPOINT);
  return globalForS3.__gatekeeperS3;
}

/** Signs URLs for browsers: S3_PUBLIC_ENDPOINT when the server reaches storage by another name. */
function getPublicS3(): S3Client {
  const publicEndpoint = getEnv().S3_PUBLIC_ENDPOINT;
  if (!publicEndpoint) return getS3();
  globalForS3.__gatekeeperS3Public ??= createS3Client(publicEndpoint);
  return globalForS3.__gatekeeperS3Public;
}

/** Thrown when a streamed body passes its byte limit; the partial upload has been aborted. */
export class UploadTooLargeError extends Error {
  constructor(public readonly limitBytes: number) {
    super(`upload exceeds ${limitBytes} bytes`);
  }
}

/**
 * Storage did not take the file (down, unreachable, refusing): nothing is stored, and the user is told to try
 * again. The cause stays attached for the log.
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super("file storage is unavailable", { cause });
  }
}

/** Counts bytes as they pass and fails the stream as soon as the limit is crossed. */
class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly limitBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.limitBytes) callback(new UploadTooLargeError(this.limitBytes));
    else callback(null, chunk);
  }
}

/** Object keys are ours, never the client's filename: `<prefix>/<uuid>`. */
export function newObjectKey(prefix: string): string {
  return `${prefix}/${randomUUID()}`;
}

export interface StoredObject {
  key: string;
  size: number;
}

/**
 * Streams a body to S3 in 5 MiB parts (at most two in flight), so memory stays flat whatever the
 * size. Past `limitBytes` the upload is aborted and nothing is left in the bucket.
 */
export async function uploadStream(options: {
  key: string;
  body: Readable | AsyncIterable<Uint8Array>;
  contentType?: string;
  limitBytes: number;
  metadata?: Record<string, string>;
}): Promise<StoredObject> {
  const limit = new ByteLimit(options.limitBytes);
  const source = options.body instanceof Readable ? options.body : Readable.from(options.body);
  const upload = new Upload({
    client: getS3(),
    queueSize: 2,
    partSize: 5 * 1024 * 1024,
    leavePartsOnError: false,
    params: {
      Bucket: getEnv().S3_BUCKET,
      Key: options.key,
      Body: limit,
      ContentType: options.contentType || "application/octet-stream",
      Metadata: options.metadata,
    },
  });
  const feeding = pipeline(source, limit).catch(async (error: unknown) => {
    await upload.abort().catch(() => {});
    throw error;
  });
  // A failed upload stops reading the body: end the pipeline too, or it would wait for a reader forever.
  const storing = upload.done().catch((error: unknown) => {
    limit.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  });
  // Both sides settle before we decide what went wrong: when storage dies, the body's pipeline often fails
  // first (its stream is torn down), and that must still read as "storage unavailable", not a bad body.
  const [stored, fed] = await Promise.allSettled([storing, feeding]);
  if (stored.status === "fulfilled" && fed.status === "fulfilled") return { key: options.key, size: limit.bytes };
  await upload.abort().catch(() => {});
  // A small body may already be stored in one PutObject before the limit error lands. If storage is
  // down this delete fails too; the object was never completed, so there is nothing to list.
  await deleteObject(options.key).catch(() => {});
  if (limit.bytes > options.limitBytes) throw new UploadTooLargeError(options.limitBytes);
  // Storage did not complete the upload and the limit was not passed: the user can try again. (If the
  // browser went away instead, the upload failed too, but then nobody reads the answer.) Which side broke
  // first cannot be told from the streams: when storage fails, the body's pipeline is torn down as well.
  if (stored.status === "rejected") {
    getLogger().warn({ err: stored.reason, key: options.key }, "upload did not complete");
    throw new StorageUnavailableError(stored.reason);
  }
  // Only the body failed (stored fulfilled): e.g. a client that stopped after the upload had completed.
  throw (fed as PromiseRejectedResult).reason;
}

/**
 * A short-lived URL that downloads the object with the given `Content-Disposition` (the caller names the file:
 * app/modules/file-names.ts).
 */
export async function presignDownload(key: string, contentDisposition: string, expiresInSeconds = 60): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: getEnv().S3_BUCKET,
    Key: key,
    ResponseContentDisposition: contentDisposition,
    ResponseContentType: "application/octet-stream",
  });
  return getSignedUrl(getPublicS3(), command, { expiresIn: expiresInSeconds });
}

/** The first `bytes` bytes of an object (fewer if it is shorter), read with one ranged GET. */
export async function readObjectStart(key: string, bytes: number): Promise<Uint8Array> {
  const object = await getS3().send(new GetObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key, Range: `bytes=0-${bytes - 1}` }));
  if (!object.Body) return new Uint8Array();
  const read = await object.Body.transformToByteArray();
  // A server that ignores Range sends it all: keep what was asked for.
  return read.length > bytes ? read.subarray(0, bytes) : read;
}

/** An object's body as a stream, with its length: for answers the server itself sends. */
export async function openObject(key: string): Promise<{ body: Readable; length: number | undefined }> {
  const object = await getS3().send(new GetObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key }));
  if (!(object.Body instanceof Readable)) throw new Error("object body is not a Node stream");
  return { body: object.Body, length: object.ContentLength };
}

export type ObjectPart =
  | { found: false }
  /** The range starts past the end of the object (HTTP 416); `size` is the object's. */
  | { found: true; satisfiable: false; size: number | undefined }
  | {
      found: true;
      satisfiable: true;
      body: Readable;
      length: number | undefined;
      /** Set when a range was answered (HTTP 206): `bytes first-last/size`. */
      contentRange: string | undefined;
      contentType: string | undefined;
    };

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * An object's body, or the part of it an HTTP `Range` names (`bytes=first-` or `bytes=first-last`, the
 * forms a media player asks for), for answers the server itself streams (a video seeks with them).
 */
export async function openObjectPart(key: string, range: { first: number; last?: number } | null): Promise<ObjectPart> {
  const Range = range ? `bytes=${range.first}-${range.last ?? ""}` : undefined;
  try {
    const object = await getS3().send(new GetObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key, Range }));
    if (!(object.Body instanceof Readable)) throw new Error("object body is not a Node stream");
    return {
      found: true,
      satisfiable: true,
      body: object.Body,
      length: object.ContentLength,
      contentRange: range ? object.ContentRange : undefined,
      contentType: object.ContentType,
    };
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return { found: false };
    if (status !== 416) throw error;
    const head = await getS3().send(new HeadObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key }));
    return { found: true, satisfiable: false, size: head.ContentLength };
  }
}

export async function deleteObject(key: string): Promise<void> {
  await getS3().send(new DeleteObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key }));
}

export async function objectExists(key: string): Promise<boolean> {
  try {
    await getS3().send(new HeadObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: key }));
    return true;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

/** Readiness: the bucket answers. */
export async function pingStorage(): Promise<void> {
  await getS3().send(new HeadBucketCommand({ Bucket: getEnv().S3_BUCKET }));
}

export function closeS3() {
  globalForS3.__gatekeeperS3?.destroy();
  globalForS3.__gatekeeperS3Public?.destroy();
  globalForS3.__gatekeeperS3 = undefined;
  globalForS3.__gatekeeperS3Public = undefined;
}
