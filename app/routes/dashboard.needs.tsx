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
  const [rows, timeZone] = await Promise.all([listRequests("needs"), getEventTimeZone()]);
  return { rows, timeZone };
}

export default function UsersNeeds() {
  const { rows, timeZone } = useLoaderData<typeof loader>();
  return <RequestsPage kind="needs" title="Users Needs" empty="No needs yet." rows={rows} timeZone={timeZone} />;
}

export function ErrorBoundary() {
  return <RequestsErrorBoundary failed="Failed to load needs" />;
}
