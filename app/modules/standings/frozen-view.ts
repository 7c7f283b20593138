/**
 * The frozen-board rule, in one place (docs/domain.md "Freeze"): who sees live points and who sees the
 * board as it stood at the freeze. Everything that shows points asks here: the scoreboard and its API
 * feed, the status page, the score chart, the live updates the standings job broadcasts.
 *
 * - Not frozen: everyone sees live standings.
 * - Frozen: admins and judges still see live standings. A participant sees the frozen board, except
 *   their own team's points, which stay live, shown at the team's frozen rank; a team created after the
 *   freeze is listed last, unranked (rank 0), never with its live rank. Their own points count a dynamic flag
 *   challenge's solves at its value as of the freeze (`own`: ./frozen-values.server.ts), so no solve made after
 *   the freeze shows through the decay of their own points. Other teams' live updates do not
 *   reach participants, and their chart lines stop at the freeze. The category top 3 keeps the places
 *   of the freeze, the team's own entry showing its live points.
 *
 * Where the rule is also needed in SQL, its SQL form is written here beside its code form, and
 * tests/integration/freeze-rule.test.ts checks that they agree: a team's frozen rank (`frozenRankOf`,
 * `frozenRankSql`: the standings job reads it in Postgres) and where a chart line stops (`chartLineEnd`,
 * `chartCutAtSql` / `chartLineEndSql`: the chart's read). Who hears a team's live update is
 * `rolesSeeingLiveBoard` (app/modules/realtime/broadcast.server.ts sends to their rooms); a page that holds a
 * board takes an update through `applyUpdateForViewer` (app/components/realtime/live-standings.ts), and the
 * chart only the updates `seesUpdate` lets through. Setting the freeze (the flag and the board it keeps) is
 * ./freeze.server.ts.
 *
 * No server-only import: the browser bundles this file (drizzle-orm declares itself free of side effects, so
 * the SQL helpers are dropped from that bundle; the SQL forms take the columns they read as arguments).
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { roles, type Role } from "../auth/access.ts";
import { applyTeamUpdateIn, type TeamStanding } from "../realtime/events.ts";
import { categoryLeaders, type CategoryLeaders } from "./category-leaders.ts";

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

/** The roles that hear every team's live update (`teams:update`): every role while live, else LIVE_WHILE_FROZEN. */
export function rolesSeeingLiveBoard(frozen: boolean): Role[] {
  return roles.filter((role) => seesLiveBoard(role, frozen));
}

export interface FreezeState {
  frozen: boolean;
  /** Live, in rank order. */
  board: readonly TeamStanding[];
  /** While frozen: the board as it stood at the freeze. */
  frozenBoard: readonly TeamStanding[] | null;
  /**
   * While frozen: a team's own points as its members see them, where they differ from its live points (its
   * dynamic flag solves at their values as of the freeze: ./frozen-values.server.ts). Absent: the live ones.
   */
  own?: ReadonlyMap<number, OwnPoints>;
}

/** A team's points as its own members see them while frozen (the rest of its standing is its live one). */
export type OwnPoints = Pick<TeamStanding, "totalScore" | "categories">;

/** The team's live standing with its own points while frozen put in (the very standing given when it has none). */
export function withOwnPoints(team: TeamStanding, own: OwnPoints | null | undefined): TeamStanding {
  return own ? { ...team, totalScore: own.totalScore, categories: own.categories } : team;
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
  const liveRow = state.board.find((team) => team.id === ownTeamId);
  const live = liveRow && withOwnPoints(liveRow, state.own?.get(liveRow.id));
  const frozenBoard = state.frozenBoard ?? [];
  const teams = frozenBoard.map((team) => (live && team.id === live.id ? { ...live, rank: team.rank } : team));
  if (live && !frozenBoard.some((team) => team.id === live.id)) teams.push({ ...live, rank: UNRANKED });
  return { teams, frozen: true, ownTeamId, live: false };
}

/** A team's rank on the frozen board: null while the board is live (`frozenBoard` null) or when the team is not on it. */
export function frozenRankOf(frozenBoard: readonly Pick<TeamStanding, "id" | "rank">[] | null, teamId: number): number | null {
  return frozenBoard?.find((team) => team.id === teamId)?.rank ?? null;
}

