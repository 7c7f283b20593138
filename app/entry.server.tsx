/**
 * Server rendering: Remix's default Node entry plus the CSP nonce (server.ts makes one per request and
 * hands it over in the load context) and quieter error logs.
 */
import { Writable } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getLogger } from "~/infrastructure/logger.server";
import { NonceProvider } from "~/hooks/nonce";

const ABORT_DELAY = 5_000;

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
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(abortTimer);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject above and are logged by Remix's handleError.
          if (shellRendered) getLogger().error({ err: error }, "render failed");
        },
      },
    );
    const abortTimer = setTimeout(abort, ABORT_DELAY);
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
