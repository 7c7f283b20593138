import { isRouteErrorResponse, useMatches, useRouteError } from "@remix-run/react";
import { RouteErrorPage } from "~/components/status-page";
import { messages } from "~/modules/messages";

/**
 * What a dashboard page declares for the one dashboard error boundary (routes/dashboard.tsx), as its
 * `handle`: the words for its data failing to load (the original platform's per-page texts).
 */
export interface DashboardHandle {
  loadFailed?: (message: string) => string;
}

/**
 * The dashboard's one error boundary, shown inside the dashboard (its navigation stays): a refusal or a
 * missing page (403, 404, 400…) as its status page; a page whose data failed to load says so in the
 * page's own words, else the generic one.
 */
export function DashboardError() {
  const error = useRouteError();
  const matches = useMatches();
  if (isRouteErrorResponse(error) && error.status < 500) return <RouteErrorPage />;
  const handle = [...matches].reverse().find((match) => (match.handle as DashboardHandle | undefined)?.loadFailed)?.handle as DashboardHandle | undefined;
  const message = error instanceof Error && error.message ? error.message : messages.errors.server;
  return (
    <p role="alert" className="message message--error">
      {handle?.loadFailed ? handle.loadFailed(message) : messages.errors.server}
    </p>
  );
}
