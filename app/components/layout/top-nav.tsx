import { Form, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useT } from "~/components/i18n";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { useUnreadAnnouncements } from "~/components/realtime/unread-announcements";
import { toastsBelow } from "~/components/toaster";
import { AppLink, isCurrentPage } from "~/components/ui/app-link";

/** Who the bar is for: a signed-in user (any role) or a visitor (null). */
export interface TopNavUser {
  name: string;
  /** The team's threads an organiser answered (a badge on Home). */
  answered?: number;
}

/** Home is /home once someone is signed in, / for a visitor. */
function navLinks(signedIn: boolean) {
  return [
    { to: signedIn ? "/home" : "/", label: "nav.home" },
    { to: "/gates", label: "nav.gates" },
    { to: "/status", label: "nav.status" },
    { to: "/scoreboard", label: "nav.scoreboard" },
    { to: "/announcement", label: "nav.announcement" },
    { to: "/timer", label: "nav.timer" },
    // One's team (docs/domain.md "Teams that form themselves"): signed-in users only.
    ...(signedIn ? [{ to: "/team", label: "nav.team" }] : []),
  ];
}

/**
 * The public layout's bar, shared by the participant screens and the visitor pages:
 * the links (a collapsible menu on small screens), the full-screen toggle and the login/logout icon.
 * A visitor's links lead to /login first (the guards remember where they were going).
 */
export function TopNav({ user }: { user: TopNavUser | null }) {
  const { t } = useT();
  const { count: unread } = useUnreadAnnouncements();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // Close the small-screen menu after each navigation.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  return (
    <header className="topnav" {...toastsBelow}>
      {/* Small screens: a checkbox toggles the menu, so it works without JavaScript too. */}
      <input
        type="checkbox"
        id="topnav-toggle"
        className="topnav__toggle visually-hidden"
        aria-label={t("nav.menu")}
        checked={menuOpen}
        onChange={(event) => setMenuOpen(event.currentTarget.checked)}
      />
      <label htmlFor="topnav-toggle" className="topnav__menu-button">
        <span aria-hidden="true">☰</span> {t("nav.menu")}
      </label>
      <nav aria-label={t("nav.main")} className="topnav__nav">
        <ul className="topnav__links">
          {navLinks(user !== null).map((link) => (
            <li key={link.label}>
              {/* No prefetch for /announcement: its loader marks everything read, a hover must not. */}
              <AppLink
                to={link.to}
                className={isCurrentPage(location.pathname, link.to) ? "active" : undefined}
                aria-current={isCurrentPage(location.pathname, link.to) ? "page" : undefined}
                prefetch={link.to === "/announcement" || !user ? "none" : "intent"}
              >
                {t(link.label)}
                {link.to === "/announcement" && unread > 0 ? <UnreadBadge count={unread} label={t("nav.unread", { count: unread })} /> : null}
                {link.to === "/home" && user?.answered ? <UnreadBadge count={user.answered} label={t("nav.answered", { count: user.answered })} /> : null}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="topnav__user">
        <LanguageSwitch />
        <FullScreenToggle />
        {user ? (
          // The user's name leads to their account: changing their password (docs/domain.md "Mail").
          <AppLink to="/account/password" className="topnav__name" title={t("nav.accountOf", { name: user.name })} aria-label={t("nav.accountOf", { name: user.name })}>
            <bdi dir="auto">{user.name}</bdi>
          </AppLink>
        ) : null}
        <AuthIcon signedIn={user !== null} />
      </div>
    </header>
  );
}

/**
 * The login icon. A visitor follows it to /login; a signed-in user logs out with it (a POST,
 * so it works without JavaScript and no link on another site can log anyone out) and lands on /.
 */
function AuthIcon({ signedIn }: { signedIn: boolean }) {
  const { t } = useT();
  if (!signedIn) {
    return (
      <AppLink to="/login" className="icon-button" aria-label={t("nav.login")} title={t("nav.login")}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M14 4h5v16h-5M3 12h11M10 8l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </AppLink>
    );
  }
  return (
    <Form method="post" action="/logout" className="topnav__logout">
      <button type="submit" className="icon-button" aria-label={t("nav.logout")} title={t("nav.logout")}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M10 4H5v16h5M10 12h11M17 8l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
    </Form>
  );
}

/** Enter or leave full screen. Rendered only once JavaScript runs (it cannot work without). */
export function FullScreenToggle() {
  const { t } = useT();
  const [supported, setSupported] = useState(false);
  const [full, setFull] = useState(false);
  useEffect(() => {
    setSupported(Boolean(document.fullscreenEnabled));
    const sync = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener("fullscreenchange", sync);
    return () => document.removeEventListener("fullscreenchange", sync);
  }, []);
  if (!supported) return null;
  return (
    <button
      type="button"
      className="icon-button fullscreen-toggle"
      aria-pressed={full}
      aria-label={full ? t("nav.exitFullScreen") : t("nav.enterFullScreen")}
      title={full ? t("nav.exitFullScreen") : t("nav.enterFullScreen")}
      onClick={() => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen().catch(() => {});
      }}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        {full ? (
          <path d="M9 3v6H3M15 3v6h6M9 21v-6H3M15 21v-6h6" fill="none" stroke="currentColor" strokeWidth="2" />
        ) : (
          <path d="M3 9V3h6M21 9V3h-6M3 15v6h6M21 15v6h-6" fill="none" stroke="currentColor" strokeWidth="2" />
        )}
      </svg>
    </button>
  );
}

/** The unread-announcement count; screen readers hear "3 unread" as part of the link. */
function UnreadBadge({ count, label }: { count: number; label: string }) {
  return (
    <span className="badge">
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
