import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useUnreadAnnouncements } from "~/components/realtime/unread-announcements";
import { RouteErrorPage } from "~/components/status-page";
import styles from "~/styles/participant.css";
import { requireUser } from "~/utils/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The participant screens' layout: every signed-in role may open them (DOMAIN.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user: { name: user.name, role: user.role, teamName: user.teamName } };
}

const navLinks = [
  { to: "/home", label: "Home" },
  { to: "/gates", label: "Gates" },
  { to: "/status", label: "Status" },
  { to: "/scoreboard", label: "Scoreboard" },
  { to: "/announcement", label: "Announcement" },
  { to: "/timer", label: "Timer" },
];

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  const { count: unread } = useUnreadAnnouncements();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // Close the small-screen menu after each navigation.
  useEffect(() => setMenuOpen(false), [location.pathname]);
  return (
    <div className="app-shell">
      <header className="topnav">
        {/* Small screens: a checkbox toggles the menu, so it works without JavaScript too. */}
        <input
          type="checkbox"
          id="topnav-toggle"
          className="topnav__toggle visually-hidden"
          aria-label="Menu"
          checked={menuOpen}
          onChange={(event) => setMenuOpen(event.currentTarget.checked)}
        />
        <label htmlFor="topnav-toggle" className="topnav__menu-button">
          <span aria-hidden="true">☰</span> Menu
        </label>
        <nav aria-label="Main" className="topnav__nav">
          <ul className="topnav__links">
            {navLinks.map((link) => (
              <li key={link.to}>
                {/* No prefetch for /announcement: its loader marks everything read, a hover must not. */}
                <NavLink to={link.to} prefetch={link.to === "/announcement" ? "none" : "intent"}>
                  {link.label}
                  {link.to === "/announcement" && unread > 0 ? <UnreadBadge count={unread} /> : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topnav__user">
          <FullScreenToggle />
          <span>{user.name}</span>
          <Form method="post" action="/logout">
            <button type="submit" className="link-button">
              Logout
            </button>
          </Form>
        </div>
      </header>
      <Outlet />
    </div>
  );
}

/** Spec 2.3: enter or leave full screen. Rendered only once JavaScript runs (it cannot work without). */
function FullScreenToggle() {
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
      aria-label={full ? "Exit full screen" : "Enter full screen"}
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

/** Spec 2.3: the unread-announcement count; screen readers hear "3 unread" as part of the link. */
function UnreadBadge({ count }: { count: number }) {
  return (
    <span className="badge">
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="visually-hidden">{`${count} unread`}</span>
    </span>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
