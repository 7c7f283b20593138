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
export const handle: DashboardHandle = { loadFailed: (_message, t) => t("dashboardMisc.mentorsLoadFailed") };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [rows, timeZone] = await Promise.all([listRequests("mentor"), getEventTimeZone()]);
  return { rows, timeZone };
}

export default function MentorsCalls() {
  const { rows, timeZone } = useLoaderData<typeof loader>();
  const { t } = useT();
  return <RequestsPage kind="mentor" title={t("dashboardMisc.mentors")} empty={t("dashboardMisc.noMentors")} rows={rows} timeZone={timeZone} />;
}