/**
 * `frozenRankOf` in SQL, over the settings row's columns (a query that reads `event_settings`): the team's
 * rank on the frozen board, null while live or off it. Picked out in Postgres: the frozen board of 10,000
 * teams is over a megabyte, too much to ship for one number.
 */
export function frozenRankSql(settings: { frozen: SQLWrapper; frozenBoard: SQLWrapper }, teamId: SQLWrapper): SQL<number | null> {
  return sql<number | null>`(select (entry ->> 'rank')::int from jsonb_array_elements(${settings.frozenBoard}) entry
      where ${settings.frozen} and (entry ->> 'id')::int = ${teamId} limit 1)`;
}

/**
 * The live update a frozen team's own members receive: its live points (its own points while frozen, `own`,
 * where they differ) at its frozen rank (`frozenRank` null: the team is not on the frozen board).
 */
export function ownUpdateWhileFrozen(team: TeamStanding, frozenRank: number | null, own: OwnPoints | null = null): TeamStanding {
  return { ...withOwnPoints(team, own), rank: frozenRank ?? UNRANKED };
}

/** Whose chart lines stop at the freeze for a viewer: every team's but `ownTeamId`'s. */
export interface ChartCut {
  ownTeamId: number | null;
}

/**
 * Whose chart lines stop at the freeze for this viewer: null when every line is live, else every team's
 * but the viewer's own.
 */
export function chartCutFor(viewer: Viewer, frozen: boolean): ChartCut | null {
  return seesLiveBoard(viewer.role, frozen) ? null : { ownTeamId: viewer.teamId };
}

/** Where a team's chart line stops for a viewer: at the freeze (`cutAt`) for a line the cut stops, else now. */
export function chartLineEnd<T>(cut: ChartCut | null, teamId: number, ends: { cutAt: T; nowAt: T }): T {
  return cut !== null && teamId !== cut.ownTeamId ? ends.cutAt : ends.nowAt;
}

/** The instant of the cut in SQL: the freeze's (`frozenAt`, the settings row's; now if it has none) with a cut, else now. */
export function chartCutAtSql(cut: ChartCut | null, frozenAt: SQLWrapper): SQL {
  return sql`case when ${cut !== null} then coalesce(${frozenAt}, now()) else now() end`;
}

/** `chartLineEnd` in SQL: the instant a team's line stops, from the instants now and of the cut (`chartCutAtSql`). */
export function chartLineEndSql(cut: ChartCut | null, teamId: SQLWrapper, ends: { cutAt: SQLWrapper; nowAt: SQLWrapper }): SQL {
  return sql`case when ${cut === null} or ${teamId} = ${cut?.ownTeamId ?? null} then ${ends.nowAt} else ${ends.cutAt} end`;
}

/** What a page holding a viewer's board knows of the viewer: whether their board is live, and their team. */
export interface BoardView {
  live: boolean;
  ownTeamId: number | null;
  /** The division whose board this is (app/modules/standings/divisions.ts); absent or null: every team's. */
  division?: string | null;
}

/** Whether a live update concerns this viewer's board: every team's on a live board, else only their own team's. */
export function seesUpdate(update: TeamStanding, view: BoardView): boolean {
  return view.live || update.id === view.ownTeamId;
}

/**
 * One live update applied to the board a viewer's page holds (the scoreboard, /status): a live board takes
 * it and re-sorts (`applyTeamUpdateIn`: a division's board only its division's teams); a frozen participant's board takes only their own team's new points,
 * solved count and version, in its frozen place (a team not on the board joins it last, unranked). The very
 * board given comes back when nothing changes for this viewer (another team's update while frozen, or one
 * older than what the board holds).
 */
export function applyUpdateForViewer(board: readonly TeamStanding[], update: TeamStanding, view: BoardView): readonly TeamStanding[] {
  if (!seesUpdate(update, view)) return board;
  const division = view.division ?? null;
  if (view.live) return applyTeamUpdateIn(board, update, division);
  const current = board.find((team) => team.id === update.id);
  // A team that joined after the freeze, last and unranked: on its own division's board or the overall one.
  if (!current) return division === null || update.division === division ? [...board, { ...update, rank: UNRANKED }] : board;
  if (current.version > update.version) return board;
  const { totalScore, categories, solvedCount, version } = update;
  return board.map((team) => (team === current ? { ...team, totalScore, categories, solvedCount, version } : team));
}

