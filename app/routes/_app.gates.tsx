import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Countdown } from "~/components/participant/countdown";
import { GateArt } from "~/components/participant/gate-art";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { TitleBar } from "~/components/ui/title-bar";
import { listGates } from "~/modules/gates/gates.server";
import { requirePage } from "~/glue/auth.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.gates") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const now = new Date();
  return { gates: await listGates(now), serverNow: now.toISOString() };
}

export default function Gates() {
  const { gates, serverNow } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const { t } = useT();
  return (
    <main className="page participant-page">
      <TitleBar title={t("gates.title")} />
      <ul className="gate-grid list-reset">
        {gates.map((gate) => (
          <li key={gate.number} className={`card gate-card gate-card--${gate.number}${gate.open ? " gate-card--open" : ""}`}>
            <GateArt gate={gate.number} className="gate-card__art" />
            <h2 className="gate-card__title">{gate.title}</h2>
            {gate.open ? (
              <>
                <p>{gate.description}</p>
                <ActionLink to={`/gate/${gate.number}`} aria-label={t("common.nextTo", { name: gate.title })}>
                  {t("common.next")}
                </ActionLink>
              </>
            ) : (
              <p className="gate-card__countdown">
                {/* At zero the page re-reads its data: the server decides, and the gate opens in place. */}
                <Countdown target={gate.opensAt} serverNow={serverNow} onZero={revalidate} label={t("gates.opensIn", { name: gate.title })} />
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
