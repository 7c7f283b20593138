/**
 * The scoreboard read path: Redis only (the snapshot the standings writer keeps). If Redis lost it
 * (a flush, a restart without persistence), the first reader rebuilds it from Postgres once.
 */
import { createHash } from "node:crypto";
import type { TeamStanding } from "../realtime/events.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { categoryLeaders, type CategoryLeaders } from "./category-leaders.ts";
import { boardForViewer, categoryLeadersForViewer, type Viewer, type ViewedBoard } from "./frozen-view.ts";
import { isSnapshotReady, readSnapshotCached, type Snapshot } from "./snapshot.server.ts";
import { rebuildStandings } from "./rebuild.server.ts";

export type { Viewer };

/** What the API returns (the board a viewer sees, app/modules/standings/frozen-view.ts). */
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

/** The board a viewer sees (the frozen-board rule: app/modules/standings/frozen-view.ts). */
export async function getScoreboard(viewer: Viewer): Promise<ViewedBoard> {
  return boardForViewer(await readLiveSnapshot(), viewer);
}

/** The live board's JSON and a tag naming exactly those bytes, made once per snapshot version (the snapshot object changes with it). */
const liveBoardJson = new WeakMap<Snapshot, { json: string; tag: string }>();

function liveBoard(snapshot: Snapshot): { json: string; tag: string } {
  let made = liveBoardJson.get(snapshot);
  if (made === undefined) {
    const json = JSON.stringify(snapshot.board);
    made = { json, tag: createHash("sha1").update(json).digest("base64url") };
    liveBoardJson.set(snapshot, made);
  }
  return made;
}

/**
 * The board as one JSON string, for the scoreboard page, and its first `leaders` teams as objects (the
 * chart's). Encoding 1,000 teams as objects on every request was a fifth of a busy web process's CPU
 * (docs/PERFORMANCE.md); everyone who sees the live board shares one string per version. A frozen
 * participant's board (own team live) is made per request.
 */
export async function getScoreboardJson(viewer: Viewer, leaders = 0): Promise<Omit<ViewedBoard, "teams"> & { teamsJson: string; leaders: TeamStanding[] }> {
  const snapshot = await readLiveSnapshot();
  const board = boardForViewer(snapshot, viewer);
  const answer = { frozen: board.frozen, ownTeamId: board.ownTeamId, live: board.live, leaders: board.teams.slice(0, leaders) };
  const teamsJson = board.teams === snapshot.board ? liveBoard(snapshot).json : JSON.stringify(board.teams);
  return { ...answer, teamsJson };
}

/**
 * The API's scoreboard (a `Scoreboard` as JSON) for a viewer, with a strong ETag of exactly those
 * bytes. Whoever sees the live board shares its string and tag (only `ownTeamId` differs, spliced in),
 * so a poll costs neither an encoding nor a hash of the board; a frozen participant's board is made
 * and hashed per request.
 */
export async function getScoreboardFeed(viewer: Viewer): Promise<{ body: string; etag: string }> {
  const snapshot = await readLiveSnapshot();
  const board = boardForViewer(snapshot, viewer);
  if (board.teams !== snapshot.board) {
    const body = JSON.stringify({ teams: board.teams, frozen: board.frozen, ownTeamId: board.ownTeamId } satisfies Scoreboard);
    return { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
  }
  const { json, tag } = liveBoard(snapshot);
  // The key order JSON.stringify(board) gives: teams, frozen, ownTeamId.
  const body = `{"teams":${json},"frozen":${board.frozen},"ownTeamId":${JSON.stringify(board.ownTeamId)}}`;
  // The tag has a fixed length (27 characters), so the parts after it cannot run into each other.
  return { body, etag: `"${tag}-${board.frozen ? "f" : "l"}-${board.ownTeamId ?? "n"}"` };
}

/** The category places of a frozen board, ranked once per snapshot version (every frozen participant shares them). */
const frozenLeaders = new WeakMap<readonly TeamStanding[], CategoryLeaders>();

function rankFrozenBoard(board: readonly TeamStanding[]): CategoryLeaders {
  let leaders = frozenLeaders.get(board);
  if (leaders === undefined) {
    leaders = categoryLeaders(board);
    frozenLeaders.set(board, leaders);
  }
  return leaders;
}

/** The category top 3 a viewer's scoreboard starts from (app/modules/standings/frozen-view.ts): null when the page ranks its live board itself. */
export async function getCategoryLeaders(viewer: Viewer): Promise<CategoryLeaders | null> {
  return categoryLeadersForViewer(await readLiveSnapshot(), viewer, rankFrozenBoard);
}
