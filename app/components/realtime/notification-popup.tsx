import { useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import type { FirstBloodEvent, NotificationEvent } from "~/modules/realtime/events";
import { playChime, unlockAudioOnFirstGesture } from "./chime";
import { useT } from "~/components/i18n";
import { inLanguage } from "~/modules/i18n/content";
import { DEFAULT_EVENT_TIME_ZONE, useFormats } from "./format";
import { useSocketEvent } from "./socket-provider";

/** The original platform's localStorage keys, and ours for the notification's Arabic beside its English. */
export const NOTIFICATION_STORAGE_KEY = "notification";
export const NOTIFICATION_TIME_STORAGE_KEY = "notificationTime";
export const NOTIFICATION_ARABIC_STORAGE_KEY = "notificationAr";

function isDashboardPath(pathname: string): boolean {
  return pathname === "/dashboard" || pathname.startsWith("/dashboard/");
}

function readSaved(): NotificationEvent | null {
  try {
    const message = window.localStorage.getItem(NOTIFICATION_STORAGE_KEY);
    if (!message) return null;
    return {
      message,
      messageAr: window.localStorage.getItem(NOTIFICATION_ARABIC_STORAGE_KEY),
      timestamp: window.localStorage.getItem(NOTIFICATION_TIME_STORAGE_KEY) ?? "",
    };
  } catch {
    return null;
  }
}

function save(notification: NotificationEvent) {
  try {
    window.localStorage.setItem(NOTIFICATION_STORAGE_KEY, notification.message);
    window.localStorage.setItem(NOTIFICATION_TIME_STORAGE_KEY, notification.timestamp);
    if (notification.messageAr) window.localStorage.setItem(NOTIFICATION_ARABIC_STORAGE_KEY, notification.messageAr);
    else window.localStorage.removeItem(NOTIFICATION_ARABIC_STORAGE_KEY);
  } catch {
    // Storage disabled: the popup still shows, it just will not survive a reload.
  }
}

function clearSaved() {
  try {
    window.localStorage.removeItem(NOTIFICATION_STORAGE_KEY);
    window.localStorage.removeItem(NOTIFICATION_TIME_STORAGE_KEY);
    window.localStorage.removeItem(NOTIFICATION_ARABIC_STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/**
 * The admin's notification: shown when a `notification` event arrives, with a short
 * chime, until dismissed. It is saved in localStorage, so it comes back after a reload until the
 * user closes it. Inside /dashboard it is hidden and silent. It carries both languages: the popup
 * shows the viewer's (the other when there is only one; app/modules/i18n/content.ts), and follows a
 * change of language.
 *
 * Times are shown in the event's zone (docs/domain.md), like every other instant.
 *
 * It is a labelled region rather than a modal: it must not take focus from someone typing a
 * submission. Screen readers hear it through a live region when it arrives.
 */
export function NotificationPopup({ timeZone = DEFAULT_EVENT_TIME_ZONE }: { timeZone?: string }) {
  const { t, language } = useT();
  const format = useFormats();
  // A reply to the team's thread, or a first blood, shows under its own title and is not kept (the thread
  // keeps a reply; a first blood is a moment).
  const [notification, setNotification] = useState<(NotificationEvent & { threadId?: number; firstBlood?: FirstBloodEvent }) | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const { pathname } = useLocation();
  const muted = isDashboardPath(pathname);
  const mutedRef = useRef(muted);
  useEffect(() => {
    mutedRef.current = muted;
  }, [muted]);
  const titleId = useId();
  const messageId = useId();

  // Read after hydration only: the server cannot know what this browser saved.
  useEffect(() => {
    setNotification(readSaved());
    return unlockAudioOnFirstGesture();
  }, []);

  useSocketEvent("notification", (incoming) => {
    save(incoming);
    setNotification(incoming);
    if (mutedRef.current) return;
    setAnnouncement(t("popup.newNotification", { message: inLanguage(language, incoming.message, incoming.messageAr) }));
    void playChime();
  });

  useSocketEvent("thread:reply", (incoming) => {
    setNotification(incoming);
    if (mutedRef.current) return;
    setAnnouncement(t("popup.newReply", { message: incoming.message }));
    void playChime();
  });

  useSocketEvent("first_blood", (incoming) => {
    const message = t("popup.firstBlood", { team: incoming.team, challenge: inLanguage(language, incoming.challenge, incoming.challengeAr) });
    setNotification({ message, timestamp: incoming.at, firstBlood: incoming });
    if (mutedRef.current) return;
    setAnnouncement(`${t("popup.firstBloodTitle")}: ${message}`);
    void playChime();
  });

  // Another tab dismissed it (or a new one was saved there): follow.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === NOTIFICATION_STORAGE_KEY || event.key === null) setNotification(readSaved());
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const dismiss = () => {
    // Closing a reply or a first blood leaves the organisers' notification as it was (kept until closed itself).
    const kept = notification?.threadId !== undefined || notification?.firstBlood !== undefined;
    if (!kept) clearSaved();
    setNotification(kept ? readSaved() : null);
    setAnnouncement("");
  };

  const time = notification?.timestamp ? format.clockTime(notification.timestamp, timeZone) : "";

  return (
    <>
      {/* Present from the start so screen readers pick up what is written into it. */}
      <div className="visually-hidden" aria-live="assertive" aria-atomic="true">
        {muted ? "" : announcement}
      </div>
      {notification ? (
        <section
          className="notification-popup"
          aria-labelledby={titleId}
          aria-describedby={messageId}
          hidden={muted}
          onKeyDown={(event) => {
            if (event.key === "Escape") dismiss();
          }}
        >
          <header className="notification-popup__header">
            <h2 id={titleId} className="notification-popup__title">
              <BellIcon />
              {notification.firstBlood ? t("popup.firstBloodTitle") : notification.threadId === undefined ? t("popup.notificationTitle") : t("popup.replyTitle")}
            </h2>
            {time ? (
              <time className="notification-popup__time" dateTime={notification.timestamp}>
                {time}
              </time>
            ) : null}
          </header>
          <p id={messageId} className="notification-popup__message" dir="auto">
            {notification.firstBlood ? notification.message : inLanguage(language, notification.message, notification.messageAr)}
            {notification.threadId === undefined ? null : (
              <>
                {" "}
                <a href={`/threads/${notification.threadId}`}>{t("popup.openThread")}</a>
              </>
            )}
          </p>
          <button type="button" className="action-button action-button--subtle notification-popup__close" onClick={dismiss}>
            {t("common.close")}
          </button>
        </section>
      ) : null}
    </>
  );
}

function BellIcon() {
  return (
    <svg className="notification-popup__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 3.5c-3 0-5.2 2.3-5.2 5.3v3.4L5 15.6v1.1h14v-1.1l-1.8-3.4V8.8c0-3-2.2-5.3-5.2-5.3Z"
        fill="rgba(94, 225, 255, 0.15)"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <path d="M9.8 19.2a2.3 2.3 0 0 0 4.4 0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}
