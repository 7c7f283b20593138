/**
 * What the soak reads beside each process's /metrics (docs/RELIABILITY.md "Soak"):
 *
 * - the V8 heap **after a full GC**, through the Chrome DevTools Protocol of a child started with
 *   `--inspect=127.0.0.1:<port>` (`HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`): no product
 *   code and no endpoint of the app is involved, and the inspector listens on loopback only;
 * - the run's own S3 bucket: its objects and bytes, and the orphans both ways (an object no row points at,
 *   a row pointing at a missing object);
 * - the run's Redis keys without an expiry, by pattern.
 *
 * Node 20 has a WebSocket client behind `--experimental-websocket` (the soak's npm script passes it;
 * Node 22 has it by default).
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { sql } from "drizzle-orm";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { getS3 } from "../../app/infrastructure/s3.server.ts";

// ---------------------------------------------------------------- heap after GC

/** One DevTools session to one process (kept open: each attach prints "Debugger attached." on its stderr). */
class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Called with each event the process sends (a heap snapshot arrives as `HeapProfiler.addHeapSnapshotChunk` events). */
  onEvent: ((method: string, params: unknown) => void) | null = null;
  closed = false;

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
      if (message.method) this.onEvent?.(message.method, message.params);
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
    socket.addEventListener("close", () => {
      this.closed = true;
      for (const waiter of this.pending.values()) waiter.reject(new Error("inspector closed"));
      this.pending.clear();
    });
  }

  static async open(port: number): Promise<InspectorSession> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(3000) })).json()) as Array<{ webSocketDebuggerUrl?: string }>;
    const url = targets.find((target) => target.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on ${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`inspector on ${port} refused the connection`)), { once: true });
    });
    return new InspectorSession(socket);
  }

  send<T>(method: string, timeoutMs = 15_000, params?: object): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close() {
    this.closed = true;
    this.socket.close();
  }
}

const sessions = new Map<string, InspectorSession>();

/**
 * The process's V8 heap used (MB) right after a full collection, or null if its inspector does not answer.
 * `key` names the process instance (its pid): a restarted process gets a new session.
 */
export async function heapAfterGcMb(key: string, port: number): Promise<number | null> {
  try {
    let session = sessions.get(key);
    if (!session || session.closed) {
      session = await InspectorSession.open(port);
      sessions.set(key, session);
    }
    await session.send("HeapProfiler.collectGarbage");
    const usage = await session.send<{ usedSize: number }>("Runtime.getHeapUsage");
    return usage.usedSize / (1024 * 1024);
  } catch {
    return null;
  }
}

/**
 * Writes a V8 heap snapshot of the process to `file` (`--heap-snapshots`: two of them, compared in DevTools'
 * Memory tab or by bench/lib/heap-diff.ts, show what a creeping heap holds). The process pauses while it is
 * taken (seconds for a 70 MB heap), so the soak takes them only when asked, during a checkpoint's pause.
 */
export async function writeHeapSnapshot(key: string, port: number, file: string): Promise<boolean> {
  let out: WriteStream | null = null;
  try {
    let session = sessions.get(key);
    if (!session || session.closed) {
      session = await InspectorSession.open(port);
      sessions.set(key, session);
    }
    const stream = (out = createWriteStream(file));
    session.onEvent = (method, params) => {
      if (method === "HeapProfiler.addHeapSnapshotChunk") stream.write((params as { chunk: string }).chunk);
    };
    await session.send("HeapProfiler.takeHeapSnapshot", 120_000, { reportProgress: false, captureNumericValue: false });
    session.onEvent = null;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return true;
  } catch (error) {
    console.warn(`heap snapshot of ${key} failed: ${String(error)}`);
    out?.destroy();
    return false;
  }
}

/** Detaches from a process before it is stopped: with a debugger attached, node waits for it to go before exiting. */
export function closeInspector(key: string) {
  sessions.get(key)?.close();
  sessions.delete(key);
}

export function closeAllInspectors() {
  for (const key of [...sessions.keys()]) closeInspector(key);
}

// ---------------------------------------------------------------- S3

export async function createBucket(bucket: string) {
  await getS3().send(new CreateBucketCommand({ Bucket: bucket }));
}

interface ListedObject {
  key: string;
  size: number;
}

async function listPage(prefix: string): Promise<{ objects: ListedObject[]; truncated: boolean }> {
  const page = await getS3().send(new ListObjectsV2Command({ Bucket: getEnv().S3_BUCKET, Prefix: prefix || undefined, MaxKeys: 1000 }));
  return { objects: (page.Contents ?? []).map((entry) => ({ key: entry.Key!, size: entry.Size ?? 0 })), truncated: Boolean(page.IsTruncated) };
}

