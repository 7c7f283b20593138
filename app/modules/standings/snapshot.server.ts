/**
 * The Redis snapshot the scoreboard reads (never Postgres on the hot path), kept by the standings
 * writer (the worker's job, the rebuild, the freeze):
 *
 *   <prefix>:standings:order    ZSET    member per team, its score and member from ./ranking.ts (the
 *                                       ranking order: total, then reached-at and id in the member)
 *   <prefix>:standings:members  HASH    teamId → its current member in the ZSET
 *   <prefix>:standings:teams    HASH    teamId → TeamStanding JSON without the rank
 *   <prefix>:standings:meta     HASH    ready = 1, frozen = 0 | 1, divisions = the event's divisions
 *                                       (JSON list), so the division boards need no Postgres either
 *   <prefix>:standings:frozen   STRING  the frozen public board (TeamStanding[] JSON) while frozen
 *   <prefix>:standings:own      HASH    while frozen, teamId → the team's own points as its members see them
 *                                       (OwnPoints JSON, ./frozen-view.ts), for the teams where they differ
 *                                       from its live points (./frozen-values.server.ts)
 *   <prefix>:standings:placed   HASH    teamId → the latest standings version placed or removed for the team (meta's
 *                                       `floor`: the last rebuild's, for a team with none), so that no older
 *                                       placement lands after it (PLACE_SCRIPT); never read by a reader
 *   <prefix>:standings:version  STRING  changes with every write above (in the same script or MULTI) that
 *                                       changes what a reader sees, so a reader can tell in one tiny GET
 *                                       that its copy is current. A team placed again with nothing changed
 *                                       but its own update counter (`version`) does not move it.
 *
 * A team's rank is its position (ZREVRANK + 1): placing a team is O(log n), whatever the number of
 * teams it passes. No rank is stored anywhere, so no other team's row is ever rewritten.
 */
import type { ChainableCommander, Redis } from "ioredis";
import { redisKey } from "../../infrastructure/redis.server.ts";
import type { TeamStanding } from "../realtime/events.ts";
import type { OwnPoints } from "./frozen-view.ts";
import { rankKeyOf, rankOrderMember, rankOrderScore, teamIdOfRankMember } from "./ranking.ts";

export const snapshotKeys = {
  order: () => redisKey("standings", "order"),
  members: () => redisKey("standings", "members"),
  teams: () => redisKey("standings", "teams"),
  meta: () => redisKey("standings", "meta"),
  frozen: () => redisKey("standings", "frozen"),
  own: () => redisKey("standings", "own"),
  version: () => redisKey("standings", "version"),
  placed: () => redisKey("standings", "placed"),
};

type StoredTeam = Omit<TeamStanding, "rank">;

// Atomic: swap the team's member in the order, store its data, move the version, return its 0-based rank.
// Refused when the snapshot is not ready (Redis lost it): a team placed into an empty order would get a rank
// counted among the few teams placed since. The check is part of the write, so nothing can empty Redis between.
// A team whose member and stored JSON are the same but for its update counter (`"version":N`; JSON escapes
// every quote inside a string, so only the key itself can match) is left as stored, the version not moved:
// every reader's copy, and every web process's bytes of it, stay the same.
// The team's own points while frozen (ARGV[5]; empty: none, its live ones) are kept beside it in the same
// script: a change of them alone moves the version too.
// A placement older than the latest one placed or removed for the team (`standings:placed`; for a team with none,
// the last rebuild's version, meta's `floor`) is refused, writing nothing. Versions come from a sequence, taken under
// the team's lock (the board's exclusive lock for a rebuild), so every recompute's is newer than those before it,
// rolled back or not: a command ioredis re-sent after a reconnect, or one the network held, can reach Redis after
// the recompute that followed its rolled-back transaction, and would leave the board behind Postgres with no outbox
// row left to put it right. The mark moves with every placement taken, the unchanged one too (whose stored JSON
// keeps its older `"version"`), and with a removal, so a late placement of a deleted team is refused as well.
// Versions are compared as digit strings (no float rounding).
const OLDER = `local function older(a, b) return #a < #b or (#a == #b and a < b) end`;

