import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/components/i18n";

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
