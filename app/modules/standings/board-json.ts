/**
 * A board's teams as its loader sends them (one JSON string, `getScoreboardJson`), decoded once per string
 * rather than once per render. Every viewer of the same page of the same board version gets the very same
 * string, and the server rendered each of them by decoding it again: 50 teams, 40–60 µs a page on this
 * machine, a few per cent of the scoreboard's document (docs/performance-log.md, "The load generator off the
 * server's CPU", its second change).
 *
 * Keyed by the whole string, so a viewer can only get back what their own string says: a board that differs
 * for one viewer (their own team live on a frozen board, their own row) is a string of its own. What is handed
 * out is frozen, the array and every team in it, so that no render can change what the next viewer is given;
 * the board's updates already make new arrays and objects (board-window.ts, frozen-view.ts, ranking.ts).
 */
import type { TeamStanding } from "../realtime/events.ts";

/**
 * A board as a page holds it: never changed in place (a live update makes a new one), and typed so, since the
 * board decoded from the loader's string is shared and frozen: a change in place would throw.
 */
export type Board = ReadonlyArray<Readonly<TeamStanding>>;

/** The boards decoded, by their string; the least recently asked for goes first. A few pages, divisions and versions at once. */
const KEPT = 16;
const decoded = new Map<string, Board>();

export function parseBoardJson(json: string): Board {
  const known = decoded.get(json);
  if (known) {
    // Kept as the most recent: a board every viewer shares stays while boards of one viewer only (their own row,
    // their own team live on a frozen board) come and go.
    decoded.delete(json);
    decoded.set(json, known);
    return known;
  }
  const teams = JSON.parse(json) as TeamStanding[];
  for (const team of teams) {
    Object.freeze(team.categories);
    Object.freeze(team);
  }
  Object.freeze(teams);
  if (decoded.size >= KEPT) decoded.delete(decoded.keys().next().value!);
  decoded.set(json, teams);
  return teams;
}
