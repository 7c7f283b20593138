import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { RequestsPage } from "~/components/dashboard/requests-table";
import { useT } from "~/components/i18n";
import { listRequests } from "~/modules/requests/requests.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";
import { requirePage } from "~/glue/auth.server";

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the list fails to load. */
export const handle: DashboardHandle = { loadFailed: (_message, t) => t("dashboardMisc.needsLoadFailed") };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [rows, timeZone] = await Promise.all([listRequests("needs"), getEventTimeZone()]);
  return { rows, timeZone };
}

export default function UsersNeeds() {
  const { rows, timeZone } = useLoaderData<typeof loader>();
  const { t } = useT();
  return <RequestsPage kind="needs" title={t("dashboardMisc.needs")} empty={t("dashboardMisc.noNeeds")} rows={rows} timeZone={timeZone} />;
}
