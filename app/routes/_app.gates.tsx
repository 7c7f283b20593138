import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Countdown } from "~/components/participant/countdown";
import { GateArt } from "~/components/participant/gate-art";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { TitleBar } from "~/components/ui/title-bar";
import { listGates } from "~/modules/gates/gates.server";
import { requirePage } from "~/glue/auth.server";
import { eventVersionsFor } from "~/glue/viewer-badges.server";

export const meta: MetaFunction = () => [{ title: "Gates · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const now = new Date();
  return { gates: await listGates(now, await eventVersionsFor(request, user)), serverNow: now.toISOString() };
}

export default function Gates() {
  const { gates, serverNow } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  return (
    <main className="page participant-page">
      <TitleBar title="Enter a Gate" />
      <ul className="gate-grid list-reset">
        {gates.map((gate) => (
          <li key={gate.number} className={`card gate-card gate-card--${gate.number}${gate.open ? " gate-card--open" : ""}`}>
            <GateArt gate={gate.number} className="gate-card__art" />
            <h2 className="gate-card__title">{gate.title}</h2>
            {gate.open ? (
              <>
                <p>{gate.description}</p>
                <ActionLink to={`/gate/${gate.number}`} aria-label={`Next: ${gate.title}`}>
                  Next
                </ActionLink>
              </>
            ) : (
              <p className="gate-card__countdown">
                {/* At zero the page re-reads its data: the server decides, and the gate opens in place. */}
                <Countdown target={gate.opensAt} serverNow={serverNow} onZero={revalidate} label={`${gate.title} opens in`} />
              </p>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