const PLACE_SCRIPT = `
${OLDER}
if redis.call('HGET', KEYS[5], 'ready') ~= '1' then return redis.error_reply('GK_SNAPSHOT_NOT_READY') end
local bar = redis.call('HGET', KEYS[7], ARGV[1]) or redis.call('HGET', KEYS[5], 'floor')
if bar and older(ARGV[6], bar) then return redis.error_reply('GK_PLACEMENT_STALE') end
if bar ~= ARGV[6] then redis.call('HSET', KEYS[7], ARGV[1], ARGV[6]) end
local ownMoved = 0
if ARGV[5] == '' then
  ownMoved = redis.call('HDEL', KEYS[6], ARGV[1])
elseif redis.call('HGET', KEYS[6], ARGV[1]) ~= ARGV[5] then
  redis.call('HSET', KEYS[6], ARGV[1], ARGV[5])
  ownMoved = 1
end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old == ARGV[2] then
  local oldJson = redis.call('HGET', KEYS[3], ARGV[1])
  if oldJson and string.gsub(oldJson, ',?"version":%d+', '') == string.gsub(ARGV[3], ',?"version":%d+', '') then
    local rank = redis.call('ZREVRANK', KEYS[1], old)
    if rank then
      if ownMoved == 1 then redis.call('INCR', KEYS[4]) end
      return rank
    end
  end
end
if old and old ~= ARGV[2] then redis.call('ZREM', KEYS[1], old) end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
redis.call('INCR', KEYS[4])
return redis.call('ZREVRANK', KEYS[1], ARGV[2])
`;

// A removal is refused as a placement is, by the team's mark or the floor (returns 0, writing nothing); taken, its
// version (ARGV[2]) becomes the team's mark.
const REMOVE_SCRIPT = `
${OLDER}
local bar = redis.call('HGET', KEYS[6], ARGV[1]) or redis.call('HGET', KEYS[7], 'floor')
if bar and older(ARGV[2], bar) then return 0 end
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then redis.call('ZREM', KEYS[1], old) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
redis.call('INCR', KEYS[4])
return 1
`;

type WithScripts = Redis & {
  gkPlaceTeam(order: string, members: string, teams: string, version: string, meta: string, own: string, placed: string, teamId: string, member: string, json: string, total: string, ownJson: string, teamVersion: string): Promise<number>;
  gkRemoveTeam(order: string, members: string, teams: string, version: string, own: string, placed: string, meta: string, teamId: string, removedVersion: string): Promise<number>;
};

/**
 * The clients this module has given its scripts: a client kept across a development build's reload (the process's
 * global one) gets this module's scripts, not the ones an earlier build defined on it.
 */
const scriptedClients = new WeakSet<Redis>();

function withScripts(redis: Redis): WithScripts {
  if (!scriptedClients.has(redis)) {
    redis.defineCommand("gkPlaceTeam", { numberOfKeys: 7, lua: PLACE_SCRIPT });
    redis.defineCommand("gkRemoveTeam", { numberOfKeys: 7, lua: REMOVE_SCRIPT });
    scriptedClients.add(redis);
  }
  return redis as WithScripts;
}

const writeKeys = () => [snapshotKeys.order(), snapshotKeys.members(), snapshotKeys.teams(), snapshotKeys.version()] as const;

/**
 * A version no earlier snapshot had: after Redis lost everything and the board was rebuilt, a
 * counter starting again at 1 could match a reader's old copy; a random start cannot (in practice).
 */
function freshVersion(): number {
  return Math.floor(Math.random() * 2 ** 48);
}

/** Marks the snapshot changed, in the writer's own MULTI (the freeze). */
export function bumpVersion(pipeline: ChainableCommander) {
  pipeline.incr(snapshotKeys.version());
}

/** Stores the event's divisions with the snapshot and marks it changed (the divisions setting, in its transaction). */
export async function writeSnapshotDivisions(redis: Redis, divisions: readonly string[]) {
  const multi = redis.multi();
  multi.hset(snapshotKeys.meta(), "divisions", JSON.stringify(divisions));
  bumpVersion(multi);
  await execOrThrow(multi);
}

/** The divisions a snapshot's meta holds: none when it has none (written before divisions existed) or they are unreadable. */
function divisionsOf(json: string | undefined): string[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === "string") : [];
  } catch {
    return [];
  }
}

function stored(team: Omit<TeamStanding, "rank"> & { rank?: number }): string {
  const { rank: _rank, ...rest } = team;
  return JSON.stringify(rest satisfies StoredTeam);
}

