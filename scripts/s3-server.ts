/**
 * Local S3 for dev and tests: s3rver on 127.0.0.1:54569 (moved by GATEKEEPER_PORT_OFFSET), data in .local/s3/data,
 * bucket S3_BUCKET.
 * Started in the background by `npm run services:start`; can also run in the foreground for debugging.
 * S3_SERVER_PORT and S3_SERVER_DATA_DIR move it elsewhere: a fault drill runs (and kills) one of its own.
 */
import S3rver from "s3rver";
import { DEFAULT_S3_BUCKET, LOCAL_HOST, S3_DATA_DIR, S3_PORT } from "./lib/local-services.ts";
import { abortMultipartUploads, sweepStaleUploads } from "./lib/s3-uploads.ts";

/** Incomplete multipart uploads older than this are removed (MinIO's default; a lifecycle rule on AWS). */
const STALE_UPLOAD_MS = 24 * 3_600_000;

/** Keep-alive sockets can hold close() open; a stop must not hang on them. */
const FORCED_EXIT_MS = 3000;

const bucket = process.env.S3_BUCKET || DEFAULT_S3_BUCKET;
const port = process.env.S3_SERVER_PORT ? Number(process.env.S3_SERVER_PORT) : S3_PORT;
const directory = process.env.S3_SERVER_DATA_DIR || S3_DATA_DIR;
const server = new S3rver({
  address: LOCAL_HOST,
  port,
  directory,
  // Per-request logging would grow the log file without bound during test runs.
  silent: true,
  configureBuckets: [{ name: bucket }],
});

// Before s3rver's own handlers (Koa composes them when the server starts): it has no abort of its own.
(server as unknown as { middleware: unknown[] }).middleware.unshift(abortMultipartUploads(directory));

function shutdown(signal: NodeJS.Signals): void {
  console.log(`${new Date().toISOString()} s3rver: ${signal}, closing`);
  setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
  server.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
}

process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);

const address = await server.run();
const sweep = () =>
  sweepStaleUploads(directory, STALE_UPLOAD_MS).then(
    (removed) => removed && console.log(`${new Date().toISOString()} s3rver: removed ${removed} incomplete upload(s) older than a day`),
    (error: unknown) => console.error(`${new Date().toISOString()} s3rver: sweeping incomplete uploads failed: ${String(error)}`),
  );
void sweep();
setInterval(() => void sweep(), 3_600_000).unref();
console.log(`${new Date().toISOString()} s3rver: listening on ${address.address}:${address.port}, bucket "${bucket}", data in ${directory}`);
