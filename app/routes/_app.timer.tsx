import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Countdown } from "~/components/participant/countdown";
import { RouteErrorPage } from "~/components/status-page";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { getFinalAt } from "~/modules/videos/videos.server";
import { requirePage } from "~/glue/auth.server";
import { eventVersionsFor } from "~/glue/viewer-badges.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.timer") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const now = new Date();
  return { finalAt: (await getFinalAt(await eventVersionsFor(context, user, request))) ?? now.toISOString(), serverNow: now.toISOString() };
}

export default function Timer() {
  const { finalAt, serverNow } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <Scene statue="left" className="participant-scene">
      <main className="page page--centered participant-page">
        <TitleBar title={t("timer.title")} />
        <p className="final-timer">
          <Countdown target={finalAt} serverNow={serverNow} label={t("timer.left")} />
        </p>
      </main>
    </Scene>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
