import { useT } from "~/components/i18n";
import type { SocialKind, SocialLink } from "~/modules/settings/social-links";

/** Small original glyphs, one per kind of page (no brand artwork). */
const glyphs: Record<SocialKind, string> = {
  chat: "M4 5h16v10H9l-5 4z M8 10h.01M12 10h.01M16 10h.01",
  photos: "M4 7h4l2-2h4l2 2h4v12H4z M12 16a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  network: "M5 4h14v16H5z M8 10v6 M8 7.5v.01 M12 16v-6 M12 12.5c0-1.5 4-2.5 4 0V16",
  code: "M9 7l-5 5 5 5 M15 7l5 5-5 5",
};

/** The thanks text's social links; each opens in a new tab and says so to screen readers. */
export function SocialLinks({ links }: { links: readonly SocialLink[] }) {
  const { t } = useT();
  return (
    <ul className="social-links list-reset" aria-label={t("scoreboard.online")}>
      {links.map((link) => (
        <li key={link.href}>
          <a className="social-links__link" href={link.href} target="_blank" rel="noopener noreferrer">
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
              <path d={glyphs[link.kind]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <span>{link.label}</span>
            <span className="visually-hidden">{t("common.newTab")}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
