import { useRevalidator } from "@remix-run/react";
import { useState } from "react";
import type { TeamStanding } from "~/modules/realtime/events";
import { parseBoardJson, type Board } from "~/modules/standings/board-json";
import { ownRowMayChange, refreshHeld, refreshOwnRow, windowMayChange } from "~/modules/standings/board-window";
import type { CategoryLeaders } from "~/modules/standings/category-leaders";
import { applyUpdateForViewer, seesUpdate } from "~/modules/standings/frozen-view";
import { useIdleRevalidate, useThrottled } from "./revalidate-on";
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
  /**
   * A big board's page (/scoreboard), or the own team's row (/status, `ownRow`): which rows `teamsJson` holds;
   * absent or null: the whole board.
   */
  window?: { offset: number; limit: number; ownRow?: boolean } | null;
  /** With `window`: the own team's neighbourhood when it is not on the page (held after the page's rows). */
  around?: readonly TeamStanding[];
  /** With `window`: the category top 3 the page shows (it cannot rank a board it does not hold). */
  categoryLeaders?: CategoryLeaders | null;
}

/** A page of a big board is read again at most this often while updates touch it (docs/performance-log.md). */
export const WINDOW_REFRESH_MS = 3000;
/** /status on a big board: its rank is read again at most this often while other teams pass it. */
export const OWN_ROW_REFRESH_MS = 10_000;

// Decoded once per string (board-json.ts): the same page of the same board is the same string for every viewer.
const parseTeams = (source: BoardSource): Board => {
  const teams = parseBoardJson(source.teamsJson);
  return source.window && source.around?.length ? [...teams, ...source.around] : teams;
};

/**
 * The board a page holds for its viewer, live: the one place the scoreboard and /status take `teams:update`
 * (and `teams:batch`, several at once)
 * (what a viewer's board takes is the frozen-board rule's, `applyUpdateForViewer`). It starts from the
 * loader's board and re-syncs whenever the loader runs again (reconnect, `standings:refresh` on a freeze,
 * unfreeze or rebuild, navigation): events are hints, the loader is the truth. The signed-in team's rank is
 * kept in localStorage `teamRank` as it moves (the overall rank: on a division's board, the rank there is
 * not the team's rank). `onUpdate` hears each update this viewer's board takes.
 *
 * A big board's page (`window`; /status: the own team's row alone) holds its rows and then the own team's neighbourhood (`around`): a held team's
 * new figures show at once, in its row; when an update may move the page's rows or ranks (board-window.ts),
 * the loader is read again, at most once every `WINDOW_REFRESH_MS`.
 */
export function useLiveStandings(source: BoardSource, onUpdate?: (update: TeamStanding) => void): Board {
  const { revalidate } = useRevalidator();
  const [teams, setTeams] = useState<Board>(() => parseTeams(source));
  const [synced, setSynced] = useState(source);
  if (synced !== source) {
    // Adjusting state during render (not in an effect), so the page never shows the older board.
    setSynced(source);
    setTeams(parseTeams(source));
  }
  // Never in the middle of a navigation (another page, a post): useIdleRevalidate waits for it to end.
  const refresh = useThrottled(useIdleRevalidate(), source.window?.ownRow ? OWN_ROW_REFRESH_MS : WINDOW_REFRESH_MS);

  const take = (update: TeamStanding) => {
    const division = source.division ?? null;
    const view = { live: source.liveForViewer, ownTeamId: source.ownTeamId, division };
    if (!seesUpdate(update, view)) return;
    if (source.window?.ownRow) {
      const own = teams.find((team) => team.id === source.ownTeamId);
      if (update.id === source.ownTeamId) {
        // Its rank comes with it; a team not yet held (new on the board) needs the read.
        if (own) setTeams((current) => refreshOwnRow(current, update));
        else refresh();
      } else if (view.live && ownRowMayChange(update, own)) refresh();
    } else if (source.window) {
      setTeams((current) => refreshHeld(current, update));
      // The own team's first update when the page holds none of it (a team new on the board): read it.
      if (update.id === source.ownTeamId && !teams.some((team) => team.id === update.id)) refresh();
      const held = { ...source.window, division, aroundCount: source.around?.length ?? 0 };
      if (view.live && windowMayChange(update, teams, held, source.categoryLeaders ?? null)) refresh();
    } else setTeams((current) => applyUpdateForViewer(current, update, view));
    // A team of another division changes nothing the page shows (one that left this board just leaves it).
    if (division === null || update.division === division) onUpdate?.(update);
  };
  useSocketEvent("teams:update", take);
  // Every solver of a dynamic challenge at once: each taken as its own update.
  useSocketEvent("teams:batch", (batch) => batch.teams.forEach(take));

  useSocketEvent("standings:refresh", () => revalidate());

  const overall = (source.division ?? null) === null;
  useStoredTeamRank(source.ownTeamId === null || !overall ? undefined : teams.find((team) => team.id === source.ownTeamId)?.rank);
  return teams;
}