/** placeTeam found no ready snapshot (Redis lost it): rebuild it, then place the team again. */
export class SnapshotNotReadyError extends Error {
  constructor(message = "the standings snapshot in Redis is not ready: it must be rebuilt first") {
    super(message);
  }
}

/**
 * placeTeam found a later version placed or removed for the team, and wrote nothing. A placement nobody waits for any
 * more (its transaction rolled back) meets it by design; one that is waited for means the sequence went back (a
 * restore without the rebuild its steps say, a crash or failover that lost its last numbers) or that its recompute was
 * overtaken (its connection, and its locks, lost while it waited): the snapshot may not be Postgres's, and is rebuilt
 * as a lost one is (a kind of SnapshotNotReadyError, so every caller hands it on as one).
 */
export class StalePlacementError extends SnapshotNotReadyError {
  constructor(teamId: number) {
    super(`team ${teamId} is placed at a later standings version than this one: the snapshot is ahead of Postgres's sequence`);
  }
}

/** Own points as stored: keys in one order, so that the same points are the same text. */
function storedOwn(own: OwnPoints): string {
  const { AI, CS, PS, GD } = own.categories;
  return JSON.stringify({ totalScore: own.totalScore, categories: { AI, CS, PS, GD } });
}

/** The script's keys and arguments that place a team (PLACE_SCRIPT). */
function placeArgs(team: StoredTeam, totalCenti: number, own: OwnPoints | null) {
  const key = { teamId: team.id, totalCenti, reachedAt: new Date(team.reachedAt) };
  return [
    ...writeKeys(),
    snapshotKeys.meta(),
    snapshotKeys.own(),
    snapshotKeys.placed(),
    String(team.id),
    rankOrderMember(key),
    stored(team),
    String(rankOrderScore(key)),
    own ? storedOwn(own) : "",
    versionDigits(team.version),
  ] as const;
}

/** A placement's refusal as its error (SnapshotNotReadyError, StalePlacementError), anything else as it is. */
function placementError(error: unknown, teamId: number): unknown {
  if (error instanceof Error && error.message.includes("GK_SNAPSHOT_NOT_READY")) return new SnapshotNotReadyError();
  if (error instanceof Error && error.message.includes("GK_PLACEMENT_STALE")) return new StalePlacementError(teamId);
  return error;
}

/**
 * Places one team and returns its rank (1 = first); throws SnapshotNotReadyError, writing nothing, if the
 * snapshot is not ready, and StalePlacementError, writing nothing, if a later version was placed or removed for the
 * team (or the last rebuild's is later).
 * `own`: its own points as its members see them while frozen (null: its live ones).
 */
export async function placeTeam(redis: Redis, team: StoredTeam, totalCenti: number, own: OwnPoints | null = null): Promise<number> {
  try {
    return Number(await withScripts(redis).gkPlaceTeam(...placeArgs(team, totalCenti, own))) + 1;
  } catch (error) {
    throw placementError(error, team.id);
  }
}

/**
 * A batch's teams placed (each as placeTeam) and taken off (each as removeTeamFromSnapshot), in one pipeline: one
 * write to Redis for the batch, not one a team. Each command stands alone: the others' are done all the same, as
 * they were when each went on its own. Once every command has answered (not at the first refusal, as when each was
 * awaited apart), the first refusal in the batch's order is thrown. The ranks are not returned: a team placed later
 * may pass one placed before (ranksNow, after).
 */
export async function placeAndRemoveTeams(
  redis: Redis,
  placements: ReadonlyArray<{ team: StoredTeam; totalCenti: number; own: OwnPoints | null }>,
  removals: ReadonlyArray<{ teamId: number; version: number }>,
): Promise<void> {
  if (placements.length === 0 && removals.length === 0) return;
  // On a pipeline, a script's command queues it and returns the pipeline (its answer comes with exec's).
  type Queued = (...args: string[]) => ChainableCommander;
  const pipeline = withScripts(redis).pipeline() as ChainableCommander & { gkPlaceTeam: Queued; gkRemoveTeam: Queued };
  for (const { team, totalCenti, own } of placements) pipeline.gkPlaceTeam(...placeArgs(team, totalCenti, own));
  for (const { teamId, version } of removals) pipeline.gkRemoveTeam(...removeArgs(teamId, version));
  const results = await pipeline.exec();
  // Only a transaction's pipeline answers null (WATCH): never this one. Were it to, nothing would be confirmed placed.
  if (!results) throw new Error("standings placements: the pipeline answered nothing");
  const index = results.findIndex(([error]) => error);
  if (index < 0) return;
  // The results come in the order queued: the placements, then the removals.
  const teamId = index < placements.length ? placements[index].team.id : removals[index - placements.length].teamId;
  throw placementError(results[index][0], teamId);
}

