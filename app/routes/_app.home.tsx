import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { HomeContent } from "~/components/participant/home-content";
import { TeamThreads } from "~/components/participant/team-threads";
import { RouteErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import { loadHomeContent } from "~/modules/participant/home.server";
import { teamThreads, threadChallengeIn } from "~/modules/requests/threads.server";
import { languageOf } from "~/glue/language.server";
import { handleHomeAction } from "~/glue/home-forms.server";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { pageReadFor } from "~/glue/viewer-badges.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.home") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const { versions, rows } = await pageReadFor(context, user, request, "teamThreads", 0);
  const [content, threads] = await Promise.all([loadHomeContent(new Date(), versions), user.teamId === null ? [] : (rows ?? teamThreads(user.teamId))]);
  return {
    content,
    threads: threads.map((thread) => ({
      id: thread.id,
      kind: thread.kind,
      status: thread.status,
      message: thread.message,
      challenge: threadChallengeIn(thread, languageOf(request)),
      updatedAt: thread.updatedAt.toISOString(),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePage(request);
  return handleHomeAction(await request.formData(), user, "/home", actorOf(user, request), new URL(request.url).origin);
}

export default function Home() {
  const { content, threads } = useLoaderData<typeof loader>();
  const actionData = useActionReply<typeof action>();
  const { t } = useT();
  return (
    <main className="page participant-page">
      <TitleBar title={t("home.title")} />
      <TeamThreads threads={threads} timeZone={content.timeZone} />
      <HomeContent content={content} actionData={actionData} />
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