/**
 * Every object of the run's bucket. s3rver cannot page a listing (its continuation token needs DES, which
 * OpenSSL 3 lacks): a listing longer than one page fails outright (InternalError), which stopped a soak at
 * 1,129 objects. So it never asks for more than a page: the folders first (`Delimiter: "/"`), then each
 * folder by the first hex digit of its keys (`<folder>/<uuid>`, app/infrastructure/s3.server.ts).
 */
export async function listBucket(): Promise<ListedObject[]> {
  const top = await getS3().send(new ListObjectsV2Command({ Bucket: getEnv().S3_BUCKET, Delimiter: "/", MaxKeys: 1000 }));
  const atRoot = (top.Contents ?? []).map((entry) => ({ key: entry.Key!, size: entry.Size ?? 0 }));
  const folders = (top.CommonPrefixes ?? []).map((entry) => entry.Prefix!);
  const shards = folders.flatMap((folder) => [..."0123456789abcdef"].map((digit) => `${folder}${digit}`));
  const pages = await Promise.all(shards.map(listPage));
  if (pages.some((page) => page.truncated)) throw new Error("a prefix of the soak's bucket holds more than 1,000 objects: s3rver cannot list it");
  return [...atRoot, ...pages.flatMap((page) => page.objects)];
}

export interface StorageCheck {
  objects: number;
  mb: number;
  /** Objects no row points at. */
  orphanObjects: string[];
  /** Keys rows point at with no object behind them. */
  missingObjects: string[];
}

/** The bucket against the rows that name objects (submissions and their versions, challenge attachments). */
export async function checkStorage(): Promise<StorageCheck> {
  const objects = await listBucket();
  const rows = await getDb().execute<{ key: string }>(sql`
    select file_key as key from submissions where file_key is not null
    union select file_key from submission_versions where file_key is not null
    union select attachment_key from challenges where attachment_key is not null`);
  const referenced = new Set(rows.map((row) => row.key));
  const stored = new Set(objects.map((object) => object.key));
  return {
    objects: objects.length,
    mb: objects.reduce((sum, object) => sum + object.size, 0) / (1024 * 1024),
    orphanObjects: [...stored].filter((key) => !referenced.has(key)).slice(0, 10),
    missingObjects: [...referenced].filter((key) => !stored.has(key)).slice(0, 10),
  };
}

/** Empties and removes the run's bucket (s3rver keeps it on disk otherwise). */
export async function dropBucket() {
  const objects = await listBucket();
  for (let index = 0; index < objects.length; index += 20) {
    await Promise.all(objects.slice(index, index + 20).map((object) => getS3().send(new DeleteObjectCommand({ Bucket: getEnv().S3_BUCKET, Key: object.key }))));
  }
  await getS3().send(new DeleteBucketCommand({ Bucket: getEnv().S3_BUCKET }));
}

// ---------------------------------------------------------------- Redis

/**
 * Key patterns that may live without an expiry, and why each stays bounded: BullMQ's own structures are
 * trimmed by the queues' retention (app/infrastructure/queues.ts: the last 1,000 completed, 5,000 failed
 * jobs), the standings snapshot is a fixed handful of keys, one entry per team each.
 */
export const BOUNDED_WITHOUT_EXPIRY: ReadonlyArray<[pattern: RegExp, why: string]> = [
  [/^bull:/, "BullMQ: trimmed by the queues' retention (count and age)"],
  [/^standings:/, "the standings snapshot: a fixed set of keys, one entry per team"],
];

/** A key's pattern: its segments after the prefix, numbers and uuids folded ("bull:standings:#"). */
export function keyPattern(key: string, prefix: string): string {
  return key
    .slice(prefix.length + 1)
    .split(":")
    .map((part) => (/^\d+$/.test(part) ? "#" : /^[0-9a-f-]{16,}$/i.test(part) ? "<id>" : part))
    .slice(0, 3)
    .join(":");
}

export interface RedisTtlCheck {
  /** Pattern → keys without an expiry. */
  withoutExpiry: Record<string, number>;
  /** Patterns without an expiry that BOUNDED_WITHOUT_EXPIRY does not account for. */
  unbounded: string[];
}

export async function checkRedisExpiries(prefix: string): Promise<RedisTtlCheck> {
  const redis = getRedis();
  const withoutExpiry: Record<string, number> = {};
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (!keys.length) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.pttl(key);
    const ttls = (await pipeline.exec()) ?? [];
    keys.forEach((key, index) => {
      // -1: no expiry; -2: gone since the scan.
      if (ttls[index]?.[1] !== -1) return;
      const pattern = keyPattern(key, prefix);
      withoutExpiry[pattern] = (withoutExpiry[pattern] ?? 0) + 1;
    });
  } while (cursor !== "0");
  const unbounded = Object.keys(withoutExpiry).filter((pattern) => !BOUNDED_WITHOUT_EXPIRY.some(([allowed]) => allowed.test(pattern)));
  return { withoutExpiry, unbounded };
}
