import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatPoints, formatSignedPoints } from "~/components/realtime/format";
import { RouteErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import { getStatus } from "~/modules/participant/status.server";
import { requirePage } from "~/glue/auth.server";

export const meta: MetaFunction = () => [{ title: "Status · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  // Frozen: the rank is the frozen one, the team's own points stay live (docs/domain.md). Only the
  // viewer's own team's awards, those that count.
  const { team, frozen, awards } = await getStatus({ id: user.id, role: user.role, teamId: user.teamId });
  return {
    userName: user.name,
    teamName: user.teamName,
    frozen,
    standing: team ? { rank: team.rank, categories: team.categories, total: team.totalScore } : null,
    awards: awards.map((award) => ({ id: award.id, points: award.points, category: award.category, reason: award.reason })),
  };
}

const order = ["CS", "AI", "PS", "GD"] as const;

export default function Status() {
  const { userName, teamName, frozen, standing, awards } = useLoaderData<typeof loader>();
  return (
    <main className="page page--narrow participant-page">
      <TitleBar title="Status" />
      <section className="card status-card" aria-label="Your team">
        <p className="status-card__rank">
          <span className="muted">Rank</span>
          <strong>{standing && standing.rank > 0 ? `#${standing.rank}` : "—"}</strong>
        </p>
        {frozen ? <p className="muted text-center">The scoreboard is frozen: the rank is the frozen one.</p> : null}
        <dl className="status-card__facts">
          <div>
            <dt>User</dt>
            <dd>{userName}</dd>
          </div>
          <div>
            <dt>Team</dt>
            <dd>{teamName ?? "No team"}</dd>
          </div>
          {order.map((category) => (
            <div key={category}>
              <dt>{category}</dt>
              <dd>{formatPoints(standing?.categories[category] ?? 0)}</dd>
            </div>
          ))}
          <div className="status-card__total">
            <dt>Total points</dt>
            <dd>{formatPoints(standing?.total ?? 0)}</dd>
          </div>
        </dl>
        {awards.length ? (
          <section className="status-awards" aria-labelledby="status-awards-title">
            <h2 id="status-awards-title" className="status-awards__title">
              Awards
            </h2>
            <p className="muted status-awards__note">Given by the organisers; already in the points above.</p>
            <ul className="status-awards__list">
              {awards.map((award) => (
                <li key={award.id} className="status-award">
                  <strong className={`status-award__points ${award.points > 0 ? "status-award__points--plus" : "status-award__points--minus"}`}>
                    {formatSignedPoints(award.points)}
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
