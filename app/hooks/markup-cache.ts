import { createContext, useContext, type ReactElement } from "react";

/**
 * Server-rendered markup kept by its content, for parts of a page that are the same for every viewer and
 * repeated many times (the board's rows: docs/performance-log.md, "The board's rows rendered once").
 * `markup(key, element)` gives the HTML that `element()` renders, rendered once per key. The key must
 * hold everything the element's output depends on, and the element must be pure: it reads its props only
 * (no hook, no `useId`, no context: markup-cache.server.ts says why), so nothing of the viewer can ride
 * along. In the browser, and outside production, there is no cache (null): components render as usual,
 * and hydrate against the same markup.
 */
export interface MarkupCache {
  markup(key: string, element: () => ReactElement): string;
}

const MarkupCacheContext = createContext<MarkupCache | null>(null);

export const MarkupCacheProvider = MarkupCacheContext.Provider;

export function useMarkupCache(): MarkupCache | null {
  return useContext(MarkupCacheContext);
}
