import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RequestsErrorBoundary, RequestsPage } from "~/components/dashboard/requests-table";
import { listRequests } from "~/modules/requests/requests.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";
import { requireRole } from "~/utils/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [rows, timeZone] = await Promise.all([listRequests("mentor"), getEventTimeZone()]);
  return { rows, timeZone };
}

export default function MentorsCalls() {
  const { rows, timeZone } = useLoaderData<typeof loader>();
  return <RequestsPage kind="mentor" title="Mentors Calls" empty="No mentor calls yet." rows={rows} timeZone={timeZone} />;
}

export function ErrorBoundary() {
  return <RequestsErrorBoundary failed="Failed to load mentors" />;
}
