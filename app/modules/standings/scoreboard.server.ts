/**
 * The scoreboard read path: Redis only (the snapshot the standings writer keeps). If Redis lost it
 * (a flush, a restart without persistence), the first reader rebuilds it from Postgres once.
 */
import { createHash } from "node:crypto";
import type { TeamStanding } from "../realtime/events.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { categoryLeaders, type CategoryLeaders } from "./category-leaders.ts";
import { DIVISION_NAME_MAX, divisionNamed } from "../divisions/schema.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { divisionFreezeState } from "./divisions.ts";
import { boardForViewer, categoryLeadersForViewer, type FreezeState, type Viewer, type ViewedBoard } from "./frozen-view.ts";
import { isSnapshotReady, readSnapshotCached, type Snapshot } from "./snapshot.server.ts";
import { rebuildStandings } from "./rebuild.server.ts";

export type { Viewer };

/** What the API returns (the board a viewer sees, app/modules/standings/frozen-view.ts; overall or one division's). */
export interface Scoreboard {
  teams: TeamStanding[];
  frozen: boolean;
  ownTeamId: number | null;
  /** The division whose board this is; null: every team. */
  division: string | null;
  /** The event's divisions, in the filter's order. */
  divisions: string[];
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

/**
 * Which board: the whole event's (`division` null) or one division's, as the event's list spells it. A name
 * typed in a link or a query (`?division=`) is matched without regard to case or look-alikes; one that names
 * none of the event's divisions is `unknown` (kept, cut short, for the page to say so).
 */
export interface BoardChoice {
  division: string | null;
  divisions: string[];
  unknown: string | null;
}

/** Longer than any division's name can be: what is beyond it names nothing (and is not worth a skeleton). */
const TYPED_DIVISION_MAX = DIVISION_NAME_MAX * 4;

export function chooseBoard(snapshot: Snapshot, typed: string | null | undefined): BoardChoice {
  const divisions = snapshot.divisions;
  const wanted = typed?.trim() ?? "";
  if (!wanted) return { division: null, divisions, unknown: null };
  const division = divisions.includes(wanted) ? wanted : wanted.length > TYPED_DIVISION_MAX ? null : divisionNamed(divisions, wanted);
  return division === null ? { division: null, divisions, unknown: wanted.slice(0, DIVISION_NAME_MAX) } : { division, divisions, unknown: null };
}

/** One division's freeze state per snapshot version (the snapshot object changes with it), made once. */
const divisionStates = new WeakMap<Snapshot, Map<string, FreezeState>>();

function stateOf(snapshot: Snapshot, division: string | null): FreezeState {
  if (division === null) return snapshot;
  let states = divisionStates.get(snapshot);
  if (!states) divisionStates.set(snapshot, (states = new Map()));
  let state = states.get(division);
  if (!state) states.set(division, (state = divisionFreezeState(snapshot, division)));
  return state;
}

/** The board a viewer sees (the frozen-board rule: app/modules/standings/frozen-view.ts), overall or of one division. */
export async function getScoreboard(viewer: Viewer, division: string | null = null): Promise<ViewedBoard> {
  return boardForViewer(stateOf(await readLiveSnapshot(), division), viewer);
}

/** A live board's JSON and a tag naming exactly those bytes, made once per board (a snapshot version's, or a division's of it). */
const liveBoardJson = new WeakMap<readonly TeamStanding[], { json: string; tag: string }>();

function liveBoard(board: readonly TeamStanding[]): { json: string; tag: string } {
  let made = liveBoardJson.get(board);
  if (made === undefined) {
    const json = JSON.stringify(board);
    made = { json, tag: createHash("sha1").update(json).digest("base64url") };
    liveBoardJson.set(board, made);
  }
  return made;
}

/**
 * The board as one JSON string, for the scoreboard page, and its first `leaders` teams as objects (the
 * chart's). Encoding 1,000 teams as objects on every request was a fifth of a busy web process's CPU
 * (docs/PERFORMANCE.md); everyone who sees the live board shares one string per version (and per division).
 * A frozen participant's board (own team live) is made per request.
 */
export async function getScoreboardJson(
  viewer: Viewer,
  leaders = 0,
  typedDivision: string | null = null,
): Promise<Omit<ViewedBoard, "teams"> & BoardChoice & { teamsJson: string; leaders: TeamStanding[] }> {
  const snapshot = await readLiveSnapshot();
  const choice = chooseBoard(snapshot, typedDivision);
  const state = stateOf(snapshot, choice.division);
  const board = boardForViewer(state, viewer);
  const answer = { ...choice, frozen: board.frozen, ownTeamId: board.ownTeamId, live: board.live, leaders: board.teams.slice(0, leaders) };
  const teamsJson = board.teams === state.board ? liveBoard(state.board).json : JSON.stringify(board.teams);
  return { ...answer, teamsJson };
}

/**
 * The API's scoreboard (a `Scoreboard` as JSON) for a viewer, overall or of one division (`typedDivision`, as
 * the query gave it; one the event does not have is refused, 400), with a strong ETag of exactly those
 * bytes. Whoever sees the live board shares its string and tag (only `ownTeamId` differs, spliced in),
 * so a poll costs neither an encoding nor a hash of the board; a frozen participant's board is made
 * and hashed per request.
 */
export async function getScoreboardFeed(viewer: Viewer, typedDivision: string | null = null): Promise<{ body: string; etag: string }> {
  const snapshot = await readLiveSnapshot();
  const choice = chooseBoard(snapshot, typedDivision);
  if (choice.unknown !== null) throw new DomainError(messages.divisions.unknown(choice.divisions), { status: 400, field: "division" });
  const state = stateOf(snapshot, choice.division);
  const board = boardForViewer(state, viewer);
  const { division, divisions } = choice;
  if (board.teams !== state.board) {
    const body = JSON.stringify({ teams: board.teams, frozen: board.frozen, ownTeamId: board.ownTeamId, division, divisions } satisfies Scoreboard);
    return { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
  }
  const { json, tag } = liveBoard(state.board);
  // The key order JSON.stringify(board) gives: teams, frozen, ownTeamId, division, divisions.
  const tail = `"division":${JSON.stringify(division)},"divisions":${JSON.stringify(divisions)}`;
  const body = `{"teams":${json},"frozen":${board.frozen},"ownTeamId":${JSON.stringify(board.ownTeamId)},${tail}}`;
  // The board's tag has a fixed length (27 characters), and the division and list are hashed apart (two
  // divisions' empty boards are the same bytes, and the list can change alone), so no parts run together.
  const choiceTag = createHash("sha1").update(tail).digest("base64url").slice(0, 12);
  return { body, etag: `"${tag}-${choiceTag}-${board.frozen ? "f" : "l"}-${board.ownTeamId ?? "n"}"` };
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

/** The category top 3 a viewer's scoreboard (overall or a division's: a name `chooseBoard` returned) starts from (app/modules/standings/frozen-view.ts): null when the page ranks its live board itself. */
export async function getCategoryLeaders(viewer: Viewer, division: string | null = null): Promise<CategoryLeaders | null> {
  return categoryLeadersForViewer(stateOf(await readLiveSnapshot(), division), viewer, rankFrozenBoard);
}
