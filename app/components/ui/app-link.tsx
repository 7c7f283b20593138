import { PrefetchPageLinks, useNavigate } from "@remix-run/react";
import { forwardRef, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent, type SyntheticEvent } from "react";

/**
 * A link to a page of this app (`to` is an absolute path: "/gates", "/submition/7?x=1#y"), for the links
 * every participant page renders (the top bar, the gate cards, the action links). It does what Remix's
 * <Link> does for such a path: a real <a href> (without JavaScript it just navigates), a click handled by
 * the router (no document reload; the page already shown is replaced in the history, not pushed),
 * `data-discover` as <Link> renders it (inert while route discovery is off, decision 052), and
 * `prefetch="intent"` (a pointer or focus resting on it for 100 ms loads the page's modules and data). In
 * the page it costs close to what a plain <a> does: with Remix's NavLink the top bar's six links cost
 * 11–13 % of a light page's server CPU (React Router's link hooks resolve the path against the route tree
 * several times per link, and a props spread followed by more props is slow in Node 20's V8:
 * docs/decisions/031-server-render-costs.md).
 * Anything else (a relative path, `state`, `preventScrollReset`) uses Remix's <Link>; an address elsewhere
 * ("https://…") is left to the browser, as <Link> leaves it.
 */
export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  prefetch?: "none" | "intent";
  /** Replace the current history entry (default: only when the link leads to the page already shown). */
  replace?: boolean;
  /** Load the page as a new document (no router). */
  reloadDocument?: boolean;
};

/** A handler that runs the caller's own first, then ours unless the caller's prevented the default. */
function after<E extends SyntheticEvent>(theirs: ((event: E) => void) | undefined, ours: () => void) {
  return (event: E) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours();
  };
}

/** How long a pointer or focus rests on a link before its page is prefetched: Remix's own delay. */
const INTENT_DELAY_MS = 100;

export const AppLink = forwardRef<HTMLAnchorElement, AppLinkProps>(function AppLink(
  { to, prefetch = "none", replace, reloadDocument, onClick, onMouseEnter, onMouseLeave, onFocus, onBlur, onTouchStart, target, ...rest },
  ref,
) {
  // Not a path of this app ("https://…", "mailto:", "//host/…"): the browser's, as <Link> leaves it; so is a
  // page loaded as a new document, which route discovery need not look at either.
  const browsers = reloadDocument || !to.startsWith("/") || to.startsWith("//");
  const navigate = useNavigate();
  const [intent, setIntent] = useState(false);
  const [prefetching, setPrefetching] = useState(false);
  useEffect(() => {
    if (!intent) return;
    const timer = setTimeout(() => setPrefetching(true), INTENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [intent]);
  const watchIntent = prefetch === "intent" && !browsers;
  const start = () => {
    if (watchIntent) setIntent(true);
  };
  const stop = () => {
    if (!watchIntent) return;
    setIntent(false);
    setPrefetching(false);
  };
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || browsers || event.button !== 0 || (target && target !== "_self")) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    void navigate(to, { replace: replace ?? here === to });
  }
  return (
    <>
      {/* `rest` last: it holds none of the props named here (they are taken out above), and a spread followed
          by more props makes V8 build the props object the slow way, about 1 µs a prop (docs/decisions/031-server-render-costs.md). */}
      <a
        ref={ref}
        href={to}
        target={target}
        data-discover={browsers ? undefined : "true"}
        onClick={handleClick}
        onMouseEnter={after(onMouseEnter, start)}
        onMouseLeave={after(onMouseLeave, stop)}
        onFocus={after(onFocus, start)}
        onBlur={after(onBlur, stop)}
        onTouchStart={after(onTouchStart, start)}
        {...rest}
      />
      {prefetching ? <PrefetchPageLinks page={to} /> : null}
    </>
  );
});

/** Whether a top-bar link to `to` is the page shown (`pathname`): the same path in any letter case, as React Router's NavLink with `end` decides. */
export function isCurrentPage(pathname: string, to: string): boolean {
  return pathname.toLowerCase() === to.toLowerCase();
}
