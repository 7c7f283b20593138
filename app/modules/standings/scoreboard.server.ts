/**
 * The scoreboard read path: Redis only (the snapshot the standings writer keeps). If Redis lost it
 * (a flush, a restart without persistence), the first reader rebuilds it from Postgres once.
 */
import type { Role } from "../auth/access.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { getRedis } from "../../utils/redis.server.ts";
import { readSnapshotCached, type Snapshot } from "./snapshot.server.ts";
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

export async function readLiveSnapshot(): Promise<Snapshot> {
  const snapshot = await readSnapshotCached(getRedis());
  if (snapshot.ready) return snapshot;
  // One rebuild per process at a time; the others wait for it.
  rebuilding ??= rebuildStandings().finally(() => {
    rebuilding = null;
  });
  await rebuilding;
  return readSnapshotCached(getRedis());
}

/**
 * What a viewer sees. Admins and judges always see live standings. While frozen, a participant
 * sees the frozen board, except their own team's points, which stay live (with the frozen rank).
 */
export function boardForViewer(snapshot: Snapshot, viewer: Viewer): Scoreboard {
  const ownTeamId = viewer.teamId;
  if (!snapshot.frozen || viewer.role !== "participant") return { teams: snapshot.board, frozen: snapshot.frozen, ownTeamId };
  const live = snapshot.board.find((team) => team.id === ownTeamId);
  const teams = (snapshot.frozenBoard ?? []).map((team) => (live && team.id === live.id ? { ...live, rank: team.rank } : team));
  return { teams, frozen: true, ownTeamId };
}

export async function getScoreboard(viewer: Viewer): Promise<Scoreboard> {
  return boardForViewer(await readLiveSnapshot(), viewer);
}

// The live board's JSON, made once per snapshot version (the snapshot object changes with it).
const liveBoardJson = new WeakMap<Snapshot, string>();

/**
 * The board as one JSON string, for the scoreboard page. Encoding 1,000 teams as objects on every
 * request was a fifth of a busy web process's CPU (docs/PERFORMANCE.md); everyone who sees the live
 * board shares one string per version. A frozen participant's board (own team live) is made per request.
 */
export async function getScoreboardJson(viewer: Viewer): Promise<Omit<Scoreboard, "teams"> & { teamsJson: string }> {
  const snapshot = await readLiveSnapshot();
  const board = boardForViewer(snapshot, viewer);
  if (board.teams !== snapshot.board) return { frozen: board.frozen, ownTeamId: board.ownTeamId, teamsJson: JSON.stringify(board.teams) };
  let teamsJson = liveBoardJson.get(snapshot);
  if (teamsJson === undefined) {
    teamsJson = JSON.stringify(snapshot.board);
    liveBoardJson.set(snapshot, teamsJson);
  }
  return { frozen: board.frozen, ownTeamId: board.ownTeamId, teamsJson };
}

/** A team's own standing (live points) and the rank the viewer may see (frozen for participants). */
export async function getTeamStanding(viewer: Viewer): Promise<{ team: TeamStanding | null; frozen: boolean }> {
  if (viewer.teamId === null) return { team: null, frozen: false };
  const board = await getScoreboard(viewer);
  return { team: board.teams.find((team) => team.id === viewer.teamId) ?? null, frozen: board.frozen };
}
