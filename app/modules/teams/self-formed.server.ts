/**
 * Teams that form themselves (docs/domain.md "Teams that form themselves"), when the event's setting allows
 * it: a participant without a team creates one (and is its captain), invites others by a code or a link that
 * carries it, removes members; a member leaves; anyone joins with a live code while the team has room.
 *
 * - Every change runs in one transaction that first takes the settings row FOR SHARE: an admin's lock
 *   (`saveTeamFormation`, FOR UPDATE) waits for the joins in flight and every later one sees it, so "locked"
 *   holds from the instant it commits. Then the rows in the membership order (app/modules/teams/team-size.server.ts):
 *   the team's row, then the users' rows by id (one's own team read afresh, never from the session's remembered
 *   copy; the transaction runs again if it changed before the lock), so a member leaving while the captain removes
 *   them waits rather than deadlocks. A join then counts through `admitMembers` (the one cap rule): joins racing
 *   for the last place take turns and the cap holds.
 * - A code is `<selector>-<verifier>` in Crockford's base32: 4 + 8 characters, 20 + 40 random bits. The
 *   selector finds the row; only the verifier's SHA-256 is stored, compared with `timingSafeEqual`. Tries are
 *   limited per user and per client address (Redis), right or wrong, before the code is looked at.
 * - Joining, leaving or being removed by the captain keeps one's sign-in sessions: the user is the same
 *   person; their sockets follow the new team (app/glue/realtime.server.ts reconciles on the change's notice).
 *   An admin's change of a user's team on the Users page still ends their sessions (users.server.ts).
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, asc, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import type { Transaction } from "../../../db/client.ts";
import { eventSettings, teamInvites, teams, users } from "../../../db/schema.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { triesLimiter } from "../../infrastructure/tries.server.ts";
import { recordAudit, type Actor, type UserActor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { NAME_CONSTRAINTS, nameColumns } from "../names/names.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { admitMembers, changeMembership, lockTeams, lockUsers, MembershipMoved, readTeamSizeCap, TeamFullError } from "./team-size.server.ts";

const m = messages.selfTeams;

/** How long an invitation stays usable. */
export const INVITE_DAYS = 7;
/** Live invitations a team may hold at once (each is a row: a captain cannot grow the table without bound). */
export const LIVE_INVITES_PER_TEAM = 10;
/** Tries at a code: per user, and per client address (a classroom shares one), each a 15-minute window. */
export const JOIN_TRIES_PER_USER = { points: 10, duration: 900 } as const;
export const JOIN_TRIES_PER_CLIENT = { points: 40, duration: 900 } as const;

// Crockford's base32: no I, L, O, U; what a person types is read without case, hyphens or spaces.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const SELECTOR_LENGTH = 4;
const VERIFIER_LENGTH = 8;

function randomCode(length: number): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

/** A typed code in one form ("abcd efgh-jkmn" → "ABCDEFGHJKMN"), with the look-alikes Crockford maps. Null: not a code. */
export function normaliseInviteCode(typed: string): { selector: string; verifier: string } | null {
  if (typed.length > 64) return null;
  const plain = typed
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  if (plain.length !== SELECTOR_LENGTH + VERIFIER_LENGTH || [...plain].some((char) => !ALPHABET.includes(char))) return null;
  return { selector: plain.slice(0, SELECTOR_LENGTH), verifier: plain.slice(SELECTOR_LENGTH) };
}

/** The code as shown: "ABCD-EFGH-JKMN". */
export function shownInviteCode(selector: string, verifier: string): string {
  return `${selector}-${verifier.slice(0, 4)}-${verifier.slice(4)}`;
}

function verifierHash(verifier: string): Buffer {
  return createHash("sha256").update(verifier).digest();
}

const tries = { user: triesLimiter("invite-user", JOIN_TRIES_PER_USER), client: triesLimiter("invite-client", JOIN_TRIES_PER_CLIENT) };

export interface TeamFormation {
  selfFormedTeams: boolean;
  teamsLocked: boolean;
}

