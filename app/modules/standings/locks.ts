import { type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";

/**
 * Transaction-scoped advisory locks. A team's recompute holds its team lock for the whole job, so
 * two jobs for one team never interleave. Jobs hold the board lock shared (they never block each
 * other); the full rebuild and the freeze hold it exclusive, so no job's write can land between
 * their read of Postgres and their write of the whole Redis snapshot. Order: team, then board.
 */
const TEAM_LOCK = 4242;
const BOARD_LOCK = 4243;
const USER_LOCK = 4244;

export async function lockTeam(tx: Queryable, teamId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${TEAM_LOCK}, ${teamId})`);
}

export async function lockBoardShared(tx: Queryable) {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${BOARD_LOCK}, 0)`);
}

export async function lockBoardExclusive(tx: Queryable) {
  await tx.execute(sql`select pg_advisory_xact_lock(${BOARD_LOCK}, 0)`);
}

/**
 * Both of a job's locks in one round trip, team first: Postgres evaluates a select list left to
 * right, so this is the same order as lockTeam then lockBoardShared.
 */
export async function lockTeamThenBoardShared(tx: Queryable, teamId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${TEAM_LOCK}, ${teamId}), pg_advisory_xact_lock_shared(${BOARD_LOCK}, 0)`);
}

/**
 * The same two locks without waiting for either: true if both are held now. A holder of the team lock
 * (another recompute of this team) or of the board lock exclusive (a rebuild, a freeze) makes it false;
 * whatever it took is released with the transaction. In the same statement, the transaction's row locks
 * are given `rowLockWaitMs` at most (`lock_timeout`, local to it): past that a statement fails.
 */
export async function tryLockTeamThenBoardShared(tx: Queryable, teamId: number, rowLockWaitMs: number): Promise<boolean> {
  const [row] = await tx.execute<{ team: boolean; board: boolean }>(
    sql`select set_config('lock_timeout', ${`${Math.max(1, Math.round(rowLockWaitMs))}ms`}, true), pg_try_advisory_xact_lock(${TEAM_LOCK}, ${teamId}) as team, pg_try_advisory_xact_lock_shared(${BOARD_LOCK}, 0) as board`,
  );
  return row?.team === true && row?.board === true;
}

/**
 * An expression (the number of users locked) that takes the user lock of each user in `userIds` (a query of
 * one id column), in id order, so two recomputes never wait for each other's users in a circle. A user
 * credited on two teams (a member who moved) has statistics written by each team's recompute, which hold
 * different team locks: the user lock makes the second wait for the first to commit, and the second then
 * reads and writes after it, never older figures over newer ones. Taken after the team and board locks, in
 * the statement before the recompute's reads (which must start after it). Volatile, so Postgres evaluates
 * it row by row after the sort, and never drops it from the subquery.
 */
export function lockUsersSql(userIds: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from (select pg_advisory_xact_lock(${USER_LOCK}, locked.id) from (${userIds}) locked(id) order by locked.id) taken)`;
}
