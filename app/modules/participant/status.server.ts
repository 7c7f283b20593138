/** What /status shows: the team's standing in the board the viewer sees (app/modules/standings/frozen-view.ts decides which) and its awards. */
import { teamAwards, type TeamAward } from "../awards/awards.server.ts";
import { getScoreboardJson, type Viewer } from "../standings/scoreboard.server.ts";

/**
 * The board the viewer sees, as the scoreboard page gets it (one JSON string; the live one is shared by every
 * viewer), so that the page keeps the team's rank live as other teams move: a rank is a place among the
 * others. Only what the scoreboard already shows this viewer; while frozen, the frozen board with the team's
 * own points live. A board of more than `WHOLE_BOARD_MAX` teams is not sent whole (the page shows only the
 * team's own row): the team's row alone, as a window the page reads again when an update may move it
 * (docs/decisions/026-scoreboard-at-scale.md). And the awards that count for the viewer's own team (not
 * revoked), newest first. A user without a team gets neither (an empty board). `knownAwards`: the team's
 * awards as the request reads them (with the badges), awaited beside the board; undefined: read here.
 */
export async function getStatus(viewer: Viewer, knownAwards: Promise<TeamAward[] | undefined> = Promise.resolve(undefined)) {
  const teamId = viewer.teamId;
  if (teamId === null) return { board: { frozen: false, live: true, ownTeamId: null, teamsJson: "[]", window: null }, awards: [] };
  const [{ frozen, live, ownTeamId, teamsJson, window }, awards] = await Promise.all([
    getScoreboardJson(viewer, 0, null, "own"),
    knownAwards.then((rows) => rows ?? teamAwards(teamId)),
  ]);
  return { board: { frozen, live, ownTeamId, teamsJson, window: window && { offset: window.offset, limit: window.limit, ownRow: true } }, awards };
}
