import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useState } from "react";
import { DelayedLink } from "~/components/participant/delayed-link";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { requirePage } from "~/glue/auth.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.ready") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return null;
}

export default function Notification() {
  const [leaving, setLeaving] = useState(false);
  const { t } = useT();
  return (
    <Scene statue="left" fadeToDark={leaving} className="participant-scene">
      <main className={`page page--centered participant-page${leaving ? " is-leaving" : ""}`}>
        <TitleBar title={t("ready.title")} warning />
        <div className="cluster choice-buttons">
          <ActionLink to="/welcome" variant="subtle">
            {t("common.no")}
          </ActionLink>
          <DelayedLink to="/gates" onLeave={() => setLeaving(true)}>
            {t("common.yes")}
          </DelayedLink>
        </div>
      </main>
    </Scene>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
