import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { JudgeWorkspace } from "~/components/dashboard/judge/workspace";
import { requirePage } from "~/glue/auth.server";
import { handleWorkspaceAction } from "~/glue/judge-workspace.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { filtersOf, readWorkspaceQuery, workspaceHref } from "~/modules/judging/schema";
import { openWorkspace } from "~/modules/judging/workspace-page.server";
import { languageOf } from "~/glue/language.server";
import styles from "~/styles/judge.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "judgeWorkspace.title") }];

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the workspace fails to load. */
export const handle: DashboardHandle = { loadFailed: (_message, t) => t("judgeWorkspace.loadFailed") };

/** The workspace (app/modules/judging/workspace-page.server.ts); a submission handed out is pinned in the address first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const judge = await requirePage(request);
  const query = readWorkspaceQuery(new URL(request.url).searchParams);
  const opened = await openWorkspace(judge, query, languageOf(request));
  if ("handedOut" in opened) throw redirect(workspaceHref({ ...filtersOf(query), s: opened.handedOut, saved: query.saved }));
  return opened.page;
}

/** A score, or a claim's renewal (app/glue/judge-workspace.server.ts). */
export async function action({ request }: ActionFunctionArgs) {
  const judge = await requirePage(request);
  return handleWorkspaceAction(request, judge);
}

/** A claim's renewal changes nothing the page shows: no re-read for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "renew" ? false : defaultShouldRevalidate;

export default function JudgeWorkspaceRoute() {
  return <JudgeWorkspace data={useLoaderData<typeof loader>()} />;
}
