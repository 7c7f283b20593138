import { createHash } from "node:crypto";

/**
 * A JSON answer that clients revalidate (RFC 9110): a strong ETag of the exact bytes, 304 when the
 * client's If-None-Match already names it. Hashing the body costs far less than sending it, and
 * needs no version kept in step with every writer of the data.
 */
export function jsonWithEtag(request: Request, value: unknown, headers: Record<string, string>): Response {
  const body = JSON.stringify(value);
  const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
  const all = { ...headers, ETag: etag };
  if (matchesIfNoneMatch(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers: all });
  return new Response(body, { headers: { ...all, "Content-Type": "application/json; charset=utf-8" } });
}

/** If-None-Match uses the weak comparison: W/"x" matches "x"; * matches anything. */
function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}
