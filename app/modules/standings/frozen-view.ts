/**
 * The frozen-board rule, in one place (docs/domain.md "Freeze"): who sees live points and who sees the
 * board as it stood at the freeze. Everything that shows points asks here: the scoreboard and its API
 * feed, the status page, the score chart, the live updates the standings job broadcasts.
 *
 * - Not frozen: everyone sees live standings.
 * - Frozen: admins and judges still see live standings. A participant sees the frozen board, except
 *   their own team's points, which stay live, shown at the team's frozen rank; a team created after the
 *   freeze is listed last, unranked (rank 0), never with its live rank. Other teams' live updates do not
 *   reach participants, and their chart lines stop at the freeze.
 */
import type { Role } from "../auth/access.ts";
import type { TeamStanding } from "../realtime/events.ts";

/** The rank of a team that joined after the freeze: not on the frozen board, so it has none to show. */
export const UNRANKED = 0;

/** The roles that see live standings even while the board is frozen. */
export const LIVE_WHILE_FROZEN: readonly Role[] = ["admin", "judge"];

export interface Viewer {
  id: number;
  role: Role;
  teamId: number | null;
}

/** Whether this viewer sees every team's live points. */
export function seesLiveBoard(role: Role, frozen: boolean): boolean {
  return !frozen || LIVE_WHILE_FROZEN.includes(role);
}

export interface FreezeState {
  frozen: boolean;
  /** Live, in rank order. */
  board: readonly TeamStanding[];
  /** While frozen: the board as it stood at the freeze. */
  frozenBoard: readonly TeamStanding[] | null;
}

export interface ViewedBoard {
  teams: TeamStanding[];
  frozen: boolean;
  ownTeamId: number | null;
  /** Whether every team's points are live for this viewer (otherwise only their own team's). */
  live: boolean;
}

/** The board this viewer sees. A live board comes back as the very array given (callers share its encoding). */
export function boardForViewer(state: FreezeState, viewer: Viewer): ViewedBoard {
  const ownTeamId = viewer.teamId;
  if (seesLiveBoard(viewer.role, state.frozen)) return { teams: state.board as TeamStanding[], frozen: state.frozen, ownTeamId, live: true };
  const live = state.board.find((team) => team.id === ownTeamId);
  const frozenBoard = state.frozenBoard ?? [];
  const teams = frozenBoard.map((team) => (live && team.id === live.id ? { ...live, rank: team.rank } : team));
  if (live && !frozenBoard.some((team) => team.id === live.id)) teams.push({ ...live, rank: UNRANKED });
  return { teams, frozen: true, ownTeamId, live: false };
}

/**
 * The live update a frozen team's own members receive: its live points at its frozen rank (`frozenRank`
 * null: the team is not on the frozen board).
 */
export function ownUpdateWhileFrozen(team: TeamStanding, frozenRank: number | null): TeamStanding {
  return { ...team, rank: frozenRank ?? UNRANKED };
}

/**
 * Whose chart lines stop at the freeze for this viewer: null when every line is live, else every team's
 * but the viewer's own.
 */
export function chartCutFor(viewer: Viewer, frozen: boolean): { ownTeamId: number | null } | null {
  return seesLiveBoard(viewer.role, frozen) ? null : { ownTeamId: viewer.teamId };
}