/**
 * These teams' ranks as the order stands now, in one round trip: after a batch has placed several teams, the rank
 * each placement answered may have moved with the ones placed after it.
 */
export async function ranksNow(redis: Redis, teams: ReadonlyArray<{ id: number; reachedAt: string }>): Promise<number[]> {
  if (teams.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const team of teams) pipeline.zrevrank(snapshotKeys.order(), rankOrderMember({ teamId: team.id, reachedAt: new Date(team.reachedAt) }));
  const results = await pipeline.exec();
  // Only a transaction's pipeline answers null (WATCH): never this one. Were it to, nothing would be confirmed placed.
  if (!results) throw new Error("standings placements: the pipeline answered nothing");
  return results.map(([error, rank]) => {
    if (error) throw error;
    if (rank === null) throw new SnapshotNotReadyError();
    return Number(rank) + 1;
  });
}

/** A standings version as the scripts compare it: the digits of a whole number. */
function versionDigits(version: number): string {
  if (!Number.isSafeInteger(version) || version < 0) throw new Error(`not a standings version: ${version}`);
  return String(version);
}

/** Takes the team off the board; `version`: a standings version taken under its lock, below which no placement of it lands. */
export async function removeTeamFromSnapshot(redis: Redis, teamId: number, version: number) {
  await withScripts(redis).gkRemoveTeam(...removeArgs(teamId, version));
}

/** The script's keys and arguments that take a team off (REMOVE_SCRIPT). */
function removeArgs(teamId: number, version: number) {
  return [...writeKeys(), snapshotKeys.own(), snapshotKeys.placed(), snapshotKeys.meta(), String(teamId), versionDigits(version)] as const;
}

function writeTeam(pipeline: ChainableCommander, team: TeamStanding) {
  const key = rankKeyOf(team);
  const member = rankOrderMember(key);
  pipeline.zadd(snapshotKeys.order(), rankOrderScore(key), member);
  pipeline.hset(snapshotKeys.members(), String(team.id), member);
  pipeline.hset(snapshotKeys.teams(), String(team.id), stored(team));
}

/**
 * Replaces the whole snapshot atomically (the rebuild, or after Redis lost it). `version`: the rebuild's, taken under
 * the board's exclusive lock: every team's mark, and the floor below which no placement lands.
 */
export async function writeWholeSnapshot(
  redis: Redis,
  board: readonly TeamStanding[],
  settings: { version: number; frozen: boolean; frozenBoard: readonly TeamStanding[] | null; divisions: readonly string[]; own?: ReadonlyMap<number, OwnPoints> },
) {
  const multi = redis.multi();
  multi.del(snapshotKeys.order(), snapshotKeys.members(), snapshotKeys.teams(), snapshotKeys.frozen(), snapshotKeys.own(), snapshotKeys.placed());
  for (const team of board) writeTeam(multi, team);
  const version = versionDigits(settings.version);
  for (const team of board) multi.hset(snapshotKeys.placed(), String(team.id), version);
  if (settings.frozen && settings.frozenBoard) multi.set(snapshotKeys.frozen(), JSON.stringify(settings.frozenBoard));
  if (settings.frozen) for (const [teamId, own] of settings.own ?? []) multi.hset(snapshotKeys.own(), String(teamId), storedOwn(own));
  multi.hset(snapshotKeys.meta(), { ready: "1", frozen: settings.frozen ? "1" : "0", divisions: JSON.stringify(settings.divisions), floor: version });
  multi.set(snapshotKeys.version(), freshVersion());
  await execOrThrow(multi);
}

export async function execOrThrow(pipeline: ChainableCommander) {
  const results = await pipeline.exec();
  if (!results) throw new Error("Redis transaction aborted");
  for (const [error] of results) if (error) throw error;
  return results;
}

