import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { useSocketEvent } from "~/components/realtime/socket-provider";
import { useUnreadAnnouncements } from "~/components/realtime/unread-announcements";
import { RouteErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import { announcementsIn, listAnnouncements, markAnnouncementsSeen, markShownAnnouncementsSeen } from "~/modules/announcements/announcements.server";
import { CONTENT_TEXTS, shownIn } from "~/modules/i18n/content";
import { languageOf } from "~/glue/language.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { requirePage } from "~/glue/auth.server";
import { badgesFor } from "~/glue/viewer-badges.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.announcements") }];

/** Opening the page resets the user's unread count on the server (docs/domain.md). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const badges = await badgesFor(context, user, request).catch(() => null);
  const versions = badges?.versions ?? null;
  const [announcements, timeZone] = await Promise.all([
    listAnnouncements(200, versions),
    // docs/domain.md: instants are shown in the event's zone (an event setting).
    getEventTimeZone(versions),
  ]);
  // What is shown is now seen: written only when something was unread as the request began (counted with
  // the badges, in Postgres), so a page read again writes nothing; the list is at least as new as that count.
  if (badges === null || badges.unreadAnnouncements > 0) await markShownAnnouncementsSeen(user.id, announcements.map((announcement) => announcement.id));
  // Each in the viewer's language (docs/domain.md "Event content in two languages").
  return { announcements: announcementsIn(announcements, languageOf(request)), timeZone };
}

/** An announcement arrived live while the page was open: the user has seen it too. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePage(request);
  await markAnnouncementsSeen(user.id);
  return { ok: true };
}

export default function Announcements() {
  const { announcements, timeZone } = useLoaderData<typeof loader>();
  const { reset } = useUnreadAnnouncements();
  const seen = useFetcher<typeof action>();
  const { t, language } = useT();
  const format = useFormats();

  const [items, setItems] = useState(announcements);
  const [liveIds, setLiveIds] = useState<ReadonlySet<number>>(() => new Set());
  const [source, setSource] = useState(announcements);
  if (source !== announcements) {
    setSource(announcements);
    setItems(announcements);
  }

  // Zero the badge on open and after every reload of this page's data (the root count may have
  // been read a moment before this loader marked everything seen).
  useEffect(() => {
    reset();
  }, [reset, announcements]);

  const [news, setNews] = useState("");
  useSocketEvent("new_announcement", (incoming) => {
    // It carries both languages: the page shows its viewer's, as the loader does.
    const announcement = shownIn(incoming, language, CONTENT_TEXTS.announcement);
    setItems((current) => (current.some((item) => item.id === announcement.id) ? current : [announcement, ...current]));
    setLiveIds((current) => new Set(current).add(announcement.id));
    setNews(t("announcements.new", { title: announcement.title }));
    reset();
    seen.submit(null, { method: "post" });
  });

  return (
    <main className="page announcements" aria-labelledby="announcements-title">
      <TitleBar title={t("announcements.title")} id="announcements-title" />
      {items.length === 0 ? (
        <p className="announcements__empty card">{t("announcements.none")}</p>
      ) : (
        <ul className="announcements__list list-reset">
          {items.map((item) => (
            <li key={item.id}>
              <article
                className={["card announcement", liveIds.has(item.id) ? "announcement--new" : null].filter(Boolean).join(" ")}
                aria-labelledby={`announcement-${item.id}`}
              >
                <header className="announcement__header">
                  <h2 id={`announcement-${item.id}`} className="announcement__title" dir="auto">
                    {item.title}
                    {liveIds.has(item.id) ? <span className="announcement__tag">{t("announcements.newTag")}</span> : null}
                  </h2>
                  <time className="announcement__time" dateTime={item.createdAt}>
                    {format.dayTime(item.createdAt, timeZone)}
                  </time>
                </header>
                <p className="announcement__content" dir="auto">
                  {item.content}
                </p>
              </article>
            </li>
          ))}
        </ul>
      )}
      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {news}
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