export async function readTeamFormation(db: Pick<Transaction, "select"> = getDb()): Promise<TeamFormation> {
  const [row] = await db.select({ selfFormedTeams: eventSettings.selfFormedTeams, teamsLocked: eventSettings.teamsLocked }).from(eventSettings).where(eq(eventSettings.id, 1));
  return row ?? { selfFormedTeams: false, teamsLocked: false };
}

/**
 * The settings, read under a share lock on their row (held to the end of the caller's transaction), and the
 * refusals they make: off, locked, or not a participant.
 */
async function allowSelfService(tx: Transaction, actor: UserActor): Promise<void> {
  const [row] = await tx
    .select({ selfFormedTeams: eventSettings.selfFormedTeams, teamsLocked: eventSettings.teamsLocked })
    .from(eventSettings)
    .where(eq(eventSettings.id, 1))
    .for("share");
  if (!row?.selfFormedTeams) throw new DomainError(m.off, { status: 403 });
  if (actor.role !== "participant") throw new DomainError(m.participantsOnly, { status: 403 });
  if (row.teamsLocked) throw new DomainError(m.locked, { status: 409 });
}

/** The user's row, locked: their team as it is now. */
async function ownRow(tx: Transaction, userId: number) {
  const [row] = await tx.select({ id: users.id, name: users.name, teamId: users.teamId }).from(users).where(eq(users.id, userId)).for("update");
  if (!row) throw new DomainError(m.noTeam, { status: 404 });
  return row;
}

/**
 * The actor's team and the users' rows the change needs, locked in the membership order (team first, then
 * users by id: app/modules/teams/team-size.server.ts). `others` picks, once the team's row is locked, which
 * users beside the actor: none, one member, or every member (a captain leaving hands the team on, and the
 * new captain's row is then written to). A team changed between the first look and the locks: MembershipMoved.
 */
async function ownTeam(tx: Transaction, userId: number, others: (team: { id: number; captainId: number | null }) => "none" | "members" | number = () => "none") {
  const [look] = await tx.select({ teamId: users.teamId }).from(users).where(eq(users.id, userId));
  if (!look) throw new DomainError(m.noTeam, { status: 404 });
  if (look.teamId === null) throw new DomainError(m.noTeam, { status: 409 });
  const [team] = await lockTeams(tx, [look.teamId]);
  const also = team ? others(team) : "none";
  const rows = await lockUsers(
    tx,
    also === "members" && team ? or(eq(users.teamId, team.id), eq(users.id, userId))! : anyOf(users.id, typeof also === "number" ? [userId, also] : [userId]),
  );
  const me = rows.find((row) => row.id === userId);
  if (!me) throw new DomainError(m.noTeam, { status: 404 });
  if (!team || me.teamId !== team.id) throw new MembershipMoved();
  return { me, team, rows, captain: team.captainId === userId };
}

function captainOnly(captain: boolean) {
  if (!captain) throw new DomainError(m.captainOnly, { status: 403 });
}

/** A participant without a team creates one, as its captain. */
export async function createOwnTeam(actor: UserActor, name: string): Promise<{ id: number; name: string }> {
  const team = await getDb()
    .transaction(async (tx) => {
      await allowSelfService(tx, actor);
      const me = await ownRow(tx, actor.id);
      if (me.teamId !== null) throw new DomainError(m.alreadyInTeam, { status: 409 });
      const [row] = await tx
        .insert(teams)
        .values({ ...nameColumns(name), captainId: actor.id })
        .returning({ id: teams.id, name: teams.name });
      await tx.update(users).set({ teamId: row.id }).where(eq(users.id, actor.id));
      await markStandingsStale(tx, row.id);
      await recordAudit(tx, actor, { kind: "team.created", teamId: row.id, subjectId: row.id, after: { name: row.name, captain: actor.name } });
      await recordAudit(tx, actor, { kind: "team.joined", teamId: row.id, userId: actor.id, subjectId: actor.id, after: { team: row.name, captain: true } });
      return row;
    })
    .catch((error: unknown) => {
      if (NAME_CONSTRAINTS.teams.some((constraint) => isUniqueViolation(error, constraint))) throw new DomainError(messages.dashboard.teamNameTaken, { status: 409, field: "name" });
      throw error;
    });
  await requestStandingsRecompute(team.id);
  return team;
}

