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
import { STAFF_READERS } from "../auth/access.ts";
import { marksOnBoard, type BoardMark } from "../flags/first-blood.server.ts";
import { boardForViewer, categoryLeadersForViewer, seesLiveBoard, placesBoardFor, plainReader, windowForViewer, type BoardReader, type FreezeState, type Viewer, type ViewedBoard } from "./frozen-view.ts";
import { rememberChartBoard } from "./history.server.ts";
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
export function rebuildSnapshotOnce() {
  rebuilding ??= rebuildStandings().finally(() => {
    rebuilding = null;
  });
  return rebuilding;
}

export async function readLiveSnapshot(): Promise<Snapshot> {
  const snapshot = await readSnapshotCached(getRedis());
  if (snapshot.ready) return snapshot;
  await rebuildSnapshotOnce();
  return readSnapshotCached(getRedis());
}

/**
 * Before a team is placed in the Redis order: if Redis came back empty, rebuild the whole snapshot first.
 * Placing one team into an empty order would publish a rank counted among the few teams placed since
 * (and leave the others off the board until a reader noticed); found by the Redis restart drill.
 */
export async function ensureSnapshotReady(): Promise<void> {
  if (!(await isSnapshotReady(getRedis()))) await rebuildSnapshotOnce();
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

/** A shared stretch of a board's JSON and a tag naming exactly those bytes, made once per stretch (a snapshot version's, or a division's of it). */
const sharedJson = new WeakMap<readonly TeamStanding[], { json: string; tag: string }>();

function jsonOf(teams: readonly TeamStanding[]): { json: string; tag: string } {
  let made = sharedJson.get(teams);
  if (made === undefined) {
    const json = JSON.stringify(teams);
    made = { json, tag: createHash("sha1").update(json).digest("base64url") };
    sharedJson.set(teams, made);
  }
  return made;
}

/** How many stretches of one board version are kept (pages, `limit`/`offset` asked of the feed); beyond, made per request. */
const SLICES_PER_BOARD = 64;

interface BoardIndex {
  positions: Map<number, number> | null;
  slices: Map<string, readonly TeamStanding[]>;
}

/** Per board version: where each team stands, and the stretches asked so far (the same arrays, so their JSON is shared too). */
const boardIndexes = new WeakMap<readonly TeamStanding[], BoardIndex>();

function indexOf(board: readonly TeamStanding[]): BoardIndex {
  let index = boardIndexes.get(board);
  if (!index) boardIndexes.set(board, (index = { positions: null, slices: new Map() }));
  return index;
}

/** The shared reader: a stretch and a position are worked out once per board version and shared by every viewer. */
const sharedReader: BoardReader = {
  slice(board, range) {
    if (range.offset === 0 && (range.limit === null || range.limit >= board.length)) return board;
    const { slices } = indexOf(board);
    const key = `${range.offset}:${range.limit}`;
    let slice = slices.get(key);
    if (slice === undefined) {
      slice = plainReader.slice(board, range);
      if (slices.size < SLICES_PER_BOARD) slices.set(key, slice);
    }
    return slice;
  },
  positionOf(board, teamId) {
    const index = indexOf(board);
    index.positions ??= new Map(board.map((team, position) => [team.id, position]));
    return index.positions.get(teamId) ?? -1;
  },
};

/** Boards up to this many teams are shown whole on /scoreboard; bigger ones a page at a time. */
export const WHOLE_BOARD_MAX = 200;
/** Teams per page of a board shown a page at a time. */
export const BOARD_PAGE_SIZE = 50;
/** Teams shown either side of the viewer's own team when it is not on the page shown. */
export const OWN_NEIGHBOURS = 2;

/** Which page of a big board is shown, and how many the board has (pages count from 1). */
export interface BoardPage {
  page: number;
  pages: number;
  offset: number;
  limit: number;
  total: number;
  /** The page the viewer's own team is on; null without one on the board. */
  ownPage: number | null;
}

/**
 * The board for the scoreboard page: one JSON string of the teams shown, shared by every viewer of the same
 * page of the live board (per snapshot version, per division), and the first `leaders` teams as objects (the
 * chart's). Encoding 1,000 teams as objects on every request was a fifth of a busy web process's CPU
 * (docs/performance-log.md). A board of more than `WHOLE_BOARD_MAX` teams is shown a page at a time (`page`,
 * from 1; out of range: the nearest), with the viewer's own team and its neighbours (`around`) when it is
 * on another page (`wantedPage` null: whole, whatever its size): what is the viewer's own is made per request,
 * never shared.
 */
export async function getScoreboardJson(
  viewer: Viewer,
  leaders = 0,
  typedDivision: string | null = null,
  /**
   * The page asked for (`?page=`): a big board is shown a page at a time; null: always whole; "own": a big
   * board's row of the viewer's own team only (/status, which shows nothing else of it).
   */
  wantedPage: number | "own" | null = null,
): Promise<
  Omit<ViewedBoard, "teams"> &
    BoardChoice & { teamsJson: string; leaders: TeamStanding[]; window: BoardPage | null; around: TeamStanding[]; boardLeaders: CategoryLeaders | null }
> {
  const snapshot = await readLiveSnapshot();
  const choice = chooseBoard(snapshot, typedDivision);
  const state = stateOf(snapshot, choice.division);
  const top = windowForViewer(state, viewer, { offset: 0, limit: leaders }, sharedReader);
  const answer = { ...choice, frozen: top.frozen, ownTeamId: top.ownTeamId, live: top.live, leaders: [...top.teams] };
  // The chart of these leaders is read once per board (history.server.ts).
  rememberChartBoard(answer.leaders, snapshot);
  if (wantedPage === null || top.total <= WHOLE_BOARD_MAX) {
    const whole = windowForViewer(state, viewer, { offset: 0, limit: null }, sharedReader);
    const teamsJson = whole.teams === whole.base ? jsonOf(whole.base).json : JSON.stringify(whole.teams);
    return { ...answer, teamsJson, window: null, around: [], boardLeaders: null };
  }
  const pages = Math.ceil(top.total / BOARD_PAGE_SIZE);
  if (wantedPage === "own") {
    // The own team's row, made per request (it is the viewer's own): no shared stretch, no neighbours, no top 3.
    const own = top.own;
    const range = own === null ? { offset: 0, limit: 0 } : { offset: own.position, limit: 1 };
    const shown = windowForViewer(state, viewer, range, { ...sharedReader, slice: plainReader.slice });
    const ownPage = own === null ? null : Math.floor(own.position / BOARD_PAGE_SIZE) + 1;
    const window = { page: ownPage ?? 1, pages, ...range, total: shown.total, ownPage };
    return { ...answer, teamsJson: JSON.stringify(shown.teams), window, around: [], boardLeaders: null };
  }
  const page = Math.min(Math.max(1, Math.trunc(wantedPage) || 1), pages);
  const range = { offset: (page - 1) * BOARD_PAGE_SIZE, limit: BOARD_PAGE_SIZE };
  const shown = windowForViewer(state, viewer, range, sharedReader);
  const teamsJson = shown.teams === shown.base ? jsonOf(shown.base).json : JSON.stringify(shown.teams);
  const own = shown.own;
  const onPage = own !== null && own.position >= range.offset && own.position < range.offset + range.limit;
  // The own team's neighbourhood: a few rows read per request (the stretch is not kept: it differs per team).
  // Clipped at the page's edge: a row is shown once.
  const end = range.offset + range.limit;
  const aroundStart = own === null ? 0 : own.position >= end ? Math.max(own.position - OWN_NEIGHBOURS, end) : Math.max(0, own.position - OWN_NEIGHBOURS);
  const aroundStop = own === null ? 0 : own.position >= end ? own.position + OWN_NEIGHBOURS + 1 : Math.min(own.position + OWN_NEIGHBOURS + 1, range.offset);
  const aroundRange = own === null || onPage ? null : { offset: aroundStart, limit: aroundStop - aroundStart };
  const around = aroundRange ? [...windowForViewer(state, viewer, aroundRange, { ...sharedReader, slice: plainReader.slice }).teams] : [];
  const window = { page, pages, ...range, total: shown.total, ownPage: own === null ? null : Math.floor(own.position / BOARD_PAGE_SIZE) + 1 };
  // The category top 3 of the whole board (the page cannot rank what it does not hold): ranked once per version.
  const boardLeaders = rankBoard(placesBoardFor(state, shown.live));
  return { ...answer, teamsJson, window, around, boardLeaders };
}

/** What the feed was asked for beyond the board: `limit` and `offset` (docs/API.md). */
export interface FeedRange {
  offset?: number;
  limit?: number;
}

export interface FeedBody {
  /** The body up to the teams' closing bracket (`{"teams":[...]`): the same string for every viewer who shares it. */
  head: string;
  /** The rest, which depends on the viewer (frozen, own team) and the choice. */
  tail: string;
  etag: string;
  /** Set when `head` is shared (per board version and stretch): a key to keep what is made of it (its gzip) by. */
  shared: object | null;
}

/** Tails hashed so far: a poller's tail is the same until the standings or their own figures change. */
const tailTags = new Map<string, string>();
const TAIL_TAGS_MAX = 20_000;

function tagOfTail(tail: string): string {
  let tag = tailTags.get(tail);
  if (tag === undefined) {
    tag = createHash("sha1").update(tail).digest("base64url").slice(0, 16);
    if (tailTags.size >= TAIL_TAGS_MAX) tailTags.clear();
    tailTags.set(tail, tag);
  }
  return tag;
}

/**
 * The API's scoreboard (a `Scoreboard` as JSON) for a viewer, overall or of one division (`typedDivision`, as
 * the query gave it; one the event does not have is refused, 400), whole or a stretch of it (`range`), with a
 * strong ETag of exactly those bytes. Whoever sees the live board shares the stretch's string and tag (only
 * the tail differs: frozen, `ownTeamId`, the choice), so a poll costs neither an encoding nor a hash of the
 * board; a frozen participant's stretch with their own team in it is made and hashed per request.
 */
export async function getScoreboardFeed(viewer: Viewer, typedDivision: string | null = null, range: FeedRange = {}): Promise<FeedBody> {
  const snapshot = await readLiveSnapshot();
  const choice = chooseBoard(snapshot, typedDivision);
  if (choice.unknown !== null) throw new DomainError(messages.divisions.unknown(choice.divisions), { status: 400, field: "division" });
  const state = stateOf(snapshot, choice.division);
  const paged = range.offset !== undefined || range.limit !== undefined;
  const offset = range.offset ?? 0;
  const shown = windowForViewer(state, viewer, { offset, limit: range.limit ?? null }, sharedReader);
  const { division, divisions } = choice;
  // The key order JSON.stringify(Scoreboard) gives: teams, frozen, ownTeamId, division, divisions (then the stretch's figures).
  const stretch = paged ? `,"total":${shown.total},"offset":${offset},"limit":${range.limit ?? null}` : "";
  const tail = `,"frozen":${shown.frozen},"ownTeamId":${JSON.stringify(shown.ownTeamId)},"division":${JSON.stringify(division)},"divisions":${JSON.stringify(divisions)}${stretch}}`;
  const shared = shown.teams === shown.base;
  const { json, tag } = shared ? jsonOf(shown.base) : { json: JSON.stringify(shown.teams), tag: null };
  const head = `{"teams":${json}`;
  // The teams' tag has a fixed length (27 characters) and the tail is hashed apart, so no parts run together.
  const teamsTag = tag ?? createHash("sha1").update(json).digest("base64url");
  const tailTag = tagOfTail(tail);
  return { head, tail, etag: `"${teamsTag}-${tailTag}"`, shared: shared ? shown.base : null };
}

/** The category places of a board (a frozen one, or a big live one), ranked once per snapshot version (its viewers share them). */
const boardLeaders = new WeakMap<readonly TeamStanding[], CategoryLeaders>();

function rankBoard(board: readonly TeamStanding[]): CategoryLeaders {
  let leaders = boardLeaders.get(board);
  if (leaders === undefined) {
    leaders = categoryLeaders(board);
    boardLeaders.set(board, leaders);
  }
  return leaders;
}

/** The category top 3 a viewer's scoreboard (overall or a division's: a name `chooseBoard` returned) starts from (app/modules/standings/frozen-view.ts): null when the page ranks its live board itself. */
export async function getCategoryLeaders(viewer: Viewer, division: string | null = null): Promise<CategoryLeaders | null> {
  return categoryLeadersForViewer(stateOf(await readLiveSnapshot(), division), viewer, rankBoard);
}

/** How long the scoreboard's first-solve marks of one board are kept at most (a title or a gate may change meanwhile). */
const MARKS_MAX_AGE_MS = 15_000;

const boardMarks = new WeakMap<Snapshot, Map<string, { at: number; marks: Promise<BoardMark[]> }>>();

/**
 * The first-solve marks of the scoreboard's row details (app/modules/flags/first-blood.server.ts `marksOnBoard`)
 * for this viewer, read once per board (the snapshot moves with every solve, each a change of its team's
 * points, and with the freeze) and per kind of viewer, at most MARKS_MAX_AGE_MS old: the board page reads no
 * Postgres of its own per request.
 */
export async function getBoardMarks(viewer: Viewer): Promise<BoardMark[]> {
  const snapshot = await readLiveSnapshot();
  const key = `${STAFF_READERS.includes(viewer.role) ? "staff" : "open"}|${seesLiveBoard(viewer.role, snapshot.frozen) ? "live" : "frozen"}`;
  let kept = boardMarks.get(snapshot);
  if (!kept) boardMarks.set(snapshot, (kept = new Map()));
  const hit = kept.get(key);
  if (hit && Date.now() - hit.at < MARKS_MAX_AGE_MS) return hit.marks;
  const entry = { at: Date.now(), marks: marksOnBoard(viewer) };
  kept.set(key, entry);
  // A failed read is not kept.
  entry.marks.catch(() => kept.get(key) === entry && kept.delete(key));
  return entry.marks;
}
