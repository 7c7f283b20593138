import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { formatPoints } from "~/components/realtime/format";
import { LiveIndicator } from "~/components/realtime/live-indicator";
import { isMedalPlace, Medal } from "~/components/realtime/medal";
import { useSocketEvent } from "~/components/realtime/socket-provider";
import { RouteErrorPage } from "~/components/status-page";
import { ActionLink } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { TitleBar } from "~/components/ui/title-bar";
import { applyTeamUpdate, type TeamStanding } from "~/modules/realtime/events";
import { getScoreboardJson } from "~/modules/standings/scoreboard.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Scoreboard · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // The teams come as one JSON string shared by every viewer of the live board (decoded below).
  const board = await getScoreboardJson({ id: user.id, role: user.role, teamId: user.teamId });
  // While frozen, participants get a frozen board (and no live updates but their own team's);
  // admins and judges keep seeing live standings (DOMAIN.md).
  return { ...board, liveForViewer: !board.frozen || user.role !== "participant" };
}

type Category = keyof TeamStanding["categories"];

/** Spec order AI, CS, PS, GD; labels from DOMAIN.md ("otherwise the raw value" for AI). */
const categories: ReadonlyArray<{ key: Category; title: string | null }> = [
  { key: "AI", title: null },
  { key: "CS", title: "Cyber Security" },
  { key: "PS", title: "Problem Solving" },
  { key: "GD", title: "Design" },
];

const FLASH_MS = 1600;

const parseTeams = (json: string) => JSON.parse(json) as TeamStanding[];

export default function Scoreboard() {
  const data = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();

  // Live state starts from the loader and re-syncs whenever the loader runs again
  // (reconnect, standings:refresh, navigation): events are hints, the loader is the truth.
  const [teams, setTeams] = useState<TeamStanding[]>(() => parseTeams(data.teamsJson));
  const [source, setSource] = useState(data);
  if (source !== data) {
    setSource(data);
    setTeams(parseTeams(data.teamsJson));
  }

  const [flashing, setFlashing] = useState<ReadonlySet<number>>(() => new Set());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const flash = (teamId: number) => {
    setFlashing((current) => new Set(current).add(teamId));
    clearTimeout(timers.current.get(teamId));
    timers.current.set(
      teamId,
      setTimeout(() => {
        timers.current.delete(teamId);
        setFlashing((current) => {
          const next = new Set(current);
          next.delete(teamId);
          return next;
        });
      }, FLASH_MS),
    );
  };

  const [ownNews, setOwnNews] = useState("");

  useSocketEvent("teams:update", (update) => {
    if (data.liveForViewer) {
      setTeams((current) => applyTeamUpdate(current, update));
    } else if (update.id === data.ownTeamId) {
      // Frozen: the team still sees its own points, in its frozen place.
      setTeams((current) =>
        current.map((team) =>
          team.id === update.id
            ? { ...team, totalScore: update.totalScore, categories: update.categories, solvedCount: update.solvedCount }
            : team,
        ),
      );
    } else {
      return;
    }
    flash(update.id);
    if (update.id === data.ownTeamId) {
      const rank = data.liveForViewer ? ` Rank ${update.rank}.` : "";
      setOwnNews(`Your team now has ${formatPoints(update.totalScore)} points.${rank}`);
    }
  });

  useSocketEvent("standings:refresh", () => revalidate());

  return (
    <main className="page scoreboard" aria-labelledby="scoreboard-title">
      <TitleBar title="Scoreboard" id="scoreboard-title" />
      <p className="scoreboard__thanks">Thank you to every team, mentor and judge who made this event possible.</p>

      {data.frozen ? (
        <p className="scoreboard__frozen" role="note">
          <strong>Scoreboard frozen.</strong>{" "}
          {data.liveForViewer
            ? "Participants see the standings as they were at the freeze; you see live standings."
            : "Other teams stay as they stood at the freeze until the organisers lift it. Your own points stay live."}
        </p>
      ) : null}

      {/* A score-over-time chart (standings history) can sit here later; the table stays the accessible source. */}

      <div className="scoreboard__bar">
        <LiveIndicator />
      </div>

      <div className="table-wrap scoreboard__wrap">
        <table className="table scoreboard__table">
          <caption>
            Teams ranked by total points{data.frozen && !data.liveForViewer ? " (frozen)" : ""}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="scoreboard__rank-col">
                Rank
              </th>
              <th scope="col">Team</th>
              {categories.map((category) => (
                <th key={category.key} scope="col" className="num scoreboard__cat">
                  {category.title ? <abbr title={category.title}>{category.key}</abbr> : category.key}
                </th>
              ))}
              <th scope="col" className="num">
                Solved
              </th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.length === 0 ? (
              <tr>
                <td colSpan={4 + categories.length} className="scoreboard__empty">
                  No teams on the board yet.
                </td>
              </tr>
            ) : (
              teams.map((team) => {
                const own = team.id === data.ownTeamId;
                return (
                  <tr
                    key={team.id}
                    className={[
                      "scoreboard__row",
                      own ? "scoreboard__row--own" : null,
                      isMedalPlace(team.rank) ? `scoreboard__row--podium scoreboard__row--place-${team.rank}` : null,
                      flashing.has(team.id) ? "scoreboard__row--updated" : null,
                    ]
                      .filter(Boolean)
                      .join(" ")}
                  >
                    <td className="scoreboard__rank">
                      {isMedalPlace(team.rank) ? (
                        <Medal place={team.rank} />
                      ) : (
                        <span className="scoreboard__position">{team.rank}</span>
                      )}
                    </td>
                    <th scope="row" className="scoreboard__team">
                      <span className="scoreboard__name">{team.name}</span>
                      {own ? <span className="scoreboard__you"> (your team)</span> : null}
                      <span className="scoreboard__breakdown">
                        {categories.map((category) => (
                          <span key={category.key}>
                            {category.key} {formatPoints(team.categories[category.key])}
                          </span>
                        ))}
                      </span>
                    </th>
                    {categories.map((category) => (
                      <td key={category.key} className="num scoreboard__cat">
                        {formatPoints(team.categories[category.key])}
                      </td>
                    ))}
                    <td className="num">{team.solvedCount}</td>
                    <td className="num scoreboard__total">{formatPoints(team.totalScore)}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {ownNews}
      </div>
    </main>
  );
}

/** Spec 8: "Error loading teams" when the board cannot be read; role errors keep their own page. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.status === 403 || error.status === 404)) return <RouteErrorPage />;
  return (
    <main className="page scoreboard" aria-labelledby="scoreboard-title">
      <TitleBar title="Scoreboard" id="scoreboard-title" />
      <Message tone="error">Error loading teams</Message>
      <p className="text-center">
        <ActionLink to="/scoreboard" reloadDocument variant="subtle">
          Try again
        </ActionLink>
      </p>
    </main>
  );
}