/** A new invitation of the captain's team: its code, shown once (only its verifier's digest is kept). */
export async function createInvite(actor: UserActor, now = new Date()): Promise<{ code: string; expiresAt: Date }> {
  for (let attempt = 0; ; attempt++) {
    const selector = randomCode(SELECTOR_LENGTH);
    const verifier = randomCode(VERIFIER_LENGTH);
    try {
      return await changeMembership(async (tx) => {
        await allowSelfService(tx, actor);
        const { team, captain } = await ownTeam(tx, actor.id);
        captainOnly(captain);
        const [live] = await tx
          .select({ n: count() })
          .from(teamInvites)
          .where(and(eq(teamInvites.teamId, team.id), isNull(teamInvites.revokedAt), gt(teamInvites.expiresAt, now)));
        if (live.n >= LIVE_INVITES_PER_TEAM) throw new DomainError(m.tooManyInvites(LIVE_INVITES_PER_TEAM), { status: 409 });
        const expiresAt = new Date(now.getTime() + INVITE_DAYS * 86_400_000);
        const [invite] = await tx
          .insert(teamInvites)
          .values({ teamId: team.id, selector, verifierHash: verifierHash(verifier).toString("hex"), createdBy: actor.id, expiresAt })
          .returning({ id: teamInvites.id });
        await recordAudit(tx, actor, { kind: "team.invite-created", teamId: team.id, subjectId: invite.id, after: { expiresAt } });
        return { code: shownInviteCode(selector, verifier), expiresAt };
      });
    } catch (error) {
      // Two invitations drew one selector (1 in a million each): draw again.
      if (attempt < 4 && isUniqueViolation(error, "team_invites_selector_key")) continue;
      throw error;
    }
  }
}

/** The captain revokes one of their team's invitations; a revoked or expired one stays refused. */
export async function revokeInvite(actor: UserActor, inviteId: number): Promise<void> {
  await changeMembership(async (tx) => {
    await allowSelfService(tx, actor);
    const { team, captain } = await ownTeam(tx, actor.id);
    captainOnly(captain);
    const [invite] = await tx
      .update(teamInvites)
      .set({ revokedAt: new Date() })
      .where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamId, team.id), isNull(teamInvites.revokedAt)))
      .returning({ id: teamInvites.id });
    if (!invite) throw new DomainError(m.inviteNotFound, { status: 404 });
    await recordAudit(tx, actor, { kind: "team.invite-revoked", teamId: team.id, subjectId: invite.id });
  });
}

/**
 * Joins the team whose invitation `typed` is. Refusals, each a sentence: too many tries (429), not a code
 * of ours (404), revoked or expired (410), already in a team (409), the team full (409), teams locked (409).
 */
export async function joinByCode(actor: UserActor, typed: string, client: string, now = new Date()): Promise<{ id: number; name: string }> {
  const wait = Math.max(await tries.user.take(String(actor.id)), await tries.client.take(client));
  if (wait > 0) throw new DomainError(m.tooManyTries(wait), { status: 429, retryAfterSeconds: wait, field: "code" });
  const code = normaliseInviteCode(typed);
  const team = await getDb().transaction(async (tx) => {
    await allowSelfService(tx, actor);
    const [invite] = code
      ? await tx
          .select({ id: teamInvites.id, teamId: teamInvites.teamId, verifierHash: teamInvites.verifierHash, expiresAt: teamInvites.expiresAt, revokedAt: teamInvites.revokedAt })
          .from(teamInvites)
          .where(eq(teamInvites.selector, code.selector))
      : [];
    // Compared in constant time, a stand-in digest when no row has the selector: the answer's time says nothing.
    const stored = invite ? Buffer.from(invite.verifierHash, "hex") : Buffer.alloc(32);
    const matches = timingSafeEqual(stored.length === 32 ? stored : Buffer.alloc(32), verifierHash(code?.verifier ?? "")) && invite !== undefined;
    if (!invite || !matches) throw new DomainError(m.inviteUnknown, { status: 404, field: "code" });
    if (invite.revokedAt) throw new DomainError(m.inviteRevoked, { status: 410, field: "code" });
    if (invite.expiresAt.getTime() <= now.getTime()) throw new DomainError(m.inviteExpired, { status: 410, field: "code" });
    // The membership order: the team's row, then the user's (app/modules/teams/team-size.server.ts).
    await lockTeams(tx, [invite.teamId]);
    const [me] = await lockUsers(tx, eq(users.id, actor.id));
    if (!me) throw new DomainError(m.noTeam, { status: 404 });
    if (me.teamId === invite.teamId) throw new DomainError(m.alreadyThisTeam, { status: 409, field: "code" });
    if (me.teamId !== null) throw new DomainError(m.leaveFirst, { status: 409, field: "code" });
    try {
      await admitMembers(tx, invite.teamId, 1, "code");
    } catch (error) {
      if (error instanceof TeamFullError) throw new DomainError(m.teamFull(error.team, error.cap), { status: 409, field: "code" });
      throw error;
    }
    const [joined] = await tx.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, invite.teamId));
    await tx.update(users).set({ teamId: joined.id }).where(eq(users.id, actor.id));
    await tx.update(teamInvites).set({ joins: sql`${teamInvites.joins} + 1` }).where(eq(teamInvites.id, invite.id));
    await markStandingsStale(tx, joined.id);
    await recordAudit(tx, actor, { kind: "team.joined", teamId: joined.id, userId: actor.id, subjectId: actor.id, after: { team: joined.name, inviteId: invite.id } });
    return joined;
  });
  await requestStandingsRecompute(team.id);
  return team;
}

