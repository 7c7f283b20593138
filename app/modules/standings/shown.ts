/**
 * What a `teams:update` shows of a team: its standing without the update counter (`version`, which grows with
 * every recompute) and without the rank (where the team stands depends on the others; clients place it). Two
 * standings with the same text look the same to every client, so the job publishes only when this changes
 * (the text is kept in `standings.shown`, written in the job's own transaction). Keys in one fixed order.
 */
import type { TeamStanding } from "../realtime/events.ts";

export function shownOf(team: Omit<TeamStanding, "rank" | "version">): string {
  const { id, name, totalScore, categories, solvedCount, reachedAt, division } = team;
  return JSON.stringify({ id, name, totalScore, categories: { AI: categories.AI, CS: categories.CS, PS: categories.PS, GD: categories.GD }, solvedCount, reachedAt, division });
}
