/**
 * Server rendering: Remix's default Node entry plus the CSP nonce (server.ts makes one per request and
 * hands it over in the load context) and quieter error logs.
 */
import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
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
  // Crawlers get the whole page at once; browsers get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const onReady = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady: waitForAll ? undefined : onReady,
        onAllReady: waitForAll ? onReady : undefined,
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject above and are logged by Remix's handleError.
          if (shellRendered) getLogger().error({ err: error }, "streaming render failed");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
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