/** False once Redis lost the snapshot (a flush, a restart without persistence): it must be rebuilt before use. */
export async function isSnapshotReady(redis: Redis): Promise<boolean> {
  return (await redis.hget(snapshotKeys.meta(), "ready")) === "1";
}

export interface Snapshot {
  ready: boolean;
  frozen: boolean;
  board: TeamStanding[];
  frozenBoard: TeamStanding[] | null;
  /** While frozen: teams' own points as their members see them, where they differ from the live ones (FreezeState's `own`). */
  own?: ReadonlyMap<number, OwnPoints>;
  /** The event's divisions, in the filter's order (docs/domain.md "Divisions"). */
  divisions: string[];
}

/** One round trip: the live board in rank order, the freeze flag, the frozen board and the teams' own points while frozen. */
export async function readSnapshot(redis: Redis): Promise<Snapshot> {
  return (await readVersionedSnapshot(redis)).snapshot;
}

async function readVersionedSnapshot(redis: Redis): Promise<{ version: string | null; snapshot: Snapshot }> {
  const results = await execOrThrow(
    redis
      .multi()
      .hgetall(snapshotKeys.meta())
      .zrevrange(snapshotKeys.order(), 0, -1)
      .hgetall(snapshotKeys.teams())
      .get(snapshotKeys.frozen())
      .get(snapshotKeys.version())
      .hgetall(snapshotKeys.own()),
  );
  const meta = results[0][1] as Record<string, string>;
  const order = results[1][1] as string[];
  const teams = results[2][1] as Record<string, string>;
  const frozenJson = results[3][1] as string | null;
  const version = results[4][1] as string | null;
  const ownJson = results[5][1] as Record<string, string>;
  const board: TeamStanding[] = [];
  for (const member of order) {
    const json = teams[String(teamIdOfRankMember(member))];
    if (json) board.push({ ...(JSON.parse(json) as StoredTeam), rank: board.length + 1 });
  }
  return {
    version,
    snapshot: {
      ready: meta.ready === "1",
      frozen: meta.frozen === "1",
      board,
      frozenBoard: frozenJson ? (JSON.parse(frozenJson) as TeamStanding[]) : null,
      own: new Map(meta.frozen === "1" ? Object.entries(ownJson).map(([teamId, json]) => [Number(teamId), JSON.parse(json) as OwnPoints]) : []),
      divisions: divisionsOf(meta.divisions),
    },
  };
}

/**
 * The snapshot, read whole only when its version moved since this process last read it; otherwise
 * one GET confirms the copy in hand (Redis answers in a few microseconds instead of shipping and
 * parsing every team). Readers share the result: treat it as read-only.
 */
// By version key: tests and benchmarks switch the Redis prefix within one process.
const copies = new Map<string, { version: string; snapshot: Snapshot }>();
const fullReads = new Map<string, Promise<{ version: string | null; snapshot: Snapshot }>>();

/**
 * The snapshot's version, read for every reader that arrived before the read was sent: readers in the same
 * turn of the event loop (a burst of polls) share one GET, sent on the next turn. Never a read sent before a
 * reader arrived, so a change committed before a request is seen by it, as with a GET of its own.
 */
const versionReads = new Map<string, Promise<string | null>>();

function readVersion(redis: Redis, key: string): Promise<string | null> {
  let read = versionReads.get(key);
  if (!read) {
    read = new Promise<string | null>((resolve, reject) => {
      setImmediate(() => {
        // Sent now: whoever arrives from here on waits for a read of their own.
        versionReads.delete(key);
        redis.get(key).then(resolve, reject);
      });
    });
    versionReads.set(key, read);
  }
  return read;
}

export async function readSnapshotCached(redis: Redis): Promise<Snapshot> {
  const key = snapshotKeys.version();
  const version = await readVersion(redis, key);
  const copy = copies.get(key);
  if (copy && version !== null && copy.version === version) return copy.snapshot;
  // Concurrent readers that find the copy stale share one full read.
  let fullRead = fullReads.get(key);
  if (!fullRead) {
    fullRead = readVersionedSnapshot(redis).finally(() => fullReads.delete(key));
    fullReads.set(key, fullRead);
  }
  const fresh = await fullRead;
  if (fresh.version !== null && fresh.snapshot.ready) copies.set(key, { version: fresh.version, snapshot: fresh.snapshot });
  return fresh.snapshot;
}
