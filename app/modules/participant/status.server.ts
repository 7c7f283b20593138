/** What /status shows: the team's standing (app/modules/standings/frozen-view.ts decides which) and its awards. */
import { teamAwards, type TeamAward } from "../awards/awards.server.ts";
import { getTeamStanding, type Viewer } from "../standings/scoreboard.server.ts";

/**
 * The viewer's own team only: its standing (live points; while frozen, the frozen rank) and the awards that
 * count for it (not revoked), newest first. A user without a team sees neither.
 */
export async function getStatus(viewer: Viewer) {
  const [{ team, frozen }, awards] = await Promise.all([getTeamStanding(viewer), viewer.teamId === null ? ([] as TeamAward[]) : teamAwards(viewer.teamId)]);
  return { team, frozen, awards };
}
