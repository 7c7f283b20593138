/**
 * A division's board (docs/domain.md "Divisions"): the teams of one division, ranked among themselves by the
 * one ranking rule (./ranking.ts: total, then who reached it first, then the lower id; awards count as on the
 * overall board), so its ranks run 1..n and its medals go to its own top three. A team without a division is
 * on the overall board only.
 *
 * The freeze applies as on the overall board: the division's view of a frozen board is the frozen board's
 * teams that were in the division at the freeze, with their frozen figures, ranked among themselves; who sees
 * it is still the frozen-board rule's (./frozen-view.ts, applied to this state). No server-only import: the
 * page and the feed share it.
 */
import type { TeamStanding } from "../realtime/events.ts";
import type { FreezeState } from "./frozen-view.ts";
import { rankStandings } from "./ranking.ts";

export function inDivision(team: TeamStanding, division: string): boolean {
  // A board frozen before divisions existed carries none: such a team is in no division.
  return (team.division ?? null) === division;
}

/** The division's teams of a board (any order), ranked 1..n among themselves. */
export function divisionBoard(board: readonly TeamStanding[], division: string): TeamStanding[] {
  return rankStandings(board.filter((team) => inDivision(team, division)));
}

/** The freeze state of one division: its live board and, while frozen, its frozen board, each ranked within. */
export function divisionFreezeState(state: FreezeState, division: string): FreezeState {
  return {
    frozen: state.frozen,
    board: divisionBoard(state.board, division),
    frozenBoard: state.frozenBoard === null ? null : divisionBoard(state.frozenBoard, division),
    own: state.own,
  };
}
