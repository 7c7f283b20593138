import { Link } from "@remix-run/react";
import { Trans } from "react-i18next";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { PageLinks } from "~/components/ui/page-links";
import type { BoardPage } from "~/modules/standings/scoreboard.server";

/**
 * A big board's pages (`?page=`, with the division kept): plain links, so they work without JavaScript; with
 * it, Remix moves between pages without a reload and the socket stays open.
 */
export function BoardPages({ window, division }: { window: BoardPage; division: string | null }) {
  const { t } = useT();
  const format = useFormats();
  const href = (page: number) => `/scoreboard?${new URLSearchParams({ ...(division === null ? {} : { division }), ...(page > 1 ? { page: String(page) } : {}) })}`;
  const last = Math.min(window.offset + window.limit, window.total);
  const range = t("scoreboard.pages.range", {
    from: format.number(window.offset + 1),
    to: format.number(last),
    total: format.number(window.total),
    page: format.number(window.page),
    pages: format.number(window.pages),
  });
  return (
    <PageLinks label={t("scoreboard.pages.label")} range={range} page={window.page} pages={window.pages} href={href}>
      {window.ownPage !== null && window.ownPage !== window.page ? (
        <li>
          <Link to={href(window.ownPage)} className="list-pages__page list-pages__page--own">
            {t("scoreboard.pages.own", { page: format.number(window.ownPage) })}
          </Link>
        </li>
      ) : null}
    </PageLinks>
  );
}

/**
 * The division filter (docs/domain.md "Divisions"): plain links (`?division=`), so it works without
 * JavaScript; with it, Remix moves between boards without a reload and the socket stays open. Names are
 * shown as text (React escapes them) and put in the address encoded.
 */
export function DivisionFilter({ divisions, division, unknown }: { divisions: string[]; division: string | null; unknown: string | null }) {
  const { t } = useT();
  if (!divisions.length && unknown === null) return null;
  return (
    <>
      {unknown !== null ? (
        <p className="scoreboard__division-note" role="note">
          <Trans i18nKey="scoreboard.notOnBoard" values={{ division: unknown }} components={{ name: <bdi /> }} />
        </p>
      ) : null}
      {divisions.length ? (
        <nav className="scoreboard__divisions" aria-label={t("scoreboard.divisions")}>
          <ul className="scoreboard__division-list">
            {[null, ...divisions].map((name) => (
              <li key={name ?? ""}>
                <Link
                  to={name === null ? "/scoreboard" : `/scoreboard?${new URLSearchParams({ division: name })}`}
                  className="scoreboard__division"
                  aria-current={name === division ? "page" : undefined}
                  preventScrollReset
                >
                  {name === null ? t("scoreboard.allTeams") : <bdi>{name}</bdi>}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </>
  );
}
