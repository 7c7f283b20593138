import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { NotificationPopup } from "~/components/realtime/notification-popup";
import { SocketProvider } from "~/components/realtime/socket-provider";
import { useClearedTeamRank } from "~/components/realtime/team-rank-storage";
import { UnreadAnnouncementsProvider } from "~/components/realtime/unread-announcements";
import { AppToaster } from "~/components/toaster";
import { FlashNotice, useLayoutShowsFlash } from "~/components/flash-notice";
import { RouteErrorPage } from "~/components/status-page";
import styles from "~/styles/app.css";
import { badgesFor } from "~/glue/viewer-badges.server";
import { getOptionalUser } from "~/glue/auth.server";
import { getLogger } from "~/infrastructure/logger.server";
import { useNonce } from "~/hooks/nonce";
import { getToast } from "~/glue/toast.server";
import { languageOf } from "~/glue/language.server";
import { DEFAULT_LANGUAGE, directionOf, i18nInstances, isLanguage } from "~/modules/i18n/i18n";
import { I18nextProvider } from "react-i18next";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" },
];

export const meta: MetaFunction = () => [{ title: "Gatekeeper" }];

// Public route: every visitor gets the document; pages below it guard themselves.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [caller, { toast, headers }] = await Promise.all([getOptionalUser(request), getToast(request)]);
  // What the pages show of the caller; the session's id stays on the server.
  const user = caller ? { id: caller.id, name: caller.name, role: caller.role, teamId: caller.teamId, teamName: caller.teamName } : null;
  // A badge, not the document: if Postgres cannot count, every page still renders (each says what it could not read).
  const unreadAnnouncements = user
    ? await badgesFor(context, user, request).then(
        (badges) => badges.unreadAnnouncements,
        (error: unknown) => {
          getLogger().warn({ err: error }, "unread announcements not counted");
          return 0;
        },
      )
    : 0;
  // The language every page of this document speaks (cookie, else Accept-Language): decision 025.
  const lang = languageOf(request);
  return data({ user, toast, unreadAnnouncements, lang }, { headers: headers ?? undefined });
}

export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const user = rootData?.user ?? null;
  // The server renders in the loader's language and the browser hydrates with the same one (no flash); when
  // this loader refused the request, in the language its refusal names (refuseAuthorizationHeader).
  const error = useRouteError();
  const refusedIn = isRouteErrorResponse(error) ? (error.data as { lang?: unknown } | null)?.lang : undefined;
  const lang = rootData?.lang ?? (isLanguage(refusedIn) ? refusedIn : DEFAULT_LANGUAGE);
  const nonce = useNonce();
  // localStorage `teamRank` is the signed-in team's (kept by the pages that show it): gone once signed out.
  useClearedTeamRank(Boolean(user));
  const layoutShowsFlash = useLayoutShowsFlash();
  // A marker that the page's scripts run: tests wait for it (and it costs the page nothing).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={lang} dir={directionOf(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nextProvider i18n={i18nInstances[lang]}>
        {/* Without JavaScript the flashed message is in the page; a layout with a bar shows it below its bar. */}
        {layoutShowsFlash ? null : <FlashNotice />}
        {/* Signed-in users only: visitors get no socket (docs/domain.md). */}
        <SocketProvider enabled={Boolean(user)} identity={user?.id ?? null}>
          <UnreadAnnouncementsProvider serverCount={user ? (rootData?.unreadAnnouncements ?? 0) : 0} syncKey={rootData}>
            {children}
            {user ? <NotificationPopup /> : null}
          </UnreadAnnouncementsProvider>
        </SocketProvider>
        <AppToaster toast={rootData?.toast ?? null} />
        </I18nextProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
