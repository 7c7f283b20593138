import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CountdownDigits, useCountdown } from "~/components/participant/countdown";
import { GateArt } from "~/components/participant/gate-art";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { TitleBar } from "~/components/ui/title-bar";
import { listGatesIn } from "~/modules/gates/gates.server";
import { languageOf } from "~/glue/language.server";
import { requirePage } from "~/glue/auth.server";
import { eventVersionsFor } from "~/glue/viewer-badges.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.gates") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const now = new Date();
  // Each gate's texts in the viewer's language (docs/domain.md "Event content in two languages").
  return { gates: await listGatesIn(languageOf(request), now, await eventVersionsFor(context, user, request)), serverNow: now.toISOString() };
}

export default function Gates() {
  const { gates, serverNow } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <main className="page participant-page">
      <TitleBar title={t("gates.title")} />
      <ul className="gate-grid list-reset">
        {gates.map((gate) => (
          <GateCard key={gate.number} gate={gate} serverNow={serverNow} />
        ))}
      </ul>
    </main>
  );
}

type GateItem = ReturnType<typeof useLoaderData<typeof loader>>["gates"][number];

/**
 * A closed gate's card counts down on the server's clock and turns into the open card by itself at the
 * server's instant (no reload: 500 waiting pages do not all ask at once). Its link still goes to the
 * server, which decides at load (docs/domain.md "Gates"). Without JavaScript the countdown stays as
 * rendered, and a reload shows the gate open.
 */
function GateCard({ gate, serverNow }: { gate: GateItem; serverNow: string }) {
  const left = useCountdown(gate.opensAt, serverNow);
  const open = gate.open || left === 0;
  const { t } = useT();
  return (
    <li className={`card gate-card gate-card--${gate.number}${open ? " gate-card--open" : ""}`}>
      <GateArt gate={gate.number} className="gate-card__art" />
      <h2 className="gate-card__title" dir="auto">
        {gate.title}
      </h2>
      {open ? (
        <>
          <p dir="auto">{gate.description}</p>
          <ActionLink to={`/gate/${gate.number}`} aria-label={t("common.nextTo", { name: gate.title })}>
            {t("common.next")}
          </ActionLink>
        </>
      ) : (
        <p className="gate-card__countdown">
          <CountdownDigits left={left} target={gate.opensAt} label={t("gates.opensIn", { name: gate.title })} />
        </p>
      )}
    </li>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
