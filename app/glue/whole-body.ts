/**
 * Where a page's bytes ride beside its Response, from app/entry.server.tsx (in the Remix build) to the
 * Express handler (app/glue/remix-express.server.ts, loaded by server.ts): the two are separate copies of
 * the code, so the key is a registered symbol, the same in both.
 */
export const WHOLE_BODY = Symbol.for("gatekeeper.wholeBody");

/** A Response of these bytes, with the bytes themselves beside its body for a sender that can use them. */
export function responseOfWholeBody(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
  const response = new Response(bytes, init);
  Object.defineProperty(response, WHOLE_BODY, { value: bytes });
  return response;
}
