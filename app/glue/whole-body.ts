/**
 * Where a page's bytes ride beside its Response, from app/entry.server.tsx (in the Remix build) to the
 * Express handler (app/glue/remix-express.server.ts, loaded by server.ts): the two are separate copies of
 * the code, so the key is a registered symbol, the same in both.
 */
export const WHOLE_BODY = Symbol.for("gatekeeper.wholeBody");

/**
 * A Response whose bytes ride beside it, for the one sender that sends pages (remix-express.server.ts,
 * which every page goes through: server.ts hands it all of Remix's requests). Its own body is empty: a
 * Response made with a body builds a web stream around it (about 0.08 ms a page here, docs/performance-log.md)
 * that nothing would ever read. Whatever sends it must send `wholeBodyOf(response)`.
 */
export function responseOfWholeBody(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
  const response = new Response(null, init);
  Object.defineProperty(response, WHOLE_BODY, { value: bytes });
  return response;
}

/** The bytes `responseOfWholeBody` put beside this answer, if it made it. */
export function wholeBodyOf(response: Response): Uint8Array | null {
  const bytes = (response as unknown as Record<symbol, unknown>)[WHOLE_BODY];
  return bytes instanceof Uint8Array ? bytes : null;
}
