/**
 * The server's clock in the browser: how far this browser's `Date.now()` is from the server's, from the
 * `serverNow` a loader sends (docs/domain.md "Gates": server time decides; the page only follows it).
 *
 * The loader reads its clock while the request is in flight, so the best guess of the browser's time
 * at that moment is the middle of the exchange: halfway between sending the request and the first byte
 * of the answer (as NTP does), right to within half that span. Resource Timing gives both moments on
 * the monotonic clock; they are turned into this browser's Date clock through the current difference
 * of the two, so a browser whose Date is off (or overridden) stays consistent with itself.
 *
 * Which exchange: the newest of the document's (the navigation entry, when the document was this path)
 * and this path's `.data` reads (Remix's single fetch: a client-side navigation or a revalidation). An
 * entry that ended more than FRESH_MS ago is taken for another visit's (the browser's timing buffer may
 * be full) and not used. Without a usable entry, the moment the page uses the data stands in for the
 * answer's arrival: later than the truth, so the page follows the server a little late, never early.
 */

const FRESH_MS = 10_000;

function dataPathOf(pathname: string): string {
  const trimmed = pathname.replace(/\/$/, "");
  return `${trimmed || "/_root"}.data`;
}

function exchangeMidpoint(): number | null {
  if (typeof performance === "undefined" || typeof performance.getEntriesByType !== "function") return null;
  const path = window.location.pathname;
  const pathOf = (entry: PerformanceEntry) => new URL(entry.name, window.location.href).pathname;
  const candidates = [
    ...(performance.getEntriesByType("navigation") as PerformanceResourceTiming[]).filter((entry) => pathOf(entry) === path),
    ...(performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) => pathOf(entry) === dataPathOf(path)),
  ];
  const newest = candidates.reduce<PerformanceResourceTiming | null>((best, entry) => (!best || entry.startTime > best.startTime ? entry : best), null);
  // Cached or cross-origin answers report zeros.
  if (!newest || !(newest.requestStart > 0) || !(newest.responseStart >= newest.requestStart)) return null;
  if (performance.now() - newest.responseEnd > FRESH_MS) return null;
  const midpoint = (newest.requestStart + newest.responseStart) / 2;
  const at = Date.now() - (performance.now() - midpoint);
  // A faked performance clock (a test's) can make it meaningless: then it is not used.
  return Number.isFinite(at) && at <= Date.now() ? at : null;
}

/**
 * Milliseconds to add to this browser's `Date.now()` to read the server's clock, given the `serverNow`
 * (ISO string) of the data on screen. Call it once the data is rendered (in an effect).
 */
export function serverClockOffset(serverNow: string): number {
  const offset = Date.parse(serverNow) - (exchangeMidpoint() ?? Date.now());
  return Number.isFinite(offset) ? offset : 0;
}
