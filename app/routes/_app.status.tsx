import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatPoints } from "~/components/realtime/format";
import { RouteErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import { getTeamStanding } from "~/modules/standings/scoreboard.server";
import { requirePage } from "~/glue/auth.server";

export const meta: MetaFunction = () => [{ title: "Status · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  // Frozen: the rank is the frozen one, the team's own points stay live (docs/domain.md).
  const { team, frozen } = await getTeamStanding({ id: user.id, role: user.role, teamId: user.teamId });
  return {
    userName: user.name,
    teamName: user.teamName,
    frozen,
    standing: team ? { rank: team.rank, categories: team.categories, total: team.totalScore } : null,
  };
}

const order = ["CS", "AI", "PS", "GD"] as const;

export default function Status() {
  const { userName, teamName, frozen, standing } = useLoaderData<typeof loader>();
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
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
