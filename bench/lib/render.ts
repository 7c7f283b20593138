/**
 * A page as a browser loads it: headless Chromium (scripts/lib/chromium.ts) navigates with a fresh cache
 * and a session cookie, and reports when the page's rows were in the DOM, DOMContentLoaded, load and the
 * largest contentful paint (ms from the navigation's start), and the bytes over the wire (as Chromium sent
 * Accept-Encoding: gzip, deflate, br), the document's and everything fetched until load.
 */
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../../scripts/lib/chromium.ts";

export interface RenderSample {
  /** When the last of the page's rows (`rowSelector`) appeared in the DOM. */
  rowsMs: number;
  rows: number;
  domContentLoadedMs: number;
  loadMs: number;
  lcpMs: number | null;
  documentBytes: number;
  totalBytes: number;
  requests: number;
}

export async function measureRender(options: { url: string; cookie: string; rowSelector: string; navigations: number; screenshot?: string }): Promise<RenderSample[]> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  const samples: RenderSample[] = [];
  try {
    for (let navigation = 0; navigation < options.navigations; navigation++) {
      // The session as a header: its production name (`__Host-`) is refused over plain http as a cookie.
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { Cookie: options.cookie } });
      // Watches the rows arrive while the HTML streams in (the observer is in place before the document).
      await context.addInitScript((selector: string) => {
        const seen = { at: 0, rows: 0, lcp: 0 };
        (window as unknown as { __render: typeof seen }).__render = seen;
        new MutationObserver(() => {
          const rows = document.querySelectorAll(selector).length;
          if (rows > seen.rows) Object.assign(seen, { rows, at: performance.now() });
        }).observe(document, { childList: true, subtree: true });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) seen.lcp = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }, options.rowSelector);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      const bytes = new Map<string, number>();
      let documentId: string | null = null;
      cdp.on("Network.requestWillBeSent", (event) => {
        if (event.type === "Document" && documentId === null) documentId = event.requestId;
      });
      cdp.on("Network.loadingFinished", (event) => bytes.set(event.requestId, event.encodedDataLength));
      // Generous: the whole 10,000-team board (main before this change) took longer than 30 s on a busy machine.
      await page.goto(options.url, { waitUntil: "load", timeout: 180_000 });
      // LCP settles on the next frame after load.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
      const timing = await page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const seen = (window as unknown as { __render: { at: number; rows: number; lcp: number } }).__render;
        return { rowsMs: seen.at, rows: seen.rows, lcpMs: seen.lcp || null, domContentLoadedMs: nav.domContentLoadedEventEnd, loadMs: nav.loadEventEnd };
      });
      if (options.screenshot && navigation === 0) await page.screenshot({ path: options.screenshot });
      samples.push({
        ...timing,
        documentBytes: documentId === null ? 0 : (bytes.get(documentId) ?? 0),
        totalBytes: [...bytes.values()].reduce((sum, value) => sum + value, 0),
        requests: bytes.size,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return samples;
}
