import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminPredictionsScreen } from "~/components/predictions/admin-predictions-screen";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { requirePage } from "~/glue/auth.server";
import { adminPredictionsPost } from "~/glue/predictions.server";
import { foundOr404, rowIdOr404 } from "~/glue/responses.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import { adminPredictionsPage } from "~/modules/predictions/predictions.server";
import styles from "~/styles/dashboard.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: pageTitle(matches, "predictionsAdmin.title", { title: data?.challenge.title ?? "" }) }];
export const handle: DashboardHandle = { loadFailed: messages.predictions.loadFailed };

/** Admins only (pageRoles: the dashboard): a prediction challenge's scoring, labels, reveal and files. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePage(request);
  return foundOr404(await adminPredictionsPage(rowIdOr404(params.id)));
}

/** The settings, the labels file (multipart) or the reveal; the answer is shown on the page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const caller = await requirePage(request);
  const reply = await adminPredictionsPost(request, caller, rowIdOr404(params.id));
  return data(reply, { status: reply.ok ? 200 : reply.status });
}

export default function AdminPredictions() {
  return <AdminPredictionsScreen {...useLoaderData<typeof loader>()} />;
}
