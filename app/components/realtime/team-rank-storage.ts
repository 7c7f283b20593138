import { useEffect } from "react";

/** The original platform's localStorage key for the signed-in team's rank (docs/domain.md "Live events"). */
export const TEAM_RANK_STORAGE_KEY = "teamRank";

/**
 * Keeps the signed-in team's rank in localStorage `teamRank`, as the pages that hold the team's board show it
 * (the scoreboard and /status: from the page's data, then every live update). `undefined`: this page does not
 * know it (no team, or its data could not be read), so the stored rank is left alone; 0 (unranked: a team that
 * joined a frozen board) removes it.
 */
export function useStoredTeamRank(rank: number | undefined) {
  useEffect(() => {
    if (rank === undefined) return;
    try {
      if (rank > 0) window.localStorage.setItem(TEAM_RANK_STORAGE_KEY, String(rank));
      else window.localStorage.removeItem(TEAM_RANK_STORAGE_KEY);
    } catch {
      // Storage can be full or disabled (private mode): the page shows the rank all the same.
    }
  }, [rank]);
}

/** Signed out: the rank of the team that was signed in does not stay behind for the next person. */
export function useClearedTeamRank(signedIn: boolean) {
  useEffect(() => {
    if (signedIn) return;
    try {
      window.localStorage.removeItem(TEAM_RANK_STORAGE_KEY);
    } catch {
      // Nothing to clear.
    }
  }, [signedIn]);
}
