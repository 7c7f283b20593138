/**
 * A big board shown a page at a time (/scoreboard above `WHOLE_BOARD_MAX` teams): the page holds its rows and
 * the viewer's own team's neighbourhood, not the board, so a live update cannot always be placed in it (a
 * team from below the page that passes it pushes every row down one, and the row that drops in is not held).
 * The page applies what it can (a held team's new figures, in place) and reads the page again when the rows
 * or their ranks may have moved. No server-only import: the page uses it.
 */
import type { TeamStanding } from "../realtime/events.ts";
import { CATEGORY_LEADERS, type CategoryLeaders } from "./category-leaders.ts";

export interface HeldWindow {
  /** The position of the page's first row (0: the top) and how many rows it has at most. */
  offset: number;
  limit: number;
  /** The division whose board this is; null: every team's. */
  division: string | null;
  /** Rows beyond the page: the own team's neighbourhood. */
  aroundCount: number;
}

/**
 * Whether a live update (on a live board) may change what a page of the board shows: a held team's row, the
 * rows and ranks of the page or of the own team's neighbourhood, or the category top 3. Errs towards yes
 * where the page cannot tell (a team's place before the update is known only for the teams it holds).
 */
export function windowMayChange(update: TeamStanding, held: readonly TeamStanding[], window: HeldWindow, leaders: CategoryLeaders | null): boolean {
  if (held.some((team) => team.id === update.id)) return true;
  if (leaders !== null && mayChangeLeaders(update, leaders)) return true;
  // A division's rank of the team is not in the update (it carries the overall one).
  if (window.division !== null) return update.division === window.division;
  // A team above the page (or above the own team) may have dropped below it: every row moves up one.
  if (window.offset > 0 || window.aroundCount > 0) return true;
  return update.rank <= window.offset + window.limit;
}

function mayChangeLeaders(update: TeamStanding, leaders: CategoryLeaders): boolean {
  for (const [category, places] of Object.entries(leaders) as Array<[keyof CategoryLeaders, CategoryLeaders[keyof CategoryLeaders]]>) {
    if (places.some((place) => place.id === update.id)) return true;
    const points = update.categories[category];
    if (points > 0 && (places.length < CATEGORY_LEADERS || points >= places[places.length - 1].points)) return true;
  }
  return false;
}

/** A held team's new figures, in its row as it stands (its place is the next read's); an older update changes nothing. */
export function refreshHeld(held: readonly TeamStanding[], update: TeamStanding): readonly TeamStanding[] {
  const current = held.find((team) => team.id === update.id);
  if (!current || current.version > update.version) return held;
  const { name, totalScore, categories, solvedCount, version, reachedAt } = update;
  return held.map((team) => (team.id === update.id ? { ...team, name, totalScore, categories, solvedCount, version, reachedAt } : team));
}

/**
 * /status above `WHOLE_BOARD_MAX` teams holds only the own team's row. Its own update carries its rank
 * (placed by the server; while frozen, its frozen rank) and is taken whole: no read. Another team's update can
 * move the own rank only if that team now stands at or above it (it may have passed the own team; one already
 * above that rose further cannot be told apart, so this errs towards yes); a team that fell from above to below
 * (a lowered score, a revoked award) is not seen until the next read.
 */
export function ownRowMayChange(update: TeamStanding, own: TeamStanding | undefined): boolean {
  if (!own) return update.rank > 0;
  return update.id !== own.id && update.rank > 0 && update.rank <= own.rank;
}

/** The own team's new figures and rank, in its row; an older update changes nothing. */
export function refreshOwnRow(held: readonly TeamStanding[], update: TeamStanding): readonly TeamStanding[] {
  const current = held.find((team) => team.id === update.id);
  if (!current || current.version > update.version) return held;
  return held.map((team) => (team.id === update.id ? { ...update } : team));
}
