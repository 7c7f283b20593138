/**
 * Server rendering: Remix's default Node entry plus the CSP nonce (server.ts makes one per request and
 * hands it over in the load context) and quieter error logs.
 */
import type { Writable } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getLogger } from "~/infrastructure/logger.server";
import { messages } from "~/modules/messages";
import { NonceProvider } from "~/hooks/nonce";
import { responseOfWholeBody } from "~/glue/whole-body";

/**
 * No page defers data: by the time React renders, every loader's data is in hand, so a render cannot wait
 * on anything and always finishes. Remix's usual 5 s abort then only ever fired when the process itself had
 * been stalled (2 cores shared by everything at a peak, a long GC): the timer's phase runs before React's
 * queued work, so a render that was about to finish was thrown away and the user got a 500 (the soak saw
 * it, docs/RELIABILITY.md "Soak"). A render now stops when the client has gone, and only a render still
 * unfinished after RENDER_SAFETY_MS (a deferred promise that never settles, should one be added) is cut,
 * answering 503 (briefly unavailable).
 */
const RENDER_SAFETY_MS = 30_000;
/** Remix's own timer on the data it streams (the page's handoff, `.data` answers): the same bound, not its 4,950 ms. */
export const streamTimeout = RENDER_SAFETY_MS;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // No page defers data (every loader's data is in hand before the render), so every page is rendered
  // whole and sent as one body: one write to the socket instead of one per chunk React makes, which cost
  // about a tenth of a busy web process's CPU (docs/PERFORMANCE.md, "Pages").
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let cutBySafety = false;
    // React's destination: it only calls write, end, on and (after a fatal shell error) destroy. A node
    // Writable here cost more than the render's chunks are worth (its write path, then its "close" event,
    // which React's pipe takes for a client gone and answers with a second end(): an error object and its
    // stack on every page), so the sink is the four methods React uses and nothing else.
    const chunks: Uint8Array[] = [];
    let ended = false;
    const sink = {
      write(chunk: Uint8Array) {
        chunks.push(chunk);
        return true;
      },
      end() {
        if (ended) return;
        ended = true;
        clearTimeout(safetyTimer);
        request.signal.removeEventListener("abort", onClientGone);
        responseHeaders.set("Content-Type", "text/html");
        // The bytes ride beside the body too: the Express handler sends them with one end() (app/glue/whole-body.ts).
        resolve(responseOfWholeBody(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
      },
      on() {
        return sink;
      },
      destroy() {
        ended = true;
      },
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={RENDER_SAFETY_MS} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(sink as unknown as Writable);
        },
        onShellError(error: unknown) {
          clearTimeout(safetyTimer);
          request.signal.removeEventListener("abort", onClientGone);
          if (cutBySafety) resolve(new Response(messages.errors.unavailable, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5" } }));
          else reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = cutBySafety ? 503 : 500;
          // Errors in the shell reject above and are logged by Remix's handleError; a client that left is not a fault.
          if (shellRendered && !request.signal.aborted) getLogger().error({ err: error }, "render failed");
        },
      },
    );
    const onClientGone = () => abort();
    // A client that left before the render began: nothing to render for.
    if (request.signal.aborted) abort();
    else request.signal.addEventListener("abort", onClientGone, { once: true });
    const safetyTimer = setTimeout(() => {
      cutBySafety = true;
      abort();
    }, RENDER_SAFETY_MS);
  });
}

/**
 * Thrown responses (a 403 page, a 404, a redirect) are answers, not faults; an aborted request is the
 * browser leaving. Everything else is logged once, as JSON, without the request body.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted || isRouteErrorResponse(error) || error instanceof Response) return;
  getLogger().error({ err: error, method: request.method, url: new URL(request.url).pathname }, "request failed");
}