/**
 * The category places a viewer's page starts from: null for whoever sees the live board (the page ranks the
 * board it holds, as it moves); for a frozen participant, the places on the board as it stood at the freeze
 * (the page shows the team's own live points in them: `leadersOfBoard`). `rank` lets a caller cache the ranking.
 */
export function categoryLeadersForViewer(
  state: FreezeState,
  viewer: Viewer,
  rank: (board: readonly TeamStanding[]) => CategoryLeaders = categoryLeaders,
): CategoryLeaders | null {
  if (seesLiveBoard(viewer.role, state.frozen)) return null;
  return rank(placesBoardFor(state, false));
}

/** The board a viewer's category places are ranked on: the live board for whoever sees it live, else the board at the freeze. */
export function placesBoardFor(state: FreezeState, live: boolean): readonly TeamStanding[] {
  return live ? state.board : (state.frozenBoard ?? []);
}

/** A stretch of a board: the teams at positions `offset` to `offset + limit - 1` (0-based; `limit` null: to the end). */
export interface BoardRange {
  offset: number;
  limit: number | null;
}

/** How a caller reads a shared board: a stretch of it (a caller may keep one per board), and a team's position (-1: absent). */
export interface BoardReader {
  slice(board: readonly TeamStanding[], range: BoardRange): readonly TeamStanding[];
  positionOf(board: readonly TeamStanding[], teamId: number): number;
}

export const plainReader: BoardReader = {
  slice: (board, { offset, limit }) => board.slice(offset, limit === null ? undefined : offset + limit),
  positionOf: (board, teamId) => board.findIndex((team) => team.id === teamId),
};

export interface ViewedWindow {
  /** `boardForViewer(state, viewer).teams` in `range`, made without the whole board. */
  teams: readonly TeamStanding[];
  /** The stretch of the shared board the window starts from: `teams === base` when none of the viewer's own (live) figures is in it. */
  base: readonly TeamStanding[];
  /** How many teams the viewer's whole board has. */
  total: number;
  /** The viewer's own team as their board shows it (live points; a frozen participant's at the frozen rank), and its position on that board; null without one on it. */
  own: { team: TeamStanding; position: number } | null;
  frozen: boolean;
  ownTeamId: number | null;
  live: boolean;
}

/**
 * A stretch of the board this viewer sees (the same teams as `boardForViewer(...).teams.slice(...)`), read
 * from the shared boards: the live board's stretch for whoever sees it live, else the frozen board's with
 * the viewer's own team's live figures put in (or added last, unranked). Everything but the own team comes
 * from `reader`, so a caller that keeps stretches per board version shares them between viewers.
 */
export function windowForViewer(state: FreezeState, viewer: Viewer, range: BoardRange, reader: BoardReader = plainReader): ViewedWindow {
  const ownTeamId = viewer.teamId;
  const livePosition = ownTeamId === null ? -1 : reader.positionOf(state.board, ownTeamId);
  const liveOwn = livePosition < 0 ? undefined : state.board[livePosition];
  if (seesLiveBoard(viewer.role, state.frozen)) {
    const base = reader.slice(state.board, range);
    const own = liveOwn ? { team: liveOwn, position: livePosition } : null;
    return { teams: base, base, total: state.board.length, own, frozen: state.frozen, ownTeamId, live: true };
  }
  const frozenBoard = state.frozenBoard ?? [];
  const base = reader.slice(frozenBoard, range);
  const frozenPosition = liveOwn ? reader.positionOf(frozenBoard, liveOwn.id) : -1;
  const position = !liveOwn ? -1 : frozenPosition >= 0 ? frozenPosition : frozenBoard.length;
  const ownTeam = liveOwn ? { ...withOwnPoints(liveOwn, state.own?.get(liveOwn.id)), rank: frozenPosition >= 0 ? frozenBoard[frozenPosition].rank : UNRANKED } : null;
  const total = frozenBoard.length + (liveOwn && frozenPosition < 0 ? 1 : 0);
  const end = range.limit === null ? Infinity : range.offset + range.limit;
  let teams = base;
  if (ownTeam && position >= range.offset && position < end) {
    teams = frozenPosition >= 0 ? base.map((team) => (team.id === ownTeam.id ? ownTeam : team)) : [...base, ownTeam];
  }
  return { teams, base, total, own: ownTeam ? { team: ownTeam, position } : null, frozen: true, ownTeamId, live: false };
}
