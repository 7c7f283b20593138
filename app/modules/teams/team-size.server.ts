/**
 * The team size cap, in one place (docs/domain.md "Teams"): a team has at most `event_settings.team_size_cap`
 * members (5 by default, as the registration form says). Everything that puts a user in a team (the Users
 * page and the API's user calls, the bulk import, accounts made from registrations) asks `admitMembers`
 * inside its own transaction, before it writes the user.
 *
 * Race-safe: `admitMembers` locks the team's row (FOR NO KEY UPDATE: adders take turns, while the key
 * share lock a new submission's foreign key takes is not blocked), then counts the members in a statement of
 * its own, so under READ COMMITTED the count sees every member committed by an adder that held the lock
 * before. Two adds at one place left: the second waits, counts the first, and is refused.
 *
 * Lowering the cap keeps the members a team has; it only stops new ones while the team is at or over it.
 *
 * One order of locks (docs/domain.md "Teams"): every change of who is in which team locks the teams' rows it
 * touches first, by id (`lockTeams`), then the users' rows, by id (`lockUsers`). Two changes at once (a member
 * leaving while the captain removes them, an admin's move while a captain leaves) then wait for each other
 * instead of each holding a row the other needs (a deadlock, which Postgres ends by failing one).
 */
import { asc, count, eq, type SQL } from "drizzle-orm";
import type { Queryable, Transaction } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { eventSettings, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";

export const DEFAULT_TEAM_SIZE_CAP = 5;
export const MAX_TEAM_SIZE_CAP = 100;

/** A refusal: the team has no place left for another member. */
export class TeamFullError extends DomainError {
  constructor(
    readonly team: string,
    readonly cap: number,
    field = "teamId",
  ) {
    super(messages.teamSize.full(team, cap), { status: 409, field });
  }
}

/** The rule itself: whether `adding` more members fit beside `members` under `cap`. */
export function fitsInTeam(members: number, adding: number, cap: number): boolean {
  return members + adding <= cap;
}

export async function readTeamSizeCap(db: Queryable = getDb()): Promise<number> {
  const [row] = await db.select({ cap: eventSettings.teamSizeCap }).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return row?.cap ?? DEFAULT_TEAM_SIZE_CAP;
}

/** The cap for a page that only shows it (the registration form): the default, logged, when Postgres cannot say. */
export async function teamSizeCapToShow(): Promise<number> {
  try {
    return await readTeamSizeCap();
  } catch (error) {
    getLogger().warn({ err: error }, "team size cap unreadable: the default is shown");
    return DEFAULT_TEAM_SIZE_CAP;
  }
}

/** How many members each of these teams has now (a preview's view: no lock). */
export async function memberCounts(db: Queryable, teamIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(teamIds.map((id) => [id, 0]));
  if (!teamIds.length) return counts;
  const rows = await db.select({ teamId: users.teamId, n: count() }).from(users).where(anyOf(users.teamId, teamIds)).groupBy(users.teamId);
  for (const row of rows) if (row.teamId !== null) counts.set(row.teamId, row.n);
  return counts;
}

/** The teams' rows, locked FOR NO KEY UPDATE in id order (the first lock of a membership change). */
export async function lockTeams(tx: Transaction, teamIds: ReadonlyArray<number | null | undefined>) {
  const ids = [...new Set(teamIds.filter((id): id is number => typeof id === "number"))];
  if (!ids.length) return [];
  return tx.select({ id: teams.id, name: teams.name, captainId: teams.captainId }).from(teams).where(anyOf(teams.id, ids)).orderBy(asc(teams.id)).for("no key update");
}

/** The users' rows `where` picks, locked FOR UPDATE in id order (after their teams': `lockTeams`). */
export async function lockUsers(tx: Transaction, where: SQL) {
  return tx.select({ id: users.id, name: users.name, teamId: users.teamId }).from(users).where(where).orderBy(asc(users.id)).for("update");
}

/** A user's team changed between a first look and the locks (their team's row was locked in vain): start again. */
export class MembershipMoved extends Error {
  constructor() {
    super("a user's team changed before its row was locked");
    this.name = "MembershipMoved";
  }
}

/**
 * Runs a change of membership in a transaction, again (twice at most) when it found a user's team changed
 * between its first look and its locks (`MembershipMoved`): the team it locked was the wrong one, and locking
 * the right one then could break the order.
 */
export async function changeMembership<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getDb().transaction(run);
    } catch (error) {
      if (!(error instanceof MembershipMoved) || attempt >= 3) throw error;
    }
  }
}

/**
 * Makes room for `adding` new members of the team, or refuses (TeamFullError, 409) when they would take it
 * past the cap. Call it in the transaction that then writes the users, before writing them: the team's
 * row stays locked until that transaction ends. A team that no longer exists is a DomainError (409).
 */
export async function admitMembers(tx: Transaction, teamId: number, adding = 1, field = "teamId"): Promise<void> {
  if (adding <= 0) return;
  const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId)).for("no key update");
  // As a user form whose team was deleted meanwhile has always been answered (409 on the team input).
  if (!team) throw new DomainError(messages.dashboard.teamNotFound, { status: 409, field });
  // A statement of its own, after the lock: it sees every member an earlier holder of the lock committed.
  const [[members], cap] = await Promise.all([tx.select({ n: count() }).from(users).where(eq(users.teamId, teamId)), readTeamSizeCap(tx)]);
  if (!fitsInTeam(members.n, adding, cap)) throw new TeamFullError(team.name, cap, field);
}

/** Sets the cap (Settings → Teams). Teams already over it keep their members. Audited when it changes. */
export async function updateTeamSizeCap(actor: Actor, cap: number): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ teamSizeCap: eventSettings.teamSizeCap }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new DomainError(messages.teamSize.needsFinal, { status: 400, field: "teamSizeCap" });
    if (before.teamSizeCap === cap) return;
    await tx.update(eventSettings).set({ teamSizeCap: cap }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.team-cap", before, after: { teamSizeCap: cap } });
  });
}
