import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useState } from "react";
import { DelayedLink } from "~/components/participant/delayed-link";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { requirePage } from "~/glue/auth.server";

export const meta: MetaFunction = () => [{ title: "Ready? · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return null;
}

export default function Notification() {
  const [leaving, setLeaving] = useState(false);
  return (
    <Scene statue="left" fadeToDark={leaving} className="participant-scene">
      <main className={`page page--centered participant-page${leaving ? " is-leaving" : ""}`}>
        <TitleBar title="Are you ready to move forward?" warning />
        <div className="cluster choice-buttons">
          <ActionLink to="/welcome" variant="subtle">
            No
          </ActionLink>
          <DelayedLink to="/gates" onLeave={() => setLeaving(true)}>
            Yes
          </DelayedLink>
        </div>
      </main>
    </Scene>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
