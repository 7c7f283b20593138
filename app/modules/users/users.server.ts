/**
 * Users: create, edit, delete. Names are logins, unique without regard to case. Moving a
 * participant between teams marks both teams' standings stale (membership changes the board).
 * Deleting a user keeps their team's submissions (the foreign key sets submissions.user_id null).
 * A user joins a team only while it has room under the team size cap (app/modules/teams/team-size.server.ts).
 * A change to who a user is (role, team, password) ends their sign-in sessions in the same
 * transaction (docs/decisions/015-server-side-sessions.md); deleting them ends them by cascade.
 * A user may have an e-mail address (unique without regard to case) and a language for their mail; a new
 * user given an address and no password is mailed a link to choose one (docs/domain.md "Mail").
 */
import { asc, eq, or, sql } from "drizzle-orm";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor, type UserActor } from "../audit/audit.server.ts";
import { belongsToTeam, mayManageUsers } from "../auth/access.ts";
import { hashPassword, NO_PASSWORD } from "../auth/password.server.ts";
import { dispatchMails, mailIsOn, queueMails } from "../mail/mails.server.ts";
import { forgetRecentUsers } from "../auth/recent-users.server.ts";
import { endSession, endSessionsOf, listSessionsOf } from "../auth/sessions.server.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { handOnCaptaincy } from "../teams/self-formed.server.ts";
import { admitMembers, changeMembership, lockTeams, lockUsers, MembershipMoved } from "../teams/team-size.server.ts";
import { DashboardError } from "../teams/teams.server.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { NAME_CONSTRAINTS, nameColumns } from "../names/names.ts";
import type { UserFormValues } from "./schema.ts";

const m = messages.dashboard;

export async function listUsers() {
  return getDb()
    .select({ id: users.id, name: users.name, email: users.email, language: users.language, role: users.role, teamId: users.teamId, team: teams.name })
    .from(users)
    .leftJoin(teams, eq(teams.id, users.teamId))
    .orderBy(asc(users.role), asc(sql`lower(${users.name})`), asc(users.id));
}

export async function getUser(id: number) {
  const [user] = await getDb()
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailConfirmed: users.emailConfirmed,
      language: users.language,
      hasPassword: sql<boolean>`${users.passwordHash} <> ${NO_PASSWORD}`,
      role: users.role,
      teamId: users.teamId,
      team: teams.name,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(teams, eq(teams.id, users.teamId))
    .where(eq(users.id, id));
  return user ?? null;
}

function translate(error: unknown): never {
  if (NAME_CONSTRAINTS.users.some((constraint) => isUniqueViolation(error, constraint))) throw new DashboardError(m.userNameTaken, 409, "name");
  if (isUniqueViolation(error, "users_email_lower_key")) throw new DashboardError(messages.mail.addressTaken, 409, "email");
  // 23503: the chosen team was deleted meanwhile.
  if ((error as { code?: string; cause?: { code?: string } }).code === "23503" || (error as { cause?: { code?: string } }).cause?.code === "23503") {
    throw new DashboardError(m.teamNotFound, 409, "teamId");
  }
  throw error;
}

async function afterCommit(teamIds: Array<number | null | undefined>) {
  await requestStandingsRecompute(teamIds);
}

/**
 * A new user. Without a password, an address is needed and mail must be on: the user is mailed a link to
 * choose one (and signs in with nothing until then); `linkMailed` says so.
 */
