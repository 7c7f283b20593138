/**
 * Users: create, edit, delete. Names are logins, unique without regard to case. Moving a
 * participant between teams marks both teams' standings stale (membership changes the board).
 * Deleting a user keeps their team's submissions (the foreign key sets submissions.user_id null).
 * A change to who a user is (role, team, password) ends their sign-in sessions in the same
 * transaction (docs/decisions/015-server-side-sessions.md); deleting them ends them by cascade.
 */
import { asc, eq, sql } from "drizzle-orm";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { hashPassword } from "../auth/password.server.ts";
import { forgetRecentUsers } from "../auth/recent-users.server.ts";
import { endSession, endSessionsOf, listSessionsOf } from "../auth/sessions.server.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { DashboardError, isUniqueViolation } from "../teams/teams.server.ts";
import { NAME_CONSTRAINTS, nameColumns } from "../names/names.ts";
import type { UserFormValues } from "./schema.ts";

const m = messages.dashboard;

export async function listUsers() {
  return getDb()
    .select({ id: users.id, name: users.name, role: users.role, teamId: users.teamId, team: teams.name })
    .from(users)
    .leftJoin(teams, eq(teams.id, users.teamId))
    .orderBy(asc(users.role), asc(sql`lower(${users.name})`), asc(users.id));
}

export async function getUser(id: number) {
  const [user] = await getDb()
    .select({ id: users.id, name: users.name, role: users.role, teamId: users.teamId, team: teams.name, createdAt: users.createdAt })
    .from(users)
    .leftJoin(teams, eq(teams.id, users.teamId))
    .where(eq(users.id, id));
  return user ?? null;
}

function translate(error: unknown): never {
  if (NAME_CONSTRAINTS.users.some((constraint) => isUniqueViolation(error, constraint))) throw new DashboardError(m.userNameTaken, 409, "name");
  // 23503: the chosen team was deleted meanwhile.
  if ((error as { code?: string; cause?: { code?: string } }).code === "23503" || (error as { cause?: { code?: string } }).cause?.code === "23503") {
    throw new DashboardError(m.teamNotFound, 409, "teamId");
  }
  throw error;
}

async function afterCommit(teamIds: Array<number | null | undefined>) {
  for (const teamId of new Set(teamIds)) if (teamId) await requestStandingsRecompute(teamId);
}

export async function createUser(input: Omit<UserFormValues, "id">) {
  const teamId = input.role === "participant" ? (input.teamId ?? null) : null;
  const passwordHash = await hashPassword(input.password ?? "");
  const user = await getDb()
    .transaction(async (tx) => {
      const [row] = await tx.insert(users).values({ ...nameColumns(input.name), role: input.role, teamId, passwordHash }).returning({ id: users.id });
      if (teamId) await markStandingsStale(tx, teamId);
      return row;
    })
    .catch(translate);
  await afterCommit([teamId]);
  return user;
}

/** Who makes a change: an admin, and the session they make it from (kept when they change their own password). */
export interface Actor {
  id: number;
  sessionId: number | null;
}

/**
 * An admin cannot delete or demote themselves (the event would be left without its admin). A new role,
 * team or password ends every session of the user: the sessions were opened as someone the user no
 * longer is, or by someone who may no longer know the password. An admin changing their own password
 * keeps the session they changed it from.
 */
export async function updateUser(actor: Actor, input: UserFormValues & { id: number }) {
  if (input.id === actor.id && input.role !== "admin") throw new DashboardError(m.cannotDemoteSelf, 409, "role");
  const teamId = input.role === "participant" ? (input.teamId ?? null) : null;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const touched = await getDb()
    .transaction(async (tx) => {
      const [before] = await tx.select({ teamId: users.teamId, role: users.role }).from(users).where(eq(users.id, input.id)).for("update");
      if (!before) throw new DashboardError(m.userNotFound, 404);
      if (before.role !== input.role || before.teamId !== teamId || passwordHash) {
        await endSessionsOf(tx, input.id, input.id === actor.id ? actor.sessionId : null);
      }
      await tx
        .update(users)
        .set({ ...nameColumns(input.name), role: input.role, teamId, ...(passwordHash ? { passwordHash } : {}) })
        .where(eq(users.id, input.id));
      const stale = before.teamId === teamId ? [] : [before.teamId, teamId];
      for (const id of stale) if (id) await markStandingsStale(tx, id);
      return stale;
    })
    .catch(translate);
  // Committed: forget the callers remembered here at once (the other processes at Postgres's notice).
  forgetRecentUsers();
  await afterCommit(touched);
}

export async function deleteUser(actor: Actor, id: number) {
  if (id === actor.id) throw new DashboardError(m.cannotDeleteSelf, 409);
  const teamId = await getDb().transaction(async (tx) => {
    const [row] = await tx.delete(users).where(eq(users.id, id)).returning({ teamId: users.teamId });
    if (!row) throw new DashboardError(m.userNotFound, 404);
    if (row.teamId) await markStandingsStale(tx, row.teamId);
    return row.teamId;
  });
  // Their sessions went with them (cascade): forget them here at once, the other processes at the notice.
  forgetRecentUsers();
  await afterCommit([teamId]);
}

async function requireUserRow(id: number) {
  const [row] = await getDb().select({ id: users.id }).from(users).where(eq(users.id, id));
  if (!row) throw new DashboardError(m.userNotFound, 404);
}

/** A user's live sign-in sessions, for an admin (never a token or its hash). */
export async function listUserSessions(userId: number) {
  await requireUserRow(userId);
  return listSessionsOf(userId);
}

/** Ends every session of the user (every web process refuses them within a second). */
export async function endUserSessions(userId: number): Promise<number> {
  await requireUserRow(userId);
  const ended = await endSessionsOf(getDb(), userId);
  if (ended > 0) forgetRecentUsers();
  return ended;
}

/** Ends one session of the user; 404 when the user or that session of theirs is gone. */
export async function endUserSession(userId: number, sessionId: number): Promise<void> {
  await requireUserRow(userId);
  if (!(await endSession(userId, sessionId))) throw new DashboardError(m.sessionNotFound, 404);
}
