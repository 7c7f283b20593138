import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminCodeScreen } from "~/components/code/admin-code-screen";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { requirePage } from "~/glue/auth.server";
import { adminCodePost } from "~/glue/code.server";
import { foundOr404, rowIdOr404 } from "~/glue/responses.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import { adminCodePage } from "~/modules/code/runs.server";
import { readRunListQuery } from "~/modules/code/schema";
import styles from "~/styles/dashboard.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [{ title: pageTitle(matches, "codeAdmin.title", { title: data?.challenge.title ?? "" }) }];
export const handle: DashboardHandle = { loadFailed: messages.code.loadFailed };

/** Admins and judges (pageRoles): a code challenge's languages, limits, hidden tests and every run (a page at a time); the forms are admins'. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  return foundOr404(await adminCodePage(rowIdOr404(params.id), user, readRunListQuery(new URL(request.url).searchParams)));
}

/** The settings, the tests archive (multipart), pausing (admins), a rejudge (admins and judges); the answer is shown on the page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const caller = await requirePage(request);
  const reply = await adminCodePost(request, caller, rowIdOr404(params.id));
  return data(reply, { status: reply.ok ? 200 : reply.status });
}

export default function AdminCode() {
  return <AdminCodeScreen {...useLoaderData<typeof loader>()} />;
}