/**
 * Takes a member out of the team: the member themselves (leaving), or the captain (removing another). A
 * captain who leaves hands the team to its longest-standing member (the lowest account number), if any;
 * a team left without members stays, empty, for an admin to delete or fill.
 */
async function takeOut(actor: UserActor, userId: number): Promise<void> {
  const leaving = userId === actor.id;
  const teamId = await changeMembership(async (tx) => {
    await allowSelfService(tx, actor);
    // Removing: the member's row too; a captain leaving: every member's (one of them becomes captain).
    const { team, captain, rows } = await ownTeam(tx, actor.id, (locked) => (!leaving ? userId : locked.captainId === actor.id ? "members" : "none"));
    if (!leaving) {
      captainOnly(captain);
      const member = rows.find((row) => row.id === userId && row.teamId === team.id);
      if (!member) throw new DomainError(m.memberNotFound, { status: 404 });
      await tx.update(users).set({ teamId: null }).where(eq(users.id, member.id));
      // The removed member knows the team's live codes: they are revoked with the removal, or the member would be
      // back at once (the captain makes a new invitation for the others).
      const revoked = await tx
        .update(teamInvites)
        .set({ revokedAt: new Date() })
        .where(and(eq(teamInvites.teamId, team.id), isNull(teamInvites.revokedAt)))
        .returning({ id: teamInvites.id });
      await recordAudit(tx, actor, {
        kind: "team.member-removed",
        teamId: team.id,
        userId: member.id,
        subjectId: member.id,
        before: { team: team.name, member: member.name },
        ...(revoked.length > 0 ? { after: { invitationsRevoked: revoked.length } } : {}),
      });
    } else {
      await tx.update(users).set({ teamId: null }).where(eq(users.id, actor.id));
      let nextCaptain: { id: number; name: string } | undefined;
      if (captain) nextCaptain = await handOnCaptaincy(tx, team.id, actor.id, rows);
      await recordAudit(tx, actor, {
        kind: "team.left",
        teamId: team.id,
        userId: actor.id,
        subjectId: actor.id,
        before: { team: team.name, ...(captain ? { captain: true } : {}) },
        ...(captain ? { after: { captain: nextCaptain?.name ?? null } } : {}),
      });
    }
    await markStandingsStale(tx, team.id);
    return team.id;
  });
  await requestStandingsRecompute(teamId);
}

/**
 * The captain of `teamId` is leaving it (by themselves, or moved or deleted by an admin): the team goes to its
 * longest-standing other member (the lowest account number), or to no one. `members`: the team's members' rows,
 * locked in id order (the membership order: app/modules/teams/team-size.server.ts). Returns the new captain.
 */
