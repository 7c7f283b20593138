/** A project-local s3rver (see scripts/s3-server.ts), run as a detached Node process. */
import fs from "node:fs";
import path from "node:path";
import { CreateBucketCommand, HeadBucketCommand, ListBucketsCommand, PutBucketLifecycleConfigurationCommand, S3Client } from "@aws-sdk/client-s3";
import {
  DEFAULT_S3_ACCESS_KEY_ID,
  DEFAULT_S3_BUCKET,
  DEFAULT_S3_ENDPOINT,
  DEFAULT_S3_REGION,
  DEFAULT_S3_SECRET_ACCESS_KEY,
  LOCAL_DIR,
  LOCAL_HOST,
  REPO_ROOT,
  S3_DATA_DIR,
  S3_PORT,
} from "./local-services.ts";
import {
  errorMessage,
  isPidAlive,
  isPortOpen,
  launchDetachedNode,
  ourPidFrom,
  retryUntil,
  sleep,
  tailFile,
  waitUntil,
} from "./process.ts";
import { EXTERNAL_WAIT_MS, ServiceError, type LocalService, type StartResult, type StatusResult } from "./service.ts";

const S3_DIR = path.join(LOCAL_DIR, "s3");
const PID_FILE = path.join(S3_DIR, "s3.pid");
const LOG_FILE = path.join(S3_DIR, "s3.log");
const SERVER_SCRIPT = path.join(REPO_ROOT, "scripts", "s3-server.ts");
/** Marks the process as ours when checking a pid from the pid file. */
const PROCESS_MARKER = "s3-server.ts";
const READY_TIMEOUT_MS = 20_000;

interface S3Settings {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const localSettings: S3Settings = {
  endpoint: DEFAULT_S3_ENDPOINT,
  region: DEFAULT_S3_REGION,
  accessKeyId: DEFAULT_S3_ACCESS_KEY_ID,
  secretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY,
};

function bucketName(): string {
  return process.env.S3_BUCKET || DEFAULT_S3_BUCKET;
}

function createClient(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: true,
    // The SDK's default checksums make s3rver store chunk framing inside streamed objects.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // One attempt per probe: our own retry loop owns the timing.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
  });
}

function httpStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** HEAD responses carry no error body, so the SDK's own message is often just "UnknownError". */
function describeS3Error(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === 403) return "access denied (HTTP 403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY";
  if (status !== undefined) return `HTTP ${status}: ${errorMessage(error)}`;
  return errorMessage(error);
}

/** Only network-level failures mean "not up yet"; an HTTP answer such as 403 will not change by waiting. */
const isNetworkError = (error: unknown) => httpStatusOf(error) === undefined;

async function bucketExists(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (error) {
    if (httpStatusOf(error) === 404) return false;
    throw error;
  }
}

/**
 * The bucket's lifecycle rule: a multipart upload neither completed nor aborted a day after it began
 * (a web process killed mid-upload) is aborted by the storage, its parts deleted. Set on the buckets
 * this project creates; docs/deployment.md says how to set it on others. The embedded S3 (s3rver) has
 * no lifecycle: it sweeps its own (scripts/lib/s3-uploads.ts).
 */
export async function abortIncompleteUploadsAfterADay(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: bucket,
        LifecycleConfiguration: {
          Rules: [{ ID: "abort-incomplete-uploads", Status: "Enabled", Filter: { Prefix: "" }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
        },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== "NotImplemented") throw error;
  }
}

/** Waits until the endpoint answers, then creates the bucket if it is missing (with its lifecycle rule). */
async function ensureBucket(settings: S3Settings, bucket: string, timeoutMs: number, logFile?: string): Promise<void> {
  const client = createClient(settings);
  try {
    const exists = await retryUntil(() => bucketExists(client, bucket), timeoutMs, 250, isNetworkError);
    if (!exists) {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      await abortIncompleteUploadsAfterADay(client, bucket);
    }
  } catch (error) {
    const logLines = logFile ? tailFile(logFile) : [];
    throw new ServiceError("s3", `bucket "${bucket}" at ${settings.endpoint}: ${describeS3Error(error)}`, logLines, logFile);
  } finally {
    client.destroy();
  }
}

