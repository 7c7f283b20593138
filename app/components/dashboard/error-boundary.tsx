import { isRouteErrorResponse, useMatches, useRouteError } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { RouteErrorPage } from "~/components/status-page";

/**
 * What a dashboard page declares for the one dashboard error boundary (routes/dashboard.tsx), as its
 * `handle`: the words for its data failing to load (the original platform's per-page texts). A function
 * gets the error's message and the page's `t` (docs/decisions/025-english-and-arabic.md); a fixed text is
 * shown as a server message (its Arabic from ar.json's "messages.*" when it has one).
 */
export interface DashboardHandle {
  loadFailed?: ((message: string, t: TFunction) => string) | string;
}

/**
 * The dashboard's one error boundary, shown inside the dashboard (its navigation stays): a refusal or a
 * missing page (403, 404, 400…) as its status page; a page whose data failed to load says so in the
 * page's own words, else the generic one.
 */
export function DashboardError() {
  const error = useRouteError();
  const matches = useMatches();
  const { t } = useT();
  const serverMessage = useServerMessage();
  if (isRouteErrorResponse(error) && error.status < 500) return <RouteErrorPage />;
  const loadFailed = [...matches].reverse().map((match) => (match.handle as DashboardHandle | undefined)?.loadFailed).find(Boolean);
  const message = error instanceof Error && error.message ? error.message : t("errors.server");
  return (
    <p role="alert" className="message message--error">
      {typeof loadFailed === "function" ? serverMessage(loadFailed(message, t)) : typeof loadFailed === "string" ? serverMessage(loadFailed) : t("errors.server")}
    </p>
  );
}
