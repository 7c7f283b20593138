import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useIdleRevalidate, useThrottledEvent } from "~/components/realtime/revalidate-on";
import { TopNav } from "~/components/layout/top-nav";
import { FlashNotice, type FlashNoticeHandle } from "~/components/flash-notice";
import { RouteErrorPage } from "~/components/status-page";
import styles from "~/styles/participant.css";
import { requireLayout } from "~/glue/auth.server";
import { getLogger } from "~/infrastructure/logger.server";
import { badgesFor } from "~/glue/viewer-badges.server";
import { useT } from "~/components/i18n";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The flashed message (without JavaScript) sits below the bar. */
export const handle: FlashNoticeHandle = { flashNotice: true };

/** The participant screens' layout: every signed-in role may open them (docs/domain.md). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireLayout(request, "/");
  // The team's threads an organiser answered: a badge on Home (teams only: no query for anyone else).
  // A badge, not the page: if Postgres cannot answer, the page still renders (the scoreboard reads Redis).
  const answered =
    user.teamId === null
      ? 0
      : await badgesFor(context, user, request).then((badges) => badges.answeredThreads).catch((error: unknown) => {
          getLogger().warn({ err: error }, "answered threads not counted");
          return 0;
        });
  return { user: { name: user.name, role: user.role, teamName: user.teamName, answered }, hasTeam: user.teamId !== null };
}

/** The submission page says "Loading..." while it loads (the gate board has its own animation). */
function useOpeningChallenge(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state === "loading" &&
    !navigation.formMethod &&
    /^\/submition\/[^/]+$/.test(navigation.location.pathname) &&
    navigation.location.pathname !== location.pathname
  );
}

export default function AppLayout() {
  const { user, hasTeam } = useLoaderData<typeof loader>();
  const { t } = useT();
  const openingChallenge = useOpeningChallenge();
  const revalidate = useIdleRevalidate();
  // A thread of the team moved (an organiser claimed, answered or closed it): the badge and the page follow.
  useThrottledEvent("thread:changed", revalidate, 1000, hasTeam);
  return (
    <div className="app-shell">
      <TopNav user={user} />
      <FlashNotice />
      {openingChallenge ? (
        <main className="page participant-page page-loading">
          <p role="status" className="page-loading__text">
            {t("common.loading")}
          </p>
        </main>
      ) : (
        <Outlet />
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
