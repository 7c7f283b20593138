import { type SQL, sql, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { LOCK_CLASS } from "../../../db/advisory-locks.ts";

/**
 * Transaction-scoped advisory locks. A team's recompute holds its team lock for the whole job, so
 * two jobs for one team never interleave. Jobs hold the board lock shared (they never block each
 * other); the full rebuild and the freeze hold it exclusive, so no job's write can land between
 * their read of Postgres and their write of the whole Redis snapshot. Order: team, then board (waited for); a web
 * process's batch tries the board and then its teams (boardThenTeamsTriedThenUsersSql), never waiting for either.
 */

export async function lockTeam(tx: Queryable, teamId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.team}, ${teamId})`);
}

export async function lockBoardShared(tx: Queryable) {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_CLASS.board}, 0)`);
}

export async function lockBoardExclusive(tx: Queryable) {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.board}, 0)`);
}

/**
 * A recompute's two locks, team first, as a one-row query of two booleans, `team` and `board`: true when
 * held. Postgres evaluates a select list left to right, so the order is lockTeam's then lockBoardShared's.
 * Waited for; or, with `tryWithin` (a Postgres interval such as '500ms'), only tried (a holder of the team
 * lock, another recompute of the team, or of the board lock exclusive, a rebuild or a freeze, makes it false;
 * whatever it took is released with the transaction), and then the transaction's later lock waits (rows,
 * users) get `tryWithin` at most (`lock_timeout`, local to the transaction): past that a statement fails.
 * Meant as the FROM of a statement that goes on only when both are held (app/modules/standings/recompute.server.ts).
 */
export function teamThenBoardSharedSql(teamId: SQLWrapper, { tryWithin }: { tryWithin?: SQLWrapper } = {}): SQL {
  if (tryWithin === undefined) {
    return sql`select true as team, true as board from (select pg_advisory_xact_lock(${LOCK_CLASS.team}, ${teamId}), pg_advisory_xact_lock_shared(${LOCK_CLASS.board}, 0)) taken`;
  }
  return sql`select set_config('lock_timeout', ${tryWithin}::text, true), pg_try_advisory_xact_lock(${LOCK_CLASS.team}, ${teamId}) as team, pg_try_advisory_xact_lock_shared(${LOCK_CLASS.board}, 0) as board`;
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
  return sql<number>`(select count(*)::int from (select pg_advisory_xact_lock(${LOCK_CLASS.userStatistics}, locked.id) from (${userIds}) locked(id) order by locked.id) taken)`;
}

/**
 * A batch recompute's locks (app/modules/standings/recompute.server.ts, `recomputeTeamsTogether`): every team's
 * lock in id order, then the board lock shared, then the users' locks (`users`: a query of one id column) in
 * id order, in one statement: the order every single recompute takes them in, so a batch and the jobs never
 * wait for each other in a circle.
 */
export function teamsThenBoardSharedThenUsersSql(teamIds: SQLWrapper, users: SQL): SQL {
  return sql`select (select count(*)::int from (select pg_advisory_xact_lock(${LOCK_CLASS.team}, locked.id) from unnest(${teamIds}::int[]) locked(id) order by locked.id) taken) as teams,
    (select count(*)::int from (select pg_advisory_xact_lock_shared(${LOCK_CLASS.board}, 0)) board) as board,
    ${lockUsersSql(users)} as users`;
}

/**
 * A web process's batch's locks (app/modules/standings/batcher.server.ts), in one statement, never waited for: the
 * board lock shared, then each team's, only tried (a team another recompute holds, a dynamic challenge's round or a
 * job, is left out; a rebuild or a freeze holding the board leaves them all out), then the users' locks (`users`,
 * given the SQL of the array of teams held and pending, a query of one id column), waited for in id order: they are
 * held only by the recompute of another team crediting the same user, which never waits for a team lock once it
 * holds users' ones. One row: `board` (held), `teams` (the teams held) and `pending` (those with an outbox row).
 * Materialised once, so each lock is asked for once.
 */
export function boardThenTeamsTriedThenUsersSql(teamIds: SQLWrapper, pendingOf: (teams: SQL) => SQL, users: (pending: SQL) => SQL): SQL {
  return sql`with board as materialized (select pg_try_advisory_xact_lock_shared(${LOCK_CLASS.board}, 0) as held),
    teams as materialized (select coalesce(array_agg(tried.id order by tried.id) filter (where tried.held), '{}') as held
      from (select ask.id, pg_try_advisory_xact_lock(${LOCK_CLASS.team}, ask.id) as held from board, unnest(${teamIds}::int[]) ask(id) where board.held order by ask.id) tried),
    pending as materialized (select ${pendingOf(sql`teams.held`)} as ids from teams)
    select board.held as board, teams.held as teams, pending.ids as pending, ${lockUsersSql(users(sql`pending.ids`))} as users from board, teams, pending`;
}
