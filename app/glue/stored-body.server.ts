/**
 * An answer whose body streams from storage (a video, a submission's file shown inline or downloaded
 * blind). Two rules every such answer keeps, so that no client can hold on to the process's storage
 * connections (the S3 client has a fixed pool of them):
 *
 * - A HEAD gets the headers only, and the storage stream is destroyed at once: Remix drops a HEAD's body
 *   without reading or cancelling it, and an unread S3 response keeps its connection for good.
 * - A client that leaves mid-answer ends the storage stream too (the request's abort signal).
 */
import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Readable } from "node:stream";

export function storedBodyResponse(request: Request, body: Readable, init: ResponseInit): Response {
  if (request.method === "HEAD") {
    body.destroy();
    return new Response(null, init);
  }
  const stop = () => body.destroy();
  if (request.signal.aborted) stop();
  else request.signal.addEventListener("abort", stop, { once: true });
  body.once("close", () => request.signal.removeEventListener("abort", stop));
  return new Response(createReadableStreamFromReadable(body), init);
}