export async function handOnCaptaincy(tx: Transaction, teamId: number, leavingId: number, members: ReadonlyArray<{ id: number; name: string; teamId: number | null }>) {
  const next = members.find((row) => row.id !== leavingId && row.teamId === teamId);
  await tx.update(teams).set({ captainId: next?.id ?? null }).where(eq(teams.id, teamId));
  return next;
}

export function leaveOwnTeam(actor: UserActor): Promise<void> {
  return takeOut(actor, actor.id);
}

export function removeMember(actor: UserActor, userId: number): Promise<void> {
  if (userId === actor.id) return leaveOwnTeam(actor);
  return takeOut(actor, userId);
}

export interface TeamPage {
  formation: TeamFormation;
  timeZone: string;
  participant: boolean;
  cap: number;
  team: null | {
    id: number;
    name: string;
    captain: boolean;
    members: Array<{ id: number; name: string; captain: boolean; you: boolean }>;
    // The captain's only: the live invitations (never a code: only its digest is kept).
    invites: Array<{ id: number; createdAt: string; expiresAt: string; joins: number }>;
  };
}

/** What /team shows the user. */
export async function readTeamPage(user: { id: number; role: string }, now = new Date()): Promise<TeamPage> {
  const db = getDb();
  const [[settings], cap, [me]] = await Promise.all([
    db.select({ selfFormedTeams: eventSettings.selfFormedTeams, teamsLocked: eventSettings.teamsLocked, timeZone: eventSettings.timeZone }).from(eventSettings).where(eq(eventSettings.id, 1)),
    readTeamSizeCap(db),
    db.select({ teamId: users.teamId }).from(users).where(eq(users.id, user.id)),
  ]);
  const formation = { selfFormedTeams: settings?.selfFormedTeams ?? false, teamsLocked: settings?.teamsLocked ?? false };
  const timeZone = settings?.timeZone ?? "Africa/Algiers";
  const participant = user.role === "participant";
  if (!me?.teamId) return { formation, timeZone, participant, cap, team: null };
  const [[team], members] = await Promise.all([
    db.select({ id: teams.id, name: teams.name, captainId: teams.captainId }).from(teams).where(eq(teams.id, me.teamId)),
    db.select({ id: users.id, name: users.name }).from(users).where(eq(users.teamId, me.teamId)).orderBy(asc(users.id)),
  ]);
  if (!team) return { formation, timeZone, participant, cap, team: null };
  const captain = team.captainId === user.id;
  const invites = captain
    ? await db
        .select({ id: teamInvites.id, createdAt: teamInvites.createdAt, expiresAt: teamInvites.expiresAt, joins: teamInvites.joins })
        .from(teamInvites)
        .where(and(eq(teamInvites.teamId, team.id), isNull(teamInvites.revokedAt), gt(teamInvites.expiresAt, now)))
        .orderBy(asc(teamInvites.id))
    : [];
  return {
    formation,
    timeZone,
    participant,
    cap,
    team: {
      id: team.id,
      name: team.name,
      captain,
      members: members.map((member) => ({ id: member.id, name: member.name, captain: member.id === team.captainId, you: member.id === user.id })),
      invites: invites.map((invite) => ({ id: invite.id, createdAt: invite.createdAt.toISOString(), expiresAt: invite.expiresAt.toISOString(), joins: invite.joins })),
    },
  };
}

/**
 * Settings → Teams: whether participants form their own teams, and whether teams are locked. Takes the
 * settings row FOR UPDATE: every self-service change in flight (FOR SHARE) ends first, and every later one
 * reads the new values. Audited when something changed.
 */
export async function saveTeamFormation(actor: Actor, next: TeamFormation): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ selfFormedTeams: eventSettings.selfFormedTeams, teamsLocked: eventSettings.teamsLocked })
      .from(eventSettings)
      .where(eq(eventSettings.id, 1))
      .for("update");
    if (!before) throw new DomainError(messages.teamSize.needsFinal, { status: 400, field: "selfFormedTeams" });
    if (before.selfFormedTeams === next.selfFormedTeams && before.teamsLocked === next.teamsLocked) return;
    await tx.update(eventSettings).set(next).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.team-formation", before, after: { ...next } });
  });
}