export async function createUser(actor: Actor, input: Omit<UserFormValues, "id" | "emailConfirmed"> & { emailConfirmed?: boolean }): Promise<{ id: number; linkMailed: boolean }> {
  const teamId = belongsToTeam(input.role) ? (input.teamId ?? null) : null;
  const email = input.email ?? null;
  const mailLink = !input.password;
  if (mailLink && !email) throw new DashboardError(messages.mail.passwordOrAddress, 400, "password");
  if (mailLink && !mailIsOn()) throw new DashboardError(messages.mail.passwordNeeded, 400, "password");
  const passwordHash = input.password ? await hashPassword(input.password) : NO_PASSWORD;
  const language = input.language ?? "en";
  const user = await getDb()
    .transaction(async (tx) => {
      // The team size cap (app/modules/teams/team-size.server.ts): the team's row stays locked until commit.
      if (teamId) await admitMembers(tx, teamId);
      const [row] = await tx.insert(users).values({ ...nameColumns(input.name), role: input.role, teamId, passwordHash, email, emailConfirmed: email !== null && (input.emailConfirmed ?? true), language }).returning({ id: users.id, ...auditedColumns });
      if (teamId) await markStandingsStale(tx, teamId);
      const mailIds = mailLink && email ? await queueMails(tx, [{ userId: row.id, kind: "set_password", toAddress: email, language }]) : [];
      await recordAudit(tx, actor, { kind: "user.created", userId: row.id, teamId, subjectId: row.id, after: { ...audited(row), ...(mailLink ? { linkMailed: true } : {}) } });
      return { id: row.id, mailIds };
    })
    .catch(translate);
  await dispatchMails(user.mailIds);
  await afterCommit([teamId]);
  return { id: user.id, linkMailed: user.mailIds.length > 0 };
}

/** What a user's audit record keeps: never the password or its hash (a change of password is a flag). */
const auditedColumns = { name: users.name, role: users.role, teamId: users.teamId, email: users.email, emailConfirmed: users.emailConfirmed, language: users.language };

function audited(row: { name: string; role: string; teamId: number | null; email: string | null; emailConfirmed: boolean; language: string }) {
  return { name: row.name, role: row.role, teamId: row.teamId, email: row.email, emailConfirmed: row.emailConfirmed, language: row.language };
}

/**
 * Whether a saved address is confirmed: as the admin's box says (the Users form); else (the API) a new address is
 * one the admin typed, confirmed, and the address already there keeps its state, since saving an account for
 * another reason is no check of it. No address is never confirmed.
 */
function confirmation(before: string | null, email: string | null, box: boolean | undefined): { emailConfirmed?: boolean } {
  if (email === null) return { emailConfirmed: false };
  if (box !== undefined) return { emailConfirmed: box };
  return email.toLowerCase() === before?.toLowerCase() ? {} : { emailConfirmed: true };
}

/**
 * An admin cannot delete or demote themselves (the event would be left without its admin). A new role,
 * team or password ends every session of the user: the sessions were opened as someone the user no
 * longer is, or by someone who may no longer know the password. An admin changing their own password
 * keeps the session they changed it from.
 */
