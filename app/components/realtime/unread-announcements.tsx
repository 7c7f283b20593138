import { useLocation } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useSocketEvent } from "./socket-provider";

/** The original platform's localStorage key; it mirrors the server's count between loads (docs/domain.md). */
export const UNREAD_STORAGE_KEY = "unreadCount";
export const ANNOUNCEMENTS_PATH = "/announcement";
const FAVICON = "/favicon.svg";
const FAVICON_BADGE = "/favicon-badge.svg";

interface UnreadAnnouncements {
  count: number;
  reset: () => void;
}

const UnreadContext = createContext<UnreadAnnouncements>({ count: 0, reset: () => {} });

function isAnnouncementsPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, "") === ANNOUNCEMENTS_PATH;
}

/**
 * The unread-announcement count. The server keeps the truth per user (announcements newer than the
 * last visit to /announcement); this holds it between loads and counts live ones as they come.
 *
 * - starts from, and re-syncs to, `serverCount` every time the root loader runs again
 *   (`syncKey` is the root loader's data object, which changes identity on each run);
 * - +1 per `new_announcement` (its twin `announcement` marks the same moment and is ignored);
 * - 0 while /announcement is open (the page shows them; its loader tells the server);
 * - mirrored to localStorage `unreadCount`; the favicon carries a red badge while above zero.
 */
export function UnreadAnnouncementsProvider({
  serverCount,
  syncKey,
  children,
}: {
  serverCount: number;
  syncKey?: unknown;
  children: ReactNode;
}) {
  const [count, setCount] = useState(serverCount);
  const [synced, setSynced] = useState({ serverCount, syncKey });
  if (synced.serverCount !== serverCount || synced.syncKey !== syncKey) {
    // Adjusting state during render (not in an effect) so the badge never shows a stale number.
    setSynced({ serverCount, syncKey });
    setCount(serverCount);
  }

  const { pathname } = useLocation();
  const onAnnouncements = isAnnouncementsPath(pathname);
  const onAnnouncementsRef = useRef(onAnnouncements);
  useEffect(() => {
    onAnnouncementsRef.current = onAnnouncements;
  }, [onAnnouncements]);

  useSocketEvent("new_announcement", () => {
    if (!onAnnouncementsRef.current) setCount((current) => current + 1);
  });

  const reset = useCallback(() => setCount(0), []);
  const visible = onAnnouncements ? 0 : count;

  useEffect(() => {
    try {
      window.localStorage.setItem(UNREAD_STORAGE_KEY, String(visible));
    } catch {
      // Storage can be full or disabled (private mode): the count still works in memory.
    }
  }, [visible]);

  // Re-applied after each navigation too, in case the <link> was re-rendered with its default href.
  useEffect(() => {
    setFavicon(visible > 0 ? FAVICON_BADGE : FAVICON);
  }, [visible, pathname]);

  const value = useMemo(() => ({ count: visible, reset }), [visible, reset]);
  return <UnreadContext.Provider value={value}>{children}</UnreadContext.Provider>;
}

/** `{ count, reset }`: the unread-announcement count and a way to zero it (opening /announcement). */
export function useUnreadAnnouncements(): UnreadAnnouncements {
  return useContext(UnreadContext);
}

function setFavicon(href: string) {
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')) {
    if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  }
}
