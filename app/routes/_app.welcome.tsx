import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useState } from "react";
import { DelayedLink } from "~/components/participant/delayed-link";
import { HomeContent } from "~/components/participant/home-content";
import { RouteErrorPage } from "~/components/status-page";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { loadHomeContent } from "~/modules/participant/home.server";
import { handleHomeAction } from "~/glue/home-forms.server";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { maySaveHomeVideos } from "~/modules/auth/access";
import { pageTitle } from "~/modules/i18n/i18n";
import { Trans } from "react-i18next";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.welcome") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  return { name: user.name, content: await loadHomeContent(), canSaveVideos: maySaveHomeVideos(user.role) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePage(request);
  return handleHomeAction(await request.formData(), user, "/welcome", actorOf(user, request), new URL(request.url).origin);
}

export default function Welcome() {
  const { name, content, canSaveVideos } = useLoaderData<typeof loader>();
  const actionData = useActionReply<typeof action>();
  const [leaving, setLeaving] = useState(false);
  const { t } = useT();
  return (
    // The backdrop switches after 4 s (CSS; at once under reduced motion).
    <Scene statue="right" className="participant-scene welcome-scene">
      <main className={`page participant-page welcome${leaving ? " is-leaving" : ""}`}>
        <section className="welcome__greeting card" aria-labelledby="welcome-title">
          <TitleBar id="welcome-title" title={<Trans i18nKey="welcome.greeting" values={{ name }} components={{ name: <bdi /> }} />} />
          <p className="lead">{t("welcome.lead")}</p>
          <DelayedLink to="/notification" onLeave={() => setLeaving(true)}>
            {t("common.next")}
          </DelayedLink>
        </section>
        <h2 className="welcome__event-title">{t("home.title")}</h2>
        <HomeContent content={content} actionData={actionData} canSaveVideos={canSaveVideos} />
      </main>
    </Scene>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
