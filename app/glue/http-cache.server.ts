/**
 * Conditional GET (RFC 9110): does the client's If-None-Match already name this ETag? It uses the
 * weak comparison: W/"x" matches "x"; * matches anything.
 */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}
