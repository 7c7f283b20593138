import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { MarkupCache } from "./markup-cache";

/**
 * The server's markup cache (app/hooks/markup-cache.ts). Content-addressed, so it is never stale and never
 * needs invalidating: a team renamed or scored, or moved to another rank, gets a new key. Bounded by two
 * generations of at most `max` pieces each: when the young one is full it becomes the old one, and the
 * pieces nobody asked for since are dropped with the old one (a piece asked for from the old generation is
 * put in the young one again). A piece found in the young generation costs one map read.
 *
 * Why a piece must be pure (no hook, no `useId`, no context). `renderToString` runs inside the page's own
 * render, and in React 18.3.1 it is another build of the server renderer (`react-dom/server`'s legacy
 * build) than the page's streaming one: its own module state, its own hooks and id counter, and context
 * read from the second renderer's slot (`_currentValue2`). So a piece cannot change the page's render, but
 * it cannot see the page's providers either (a context read inside it gets the default: a `useT()` there
 * would render English for everyone), and its `useId` ids restart at every piece while the browser's do
 * not. The legacy build saves and restores the dispatcher it swaps. Re-check this on a React upgrade.
 */
export function createMarkupCache(max: number): MarkupCache & { readonly size: number } {
  let young = new Map<string, string>();
  let old = new Map<string, string>();
  const keep = (key: string, html: string) => {
    if (young.size >= max) {
      old = young;
      young = new Map();
    }
    young.set(key, html);
  };
  return {
    markup(key: string, element: () => ReactElement): string {
      const kept = young.get(key);
      if (kept !== undefined) return kept;
      const older = old.get(key);
      if (older !== undefined) {
        keep(key, older);
        return older;
      }
      // React's renderToString returns a string of many small joined parts; a piece joins every page that
      // shows it, and encoding such a page to UTF-8 then walks all of those parts again, each time (it
      // measured 3.5 times the encoding's cost for /scoreboard). A flat copy is walked once.
      const html = Buffer.from(renderToString(element()), "utf8").toString("utf8");
      keep(key, html);
      return html;
    },
    get size() {
      return young.size + old.size;
    },
  };
}