/** The pid from our pid file, if that process is still our s3rver; a stale file is removed. */
const ourPid = () => ourPidFrom(PID_FILE, PROCESS_MARKER);

function failStart(message: string): never {
  throw new ServiceError("s3", message, tailFile(LOG_FILE), LOG_FILE);
}

/** Spawns s3-server.ts detached so it outlives this command; its output goes to the log file. */
function launch(): { pid: number; hasExited: () => boolean } {
  fs.mkdirSync(S3_DATA_DIR, { recursive: true });
  return launchDetachedNode(SERVER_SCRIPT, REPO_ROOT, LOG_FILE, PID_FILE) ?? failStart("could not spawn node for scripts/s3-server.ts");
}

/** A real S3 call, not just an open port: s3rver listens only after its buckets are configured. */
async function waitForLocalS3(hasExited: () => boolean): Promise<void> {
  const client = createClient(localSettings);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (hasExited()) failStart("s3rver exited during startup");
      try {
        await client.send(new ListBucketsCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline) failStart(`s3rver not reachable at ${DEFAULT_S3_ENDPOINT}: ${errorMessage(error)}`);
        await sleep(250);
      }
    }
  } finally {
    client.destroy();
  }
}

async function start(): Promise<StartResult> {
  const alreadyRunning = ourPid() !== null;
  if (alreadyRunning) {
    await waitForLocalS3(() => false);
  } else if (await isPortOpen(LOCAL_HOST, S3_PORT)) {
    // Another checkout's s3rver serves the same endpoint and keys: use it rather than fail.
    try {
      await ensureBucket(localSettings, bucketName(), 3000);
    } catch {
      throw new ServiceError("s3", `port ${S3_PORT} is in use by another process; free it or set S3_ENDPOINT`);
    }
    const note = `an S3 server not started from this checkout already answers on port ${S3_PORT}: using it`;
    return { state: "running", url: DEFAULT_S3_ENDPOINT, notes: [note] };
  } else {
    await waitForLocalS3(launch().hasExited);
  }
  // s3-server.ts creates S3_BUCKET itself; this covers a bucket renamed while the server kept running.
  await ensureBucket(localSettings, bucketName(), READY_TIMEOUT_MS, LOG_FILE);
  return { state: alreadyRunning ? "running" : "started", url: DEFAULT_S3_ENDPOINT };
}

async function stop(): Promise<boolean> {
  const pid = ourPid();
  if (pid === null) return false;
  process.kill(pid, "SIGTERM");
  if (!(await waitUntil(() => !isPidAlive(pid), 10_000))) {
    throw new ServiceError("s3", `pid ${pid} did not exit after SIGTERM`, tailFile(LOG_FILE), LOG_FILE);
  }
  fs.rmSync(PID_FILE, { force: true });
  return true;
}

async function status(): Promise<StatusResult> {
  if (ourPid() !== null) return { state: "running", url: DEFAULT_S3_ENDPOINT };
  const notes = (await isPortOpen(LOCAL_HOST, S3_PORT)) ? [`port ${S3_PORT} is in use by another process`] : [];
  return { state: "stopped", url: DEFAULT_S3_ENDPOINT, notes };
}

function externalSettings(endpoint: string): S3Settings {
  return {
    endpoint,
    region: process.env.S3_REGION || DEFAULT_S3_REGION,
    accessKeyId: process.env.S3_ACCESS_KEY_ID || DEFAULT_S3_ACCESS_KEY_ID,
    secretAccessKey: process.env.S3_SECRET_ACCESS_KEY || DEFAULT_S3_SECRET_ACCESS_KEY,
  };
}

export const s3Service: LocalService = {
  name: "s3",
  envVar: "S3_ENDPOINT",
  localUrl: DEFAULT_S3_ENDPOINT,
  start,
  prepareExternal: (endpoint) => ensureBucket(externalSettings(endpoint), bucketName(), EXTERNAL_WAIT_MS),
  stop,
  status,
};