export async function updateUser(actor: UserActor, input: Omit<UserFormValues, "email" | "emailConfirmed"> & { id: number; email?: string | null; emailConfirmed?: boolean }) {
  if (input.id === actor.id && !mayManageUsers(input.role)) throw new DashboardError(m.cannotDemoteSelf, 409, "role");
  const teamId = belongsToTeam(input.role) ? (input.teamId ?? null) : null;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const touched = await changeMembership(async (tx) => {
    // The membership order (app/modules/teams/team-size.server.ts): both teams' rows, then the user's.
    const [look] = await tx.select({ teamId: users.teamId }).from(users).where(eq(users.id, input.id));
    if (!look) throw new DashboardError(m.userNotFound, 404);
    const locked = look.teamId !== teamId ? await lockTeams(tx, [look.teamId, teamId]) : [];
    // A captain moved out of their team hands it on (docs/domain.md "Teams that form themselves"): its members' rows too.
    const captained = locked.find((team) => team.id === look.teamId && team.captainId === input.id);
    const rows = await lockUsers(tx, captained ? or(eq(users.id, input.id), eq(users.teamId, captained.id))! : eq(users.id, input.id));
    const [before] = await tx.select(auditedColumns).from(users).where(eq(users.id, input.id));
    if (!before) throw new DashboardError(m.userNotFound, 404);
    if (before.teamId !== look.teamId) throw new MembershipMoved();
    // Joining a team takes a place under the cap; staying in one keeps it, even over a lowered cap.
    if (teamId && teamId !== before.teamId) await admitMembers(tx, teamId);
    let sessionsEnded = 0;
    if (before.role !== input.role || before.teamId !== teamId || passwordHash) {
      sessionsEnded = await endSessionsOf(tx, input.id, input.id === actor.id ? actor.sessionId : null);
    }
    const [after] = await tx
      .update(users)
      .set({
        ...nameColumns(input.name),
        role: input.role,
        teamId,
        ...(passwordHash ? { passwordHash } : {}),
        // Left out (the API's PATCH without it): kept; null: removed. An address an admin types is one they vouch
        // for: confirmed. The address already there (typed at /register) stays as it was when the form is saved
        // for another reason: saving a name is no check of the address (docs/domain.md "Sign-in with the
        // organisers' identity provider").
        ...(input.email !== undefined ? { email: input.email, ...confirmation(before.email, input.email, input.emailConfirmed) } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
      })
      .where(eq(users.id, input.id))
      .returning(auditedColumns);
    const nextCaptain = captained && after.teamId !== captained.id ? await handOnCaptaincy(tx, captained.id, input.id, rows) : undefined;
    const changed =
      before.name !== after.name || before.role !== after.role || before.teamId !== after.teamId || before.email !== after.email || before.emailConfirmed !== after.emailConfirmed || before.language !== after.language || passwordHash;
    if (changed) {
      await recordAudit(tx, actor, {
        kind: "user.updated",
        userId: input.id,
        teamId: after.teamId ?? before.teamId,
        subjectId: input.id,
        before: audited(before),
        after: {
          ...audited(after),
          ...(passwordHash ? { passwordChanged: true } : {}),
          ...(sessionsEnded ? { sessionsEnded } : {}),
          ...(captained && after.teamId !== captained.id ? { captainOf: { teamId: captained.id, next: nextCaptain?.name ?? null } } : {}),
        },
      });
    }
    const stale = before.teamId === teamId ? [] : [before.teamId, teamId];
    await markStandingsStale(tx, stale.filter((id): id is number => id !== null));
    return stale;
  }).catch(translate);
  // Committed: forget the callers remembered here at once (the other processes at Postgres's notice).
  forgetRecentUsers();
  await afterCommit(touched);
}

export async function deleteUser(actor: Actor, id: number) {
  if (id === actor.id) throw new DashboardError(m.cannotDeleteSelf, 409);
  const teamId = await changeMembership(async (tx) => {
    // The membership order (app/modules/teams/team-size.server.ts): the user's team and the team they captain
    // (its captain becomes none: a write to its row), then the user's row.
    const [look] = await tx.select({ teamId: users.teamId }).from(users).where(eq(users.id, id));
    if (!look) throw new DashboardError(m.userNotFound, 404);
    const captained = (await lockTeams(tx, [look.teamId, ...(await tx.select({ id: teams.id }).from(teams).where(eq(teams.captainId, id))).map((team) => team.id)])).filter(
      (team) => team.captainId === id,
    );
    // A captain's team goes to its next member (docs/domain.md "Teams that form themselves"): their rows are locked too.
    const rows = await lockUsers(tx, or(eq(users.id, id), ...captained.map((team) => eq(users.teamId, team.id)))!);
    const [row] = await tx.delete(users).where(eq(users.id, id)).returning(auditedColumns);
    if (!row) throw new DashboardError(m.userNotFound, 404);
    if (row.teamId !== look.teamId) throw new MembershipMoved();
    for (const team of captained) await handOnCaptaincy(tx, team.id, id, rows);
    if (row.teamId) await markStandingsStale(tx, row.teamId);
    await recordAudit(tx, actor, { kind: "user.deleted", userId: id, teamId: row.teamId, subjectId: id, before: audited(row) });
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

/** Ends every session of the user (every web process refuses them within a second); audited when any ended. */
export async function endUserSessions(actor: Actor, userId: number): Promise<number> {
  await requireUserRow(userId);
  const ended = await getDb().transaction(async (tx) => {
    const count = await endSessionsOf(tx, userId);
    if (count > 0) await recordAudit(tx, actor, { kind: "session.ended", userId, after: { sessionsEnded: count } });
    return count;
  });
  if (ended > 0) forgetRecentUsers();
  return ended;
}

/** Ends one session of the user; 404 when the user or that session of theirs is gone. */
export async function endUserSession(actor: Actor, userId: number, sessionId: number): Promise<void> {
  await requireUserRow(userId);
  await getDb().transaction(async (tx) => {
    if (!(await endSession(userId, sessionId, tx))) throw new DashboardError(m.sessionNotFound, 404);
    await recordAudit(tx, actor, { kind: "session.ended", userId, subjectId: sessionId, after: { sessionsEnded: 1 } });
  });
  forgetRecentUsers();
}
