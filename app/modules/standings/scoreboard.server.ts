/**
 * The scoreboard read path: Redis only (the snapshot the standings writer keeps). If Redis lost it
 * (a flush, a restart without persistence), the first reader rebuilds it from Postgres once.
 */
import type { Role } from "../auth/access.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { getRedis } from "../../utils/redis.server.ts";
import { isSnapshotReady, readSnapshotCached, type Snapshot } from "./snapshot.server.ts";
import { rebuildStandings } from "./rebuild.server.ts";

export interface Viewer {
  id: number;
  role: Role;
  teamId: number | null;
}

export interface Scoreboard {
  teams: TeamStanding[];
  frozen: boolean;
  ownTeamId: number | null;
}

let rebuilding: Promise<unknown> | null = null;

/** One rebuild per process at a time; the others wait for it. */
function rebuildOnce() {
  rebuilding ??= rebuildStandings().finally(() => {
    rebuilding = null;
  });
  return rebuilding;
}

export async function readLiveSnapshot(): Promise<Snapshot> {
  const snapshot = await readSnapshotCached(getRedis());
  if (snapshot.ready) return snapshot;
  await rebuildOnce();
  return readSnapshotCached(getRedis());
}

/**
 * Before a team is placed in the Redis order: if Redis came back empty, rebuild the whole snapshot first.
 * Placing one team into an empty order would publish a rank counted among the few teams placed since
 * (and leave the others off the board until a reader noticed); found by the Redis restart drill.
 */
export async function ensureSnapshotReady(): Promise<void> {
  if (!(await isSnapshotReady(getRedis()))) await rebuildOnce();
}

/** The rank of a team that joined after the freeze: not on the frozen board, so it has none to show. */
export const UNRANKED = 0;

/**
 * What a viewer sees. Admins and judges always see live standings. While frozen, a participant
 * sees the frozen board, except their own team's points, which stay live (with the frozen rank; a team
 * created after the freeze is listed last, unranked, never with its live rank).
 */
export function boardForViewer(snapshot: Snapshot, viewer: Viewer): Scoreboard {
  const ownTeamId = viewer.teamId;
  if (!snapshot.frozen || viewer.role !== "participant") return { teams: snapshot.board, frozen: snapshot.frozen, ownTeamId };
  const live = snapshot.board.find((team) => team.id === ownTeamId);
  const frozenBoard = snapshot.frozenBoard ?? [];
  const teams = frozenBoard.map((team) => (live && team.id === live.id ? { ...live, rank: team.rank } : team));
  if (live && !frozenBoard.some((team) => team.id === live.id)) teams.push({ ...live, rank: UNRANKED });
  return { teams, frozen: true, ownTeamId };
}

export async function getScoreboard(viewer: Viewer): Promise<Scoreboard> {
  return boardForViewer(await readLiveSnapshot(), viewer);
}

// The live board's JSON, made once per snapshot version (the snapshot object changes with it).
const liveBoardJson = new WeakMap<Snapshot, string>();

/**
 * The board as one JSON string, for the scoreboard page, and its first `leaders` teams as objects (the
 * chart's). Encoding 1,000 teams as objects on every request was a fifth of a busy web process's CPU
 * (docs/PERFORMANCE.md); everyone who sees the live board shares one string per version. A frozen
 * participant's board (own team live) is made per request.
 */
export async function getScoreboardJson(viewer: Viewer, leaders = 0): Promise<Omit<Scoreboard, "teams"> & { teamsJson: string; leaders: TeamStanding[] }> {
  const snapshot = await readLiveSnapshot();
  const board = boardForViewer(snapshot, viewer);
  const answer = { frozen: board.frozen, ownTeamId: board.ownTeamId, leaders: board.teams.slice(0, leaders) };
  if (board.teams !== snapshot.board) return { ...answer, teamsJson: JSON.stringify(board.teams) };
  let teamsJson = liveBoardJson.get(snapshot);
  if (teamsJson === undefined) {
    teamsJson = JSON.stringify(snapshot.board);
    liveBoardJson.set(snapshot, teamsJson);
  }
  return { ...answer, teamsJson };
}

/** A team's own standing (live points) and the rank the viewer may see (frozen for participants). */
export async function getTeamStanding(viewer: Viewer): Promise<{ team: TeamStanding | null; frozen: boolean }> {
  if (viewer.teamId === null) return { team: null, frozen: false };
  const board = await getScoreboard(viewer);
  return { team: board.teams.find((team) => team.id === viewer.teamId) ?? null, frozen: board.frozen };
}
