import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import type { ListPage } from "~/modules/paging";

/**
 * A long list's pages, under it: the range shown, then First, Previous, Next and Last as pills (plain links,
 * so they work without JavaScript; with it, Remix moves between pages without a reload). A link to the page
 * shown, or past either end, is shown off. `children`: more items for the list (the scoreboard's own page).
 */
export function PageLinks({ label, range, page, pages, href, children }: { label: string; range: string; page: number; pages: number; href: (page: number) => string; children?: ReactNode }) {
  const { t } = useT();
  const links: Array<{ label: string; page: number; rel?: string }> = [
    { label: t("scoreboard.pages.first"), page: 1 },
    { label: t("scoreboard.pages.previous"), page: page - 1, rel: "prev" },
    { label: t("scoreboard.pages.next"), page: page + 1, rel: "next" },
    { label: t("scoreboard.pages.last"), page: pages },
  ];
  return (
    <nav className="list-pages" aria-label={label}>
      <p className="list-pages__range">{range}</p>
      <ul className="list-pages__list">
        {links.map((link) => (
          <li key={link.label}>
            {link.page < 1 || link.page > pages || link.page === page ? (
              <span className="list-pages__page list-pages__page--off">{link.label}</span>
            ) : (
              <Link to={href(link.page)} className="list-pages__page" rel={link.rel}>
                {link.label}
              </Link>
            )}
          </li>
        ))}
        {children}
      </ul>
    </nav>
  );
}

/** The figures of a list page's range sentence, formatted for the page's language. */
export type RangeFigures = Record<"from" | "to" | "total" | "page" | "pages", string>;

/**
 * A dashboard list's pages (app/modules/paging.ts): `?page=`, the list's query (its filters and sort) kept
 * in every link; `range` words the figures ("Submissions 51–100 of 230 · page 2 of 5").
 */
export function ListPageLinks({ pages, query, label, range }: { pages: ListPage; query: Record<string, string | number | undefined>; label: string; range: (figures: RangeFigures) => string }) {
  const format = useFormats();
  const href = (page: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && key !== "page") params.set(key, String(value));
    if (page > 1) params.set("page", String(page));
    return `?${params}`;
  };
  const figures: RangeFigures = {
    from: format.number(pages.from),
    to: format.number(pages.to),
    total: format.number(pages.total),
    page: format.number(pages.page),
    pages: format.number(pages.pages),
  };
  return <PageLinks label={label} range={range(figures)} page={pages.page} pages={pages.pages} href={href} />;
}
