import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import type { TeamStanding } from "~/modules/realtime/events";
import { applyUpdateForViewer, seesUpdate } from "~/modules/standings/frozen-view";
import { useSocketEvent } from "./socket-provider";
import { useStoredTeamRank } from "./team-rank-storage";

/** A viewer's board as a loader sends it (`getScoreboardJson`): the teams as one JSON string, and the view. */
export interface BoardSource {
  teamsJson: string;
  /** Whether every team's points are live for this viewer (otherwise only their own team's). */
  liveForViewer: boolean;
  ownTeamId: number | null;
  /** The division whose board the page shows (`?division=`); absent or null: every team's. */
  division?: string | null;
}

const parseTeams = (json: string) => JSON.parse(json) as TeamStanding[];

/**
 * The board a page holds for its viewer, live: the one place the scoreboard and /status take `teams:update`
 * (what a viewer's board takes is the frozen-board rule's, `applyUpdateForViewer`). It starts from the
 * loader's board and re-syncs whenever the loader runs again (reconnect, `standings:refresh` on a freeze,
 * unfreeze or rebuild, navigation): events are hints, the loader is the truth. The signed-in team's rank is
 * kept in localStorage `teamRank` as it moves (the overall rank: on a division's board, the rank there is
 * not the team's rank). `onUpdate` hears each update this viewer's board takes.
 */
export function useLiveStandings(source: BoardSource, onUpdate?: (update: TeamStanding) => void): TeamStanding[] {
  const { revalidate } = useRevalidator();
  const [teams, setTeams] = useState<TeamStanding[]>(() => parseTeams(source.teamsJson));
  const [synced, setSynced] = useState(source);
  if (synced !== source) {
    // Adjusting state during render (not in an effect), so the page never shows the older board.
    setSynced(source);
    setTeams(parseTeams(source.teamsJson));
  }

  useSocketEvent("teams:update", (update) => {
    const division = source.division ?? null;
    const view = { live: source.liveForViewer, ownTeamId: source.ownTeamId, division };
    if (!seesUpdate(update, view)) return;
    setTeams((current) => applyUpdateForViewer(current, update, view));
    // A team of another division changes nothing the page shows (one that left this board just leaves it).
    if (division === null || update.division === division) onUpdate?.(update);
  });

  useSocketEvent("standings:refresh", () => revalidate());

  const overall = (source.division ?? null) === null;
  useStoredTeamRank(source.ownTeamId === null || !overall ? undefined : teams.find((team) => team.id === source.ownTeamId)?.rank);
  return teams;
}
