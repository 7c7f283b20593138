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
import { MarkupCacheProvider } from "~/hooks/markup-cache";
import { createMarkupCache } from "~/hooks/markup-cache.server";
import { responseOfWholeBody } from "~/glue/whole-body";

/**
 * No page defers data: by the time React renders, every loader's data is in hand, so a render cannot wait
 * on anything and always finishes. Remix's usual 5 s abort then only ever fired when the process itself had
 * been stalled (2 cores shared by everything at a peak, a long GC): the timer's phase runs before React's
 * queued work, so a render that was about to finish was thrown away and the user got a 500 (the soak saw
 * it, docs/reliability-log.md, "What held the web processes' heap, and the 500s"). A render now stops when
 * the client has gone, and only a render still unfinished after RENDER_SAFETY_MS (a deferred promise that
 * never settles, should one be added) is cut, answering 503 (briefly unavailable).
 */
const RENDER_SAFETY_MS = 30_000;
/**
 * Markup that is the same for every viewer, rendered once by its content (app/hooks/markup-cache.ts): the
 * board's rows. About 0.8 KB a piece with its key (1.6–2.3 KB with an Arabic name, up to about 4 KB for a
 * 200-character name mixing scripts), at most 2 × 2,500 pieces: typically 4–10 MB, 20 MB at worst. In every
 * environment, so tests and development render as production does; `npm run dev` loads each rebuild as a
 * new module (server.ts), and with it a new, empty cache, so an edited component never keeps its old markup.
 */
const markupCache = createMarkupCache(2_500);

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
  // about a tenth of a busy web process's CPU (docs/performance-log.md, "The afternoon's figures", 24 Nov 2026).
  return new Promise<Response>((resolvePage, rejectPage) => {
    let shellRendered = false;
    let cutBySafety = false;
    // Every way out settles the page once, stops the safety timer and forgets the client's abort.
    let settled = false;
    const settle = (answer: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(safetyTimer);
      request.signal.removeEventListener("abort", onClientGone);
      answer();
    };
    const unavailable = () => new Response(messages.errors.unavailable, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5" } });
    // React's destination: it calls write, end, on, and destroy (a fatal error after the shell). A node
    // Writable here cost more than the render's chunks are worth: its write path, then its "close" event,
    // which React's pipe takes for a client gone and answers by aborting the finished render, whose second
    // end() made an ERR_STREAM_ALREADY_FINISHED error, with its stack, on every page. (pipe() itself still
    // makes two Error objects per page, its messages for a destination that fails.)
    const chunks: Uint8Array[] = [];
    const sink = {
      write(chunk: Uint8Array) {
        chunks.push(chunk);
        return true;
      },
      end() {
        settle(() => {
          responseHeaders.set("Content-Type", "text/html");
          // The bytes ride beside the body too: the Express handler sends them with one end() (app/glue/whole-body.ts).
          resolvePage(responseOfWholeBody(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        });
      },
      on() {
        return sink;
      },
      destroy(error?: unknown) {
        settle(() => rejectPage(error ?? new Error("the page's render failed")));
      },
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <MarkupCacheProvider value={markupCache}>
          <RemixServer context={remixContext} url={request.url} abortDelay={RENDER_SAFETY_MS} nonce={nonce} />
        </MarkupCacheProvider>
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
          settle(() => (cutBySafety ? resolvePage(unavailable()) : rejectPage(error)));
        },
        onError(error: unknown) {
          responseStatusCode = cutBySafety ? 503 : 500;
          // Errors in the shell reject above and are logged by Remix's handleError; a client that left is not a fault.
          if (shellRendered && !request.signal.aborted) getLogger().error({ err: error }, "render failed");
        },
      },
    );
    const safetyTimer = setTimeout(() => {
      cutBySafety = true;
      abort();
      // Whatever the abort did not end (a fatal error after the shell calls none of the above) ends here.
      settle(() => resolvePage(unavailable()));
    }, RENDER_SAFETY_MS);
    const onClientGone = () => {
      abort();
      settle(() => rejectPage(new Error("the client left before its page was rendered")));
    };
    // A client that left before the render began: nothing to render for.
    if (request.signal.aborted) onClientGone();
    else request.signal.addEventListener("abort", onClientGone, { once: true });
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
