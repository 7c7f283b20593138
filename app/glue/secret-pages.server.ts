/**
 * Pages that show a secret once (a new API token, the passwords of accounts just made): no cache, the
 * browser's own included, may keep them (docs/RELIABILITY.md, "Web security"). Remix sends a page's
 * document and its `.data` answer with the headers its route's `headers` export gives, never a loader's or
 * an action's own (only their cookies), so such a route exports `headers = secretPageHeaders` and its
 * action answers with `SECRET_PAGE_HEADERS` as well (for a caller that reads the action's answer directly).
 */
import type { HeadersFunction } from "@remix-run/node";

export const SECRET_PAGE_HEADERS = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

/** The route's `headers` export: the page and its `.data` answer, for a GET and a POST alike. */
export const secretPageHeaders: HeadersFunction = () => ({ ...SECRET_PAGE_HEADERS });

/**
 * A page opened from a mailed link (/set-password?token=…): no cache keeps it, and no request it makes (its
 * styles, a link followed) carries its URL in a Referer. Its form posts with `Origin: null` then, which the
 * cross-site check lets through on this page only (app/glue/csrf.server.ts, TOKEN_FORM_PATHS).
 */
export const LINK_PAGE_HEADERS = { ...SECRET_PAGE_HEADERS, "Referrer-Policy": "no-referrer" } as const;
