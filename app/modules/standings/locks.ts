import { sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";

/**
 * Transaction-scoped advisory locks. A team's recompute holds its team lock for the whole job, so
 * two jobs for one team never interleave. Jobs hold the board lock shared (they never block each
 * other); the full rebuild and the freeze hold it exclusive, so no job's write can land between
 * their read of Postgres and their write of the whole Redis snapshot. Order: team, then board.
 */
const TEAM_LOCK = 4242;
const BOARD_LOCK = 4243;

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
