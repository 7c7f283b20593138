import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { useLiveStandings } from "~/components/realtime/live-standings";
import { isServerAnswer, withRetries } from "~/components/refetch";
import { RouteErrorPage } from "~/components/status-page";
import { showAppToast } from "~/components/toaster";
import { TitleBar } from "~/components/ui/title-bar";
import { getStatus } from "~/modules/participant/status.server";
import { useOptionalUser } from "~/root";
import { requirePage } from "~/glue/auth.server";
import { pageReadFor } from "~/glue/viewer-badges.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.status") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const awardRows = pageReadFor(context, user, request, "teamAwards", 0).then((read) => read.rows);
  // The board the viewer sees (frozen: the frozen ranks, the team's own points live; docs/domain.md), kept
  // live on the page; only the viewer's own team's awards, those that count.
  const { board, awards } = await getStatus({ id: user.id, role: user.role, teamId: user.teamId }, awardRows);
  return {
    frozen: board.frozen,
    liveForViewer: board.live,
    ownTeamId: board.ownTeamId,
    teamsJson: board.teamsJson,
    window: board.window,
    awards: awards.map((award) => ({ id: award.id, points: award.points, category: award.category, reason: award.reason })),
    scoresFailed: false,
  };
}

/** What the page holds when the team's points could not be read again: nothing new (the page keeps what it showed). */
const scoresUnavailable = { frozen: false, liveForViewer: false, ownTeamId: null, teamsJson: "[]", window: null, awards: [], scoresFailed: true } as const;

/**
 * Reading the page again in the browser (a navigation, a reconnect, the board frozen or unfrozen) retries a
 * failed read 3 times (app/components/refetch.ts); if it still fails, the page stays, says so in a toast and
 * keeps the figures it showed. A redirect or a 4xx is the server's answer and is followed. The first load is
 * the server's render (no `hydrate`).
 */
export async function clientLoader({ serverLoader, request }: ClientLoaderFunctionArgs) {
  try {
    return await withRetries(() => serverLoader<typeof loader>(), { signal: request.signal });
  } catch (error) {
    if (isServerAnswer(error) || request.signal.aborted) throw error;
    console.error("status: the team's points could not be read", error);
    return scoresUnavailable;
  }
}

const order = ["CS", "AI", "PS", "GD"] as const;

export default function Status() {
  const data = useLoaderData<typeof clientLoader>();
  const user = useOptionalUser();
  // The last data that could be read: a failed re-read keeps the page as it was.
  const [shown, setShown] = useState(data);
  if (shown !== data && !data.scoresFailed) setShown(data);
  const teams = useLiveStandings(shown);
  const team = shown.ownTeamId === null ? undefined : teams.find((entry) => entry.id === shown.ownTeamId);
  const unknown = shown.scoresFailed;
  const { t } = useT();
  const format = useFormats();

  useEffect(() => {
    if (data.scoresFailed) showAppToast({ id: "status-scores-failed", type: "error", title: t("status.scoresFetchFailed") });
  }, [data, t]);

  const points = (value: number | undefined) => (unknown ? "—" : format.points(value ?? 0));
  return (
    <main className="page page--narrow participant-page">
      <TitleBar title={t("status.title")} />
      <section className="card status-card" aria-label={t("status.yourTeam")}>
        <p className="status-card__rank">
          <span className="muted">{t("scoreboard.rank")}</span>
          <strong className="ltr">{team && team.rank > 0 ? `#${team.rank}` : "—"}</strong>
        </p>
        {shown.frozen ? <p className="muted text-center">{t("status.frozen")}</p> : null}
        <dl className="status-card__facts">
          <div>
            <dt>{t("status.user")}</dt>
            <dd>
              <bdi>{user?.name}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t("scoreboard.team")}</dt>
            <dd>{user?.teamName ? <bdi>{user.teamName}</bdi> : t("status.noTeam")}</dd>
          </div>
          {order.map((category) => (
            <div key={category}>
              <dt>{category}</dt>
              <dd>
                <span className="ltr">{points(team?.categories[category])}</span>
              </dd>
            </div>
          ))}
          <div className="status-card__total">
            <dt>{t("status.totalPoints")}</dt>
            <dd>
              <span className="ltr">{points(team?.totalScore)}</span>
            </dd>
          </div>
        </dl>
        {shown.awards.length ? (
          <section className="status-awards" aria-labelledby="status-awards-title">
            <h2 id="status-awards-title" className="status-awards__title">
              {t("status.awards")}
            </h2>
            <p className="muted status-awards__note">{t("status.awardsNote")}</p>
            <ul className="status-awards__list">
              {shown.awards.map((award) => (
                <li key={award.id} className="status-award">
                  <strong className={`status-award__points ${award.points > 0 ? "status-award__points--plus" : "status-award__points--minus"}`}>
                    <span className="ltr">{format.signedPoints(award.points)}</span>
                  </strong>
                  <span className="status-award__reason" dir="auto">
                    {award.reason}
                  </span>
                  {award.category ? <span className="status-award__category">{award.category}</span> : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
