/** Checks shared by the pipeline tests and the fault drills: the derived standings against a full rebuild. */
import { expect } from "vitest";
import { standings, standingsOutbox } from "../../db/schema.ts";
import { toTeamStanding } from "../../app/modules/standings/compute.server.ts";
import { sql } from "drizzle-orm";
import { LOCK_CLASS } from "../../db/advisory-locks.ts";
import { computeAllStandings, type ComputedStanding } from "../../app/modules/standings/rebuild.server.ts";
import { shownOf } from "../../app/modules/standings/shown.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";

/** Whether a transaction of this test's database waits for an advisory lock (a batch, a freeze, a job behind one the test holds). */
export async function someoneWaitsForALock(): Promise<boolean> {
  const [row] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
  );
  return row.n > 0;
}

/** Resolves once no team is marked stale (every score reached its standings); throws after `ms`. */
export async function waitForEmptyOutbox(ms = 20_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await getDb().select().from(standingsOutbox)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("standings outbox never drained");
}

/**
 * Runs `work` while another transaction holds these teams' standings locks: a judge's score then cannot
 * recompute its team in its own request and hands it to the queue (app/modules/standings/recompute.server.ts,
 * changeTeamThenRecompute), where a job waits for the locks. Released when `work` ends.
 */
export function whileTeamsLocked<T>(teamIds: readonly number[], work: () => Promise<T>): Promise<T> {
  return whileLocked(teamIds.map((teamId) => [LOCK_CLASS.team, teamId]), work);
}

/** Runs `work` while another transaction holds these users' statistics locks (what a recompute of another team crediting them holds). */
export function whileUsersLocked<T>(userIds: readonly number[], work: () => Promise<T>): Promise<T> {
  return whileLocked(userIds.map((userId) => [LOCK_CLASS.userStatistics, userId]), work);
}

/** Runs `work` while another transaction holds the board lock exclusive, as a rebuild or a freeze does. */
export function whileBoardHeld<T>(work: () => Promise<T>): Promise<T> {
  return whileLocked([[LOCK_CLASS.board, 0]], work);
}

async function whileLocked<T>(locks: ReadonlyArray<readonly [number, number]>, work: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = getDb().transaction(async (tx) => {
    for (const [lockClass, key] of locks) await tx.execute(sql`select pg_advisory_xact_lock(${lockClass}, ${key})`);
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  try {
    return await work();
  } finally {
    release();
    await holder;
  }
}

/** The stored standings equal what a from-scratch computation says, in Postgres and in Redis. */
export async function expectStandingsMatchRebuild() {
  const expected = (await computeAllStandings(getDb())).standings;
  const rows = await getDb().select().from(standings);
  const stored = rows.map(({ updatedAt: _updatedAt, shown: _shown, ...row }) => row);
  const byTeam = (a: { teamId: number }, b: { teamId: number }) => a.teamId - b.teamId;
  expect(stored.sort(byTeam)).toEqual(expected.map(({ name: _name, rank: _rank, division: _division, ...row }) => row).sort(byTeam));
  // What clients were last told of each team is what it now is.
  expect(new Map(rows.map((row) => [row.teamId, row.shown]))).toEqual(new Map(expected.map((row) => [row.teamId, shownOfComputed(row)])));
  const snapshot = await readSnapshot(getRedis());
  expect(snapshot.board.map((team) => [team.id, team.rank, Math.round(team.totalScore * 100), team.division])).toEqual(
    expected.map((row) => [row.teamId, row.rank, row.totalCenti, row.division]),
  );
  return expected;
}

/** What a `teams:update` of this computed standing shows (standings.shown). */
export function shownOfComputed(row: ComputedStanding): string {
  return shownOf(toTeamStanding({ id: row.teamId, name: row.name, division: row.division }, row, 0));
}
