/**
 * Teams that form themselves (docs/domain.md "Teams that form themselves"): the event's setting, a captain's
 * team and invitations (a code of 60 random bits, only its verifier's digest kept), joining by a code through
 * the page's action with one's session kept, removing, leaving, the lock, and the hostile cases: a wrong,
 * revoked or expired code, a full or locked team, tries past the limit, and joins racing for the last place.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, registrations, sessions, teamInvites, teams, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import type { UserActor } from "../../app/modules/audit/audit.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import {
  createInvite,
  createOwnTeam,
  JOIN_TRIES_PER_USER,
  joinByCode,
  leaveOwnTeam,
  normaliseInviteCode,
  readTeamPage,
  removeMember,
  revokeInvite,
  saveTeamFormation,
} from "../../app/modules/teams/self-formed.server.ts";
import { updateTeamSizeCap } from "../../app/modules/teams/team-size.server.ts";
import { deleteUser, updateUser } from "../../app/modules/users/users.server.ts";
import * as teamRoute from "../../app/routes/_app.team.tsx";
import { actorFor, ensureEventSettings, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { answerOf, callRoute } from "../support/route-manifest.ts";

const m = messages.selfTeams;
let serial = 0;
let client = 0;

/** A participant without a team, as the actor of their own changes (a client address of their own). */
async function participant(): Promise<UserActor> {
  const row = await makeUser("participant", null, `self-${process.pid}-${++serial}`);
  return { ...actorFor(row.id, row.name, "participant"), ip: `10.0.${Math.floor(++client / 250)}.${client % 250}` };
}

const teamOf = async (userId: number) => (await getDb().select({ teamId: users.teamId }).from(users).where(eq(users.id, userId)))[0].teamId;
const membersOf = async (teamId: number) => (await getDb().select({ n: count() }).from(users).where(eq(users.teamId, teamId)))[0].n;
const join = (actor: UserActor, code: string, now?: Date) => joinByCode(actor, code, actor.ip!, now);

async function captainWithTeam() {
  const captain = await participant();
  const team = await createOwnTeam(captain, `Self ${process.pid} ${++serial}`);
  return { captain, team };
}

beforeAll(async () => {
  await ensureEventSettings();
});

beforeEach(async () => {
  await saveTeamFormation(testAdmin, { selfFormedTeams: true, teamsLocked: false });
  await updateTeamSizeCap(testAdmin, 5);
});

describe("the setting", () => {
  it("off: nobody creates or joins a team by themselves, and the page says the organisers form teams", async () => {
    const { captain } = await captainWithTeam();
    const { code } = await createInvite(captain);
    await saveTeamFormation(testAdmin, { selfFormedTeams: false, teamsLocked: false });
    const other = await participant();
    await expect(createOwnTeam(other, "Nope")).rejects.toMatchObject({ message: m.off, status: 403 });
    await expect(join(other, code)).rejects.toMatchObject({ message: m.off, status: 403 });
    expect(await teamOf(other.id)).toBeNull();
    expect((await readTeamPage({ id: other.id, role: "participant" })).formation.selfFormedTeams).toBe(false);
  });

  it("staff are never members by themselves", async () => {
    const judge = await makeUser("judge");
    await expect(createOwnTeam(actorFor(judge.id, judge.name, "judge"), "Judges")).rejects.toMatchObject({ message: m.participantsOnly, status: 403 });
  });

  it("is audited when an admin changes it", async () => {
    await saveTeamFormation(testAdmin, { selfFormedTeams: true, teamsLocked: true });
    const [last] = await getDb().select().from(auditLog).where(eq(auditLog.kind, "event.team-formation")).orderBy(auditLog.id);
    expect(last).toBeTruthy();
  });
});

describe("a team formed by invitation", () => {
  it("the creator is captain; a second participant joins with the code (typed loosely); the captain's page lists them", async () => {
    const { captain, team } = await captainWithTeam();
    expect(await teamOf(captain.id)).toBe(team.id);
    const [row] = await getDb().select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, team.id));
    expect(row.captainId).toBe(captain.id);
    const { code, expiresAt } = await createInvite(captain);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Only the verifier's digest is stored: the code is nowhere in the table.
    const [stored] = await getDb().select().from(teamInvites).where(eq(teamInvites.teamId, team.id));
    expect(JSON.stringify(stored)).not.toContain(code.replace(/-/g, "").slice(4));
    const member = await participant();
    const joined = await join(member, ` ${code.toLowerCase().replace(/-/g, " ")} `);
    expect(joined).toEqual(team);
    const page = await readTeamPage({ id: captain.id, role: "participant" });
    expect(page.team?.members.map((one) => [one.name, one.captain])).toEqual([
      [captain.name, true],
      [member.name, false],
    ]);
    expect(page.team?.invites).toHaveLength(1);
    expect(page.team?.invites[0].joins).toBe(1);
    // The member sees the team, not its invitations.
    expect((await readTeamPage({ id: member.id, role: "participant" })).team?.invites).toEqual([]);
    const kinds = await getDb().select({ kind: auditLog.kind }).from(auditLog).where(eq(auditLog.teamId, team.id)).orderBy(auditLog.id);
    expect(kinds.map((one) => one.kind)).toEqual(["team.created", "team.joined", "team.invite-created", "team.joined"]);
  });

  it("joining through the page keeps one's session; an admin's move still ends it", async () => {
    const { captain } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const member = await participant();
    const cookie = await sessionCookie(member.id);
    const body = new URLSearchParams({ intent: "join", code });
    const request = new Request("http://localhost/team", { method: "POST", body, headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" } });
    const answer = answerOf(await callRoute(teamRoute as never, "action", { request, params: {}, context: {} }));
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/team");
    expect(await teamOf(member.id)).not.toBeNull();
    const live = async () => (await getDb().select({ n: count() }).from(sessions).where(eq(sessions.userId, member.id)))[0].n;
    expect(await live()).toBe(1);
    await leaveOwnTeam(member);
    expect(await live()).toBe(1);
    const other = await captainWithTeam();
    await updateUser(actorFor((await makeUser("admin")).id, "admin", "admin"), { id: member.id, name: member.name, role: "participant", teamId: other.team.id });
    expect(await live()).toBe(0);
  });

  it("a wrong code, a revoked and an expired invitation are refused with a sentence; a code for one's own team too", async () => {
    const { captain } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const member = await participant();
    const wrong = code.slice(0, -1) + (code.endsWith("0") ? "1" : "0");
    await expect(join(member, wrong)).rejects.toMatchObject({ message: m.inviteUnknown, status: 404 });
    await expect(join(member, "x".repeat(10_000).slice(0, 64))).rejects.toMatchObject({ message: m.inviteUnknown, status: 404 });
    await expect(join(member, code, new Date(Date.now() + 8 * 86_400_000))).rejects.toMatchObject({ message: m.inviteExpired, status: 410 });
    await expect(join(captain, code)).rejects.toMatchObject({ message: m.alreadyThisTeam, status: 409 });
    const [invite] = (await readTeamPage({ id: captain.id, role: "participant" })).team!.invites;
    await revokeInvite(captain, invite.id);
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "team.invite-revoked"), eq(auditLog.subjectId, invite.id)))).toHaveLength(1);
    await expect(join(member, code)).rejects.toMatchObject({ message: m.inviteRevoked, status: 410 });
    expect(await teamOf(member.id)).toBeNull();
  });

  it("a full team refuses the link with a sentence", async () => {
    await updateTeamSizeCap(testAdmin, 2);
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    await join(await participant(), code);
    const late = await participant();
    await expect(join(late, code)).rejects.toMatchObject({ message: m.teamFull(team.name, 2), status: 409 });
    expect(await membersOf(team.id)).toBe(2);
  });

  it("a locked team refuses joining, leaving, removing and inviting; an admin still moves people by hand", async () => {
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const member = await participant();
    await join(member, code);
    await saveTeamFormation(testAdmin, { selfFormedTeams: true, teamsLocked: true });
    const late = await participant();
    await expect(join(late, code)).rejects.toMatchObject({ message: m.locked, status: 409 });
    await expect(leaveOwnTeam(member)).rejects.toMatchObject({ message: m.locked });
    await expect(removeMember(captain, member.id)).rejects.toMatchObject({ message: m.locked });
    await expect(createInvite(captain)).rejects.toMatchObject({ message: m.locked });
    await expect(createOwnTeam(late, "Late")).rejects.toMatchObject({ message: m.locked });
    const admin = await makeUser("admin");
    await updateUser(actorFor(admin.id, admin.name, "admin"), { id: late.id, name: late.name, role: "participant", teamId: team.id });
    expect(await membersOf(team.id)).toBe(3);
  });

  it("tries are limited per user, even a right code past the limit", async () => {
    const { captain } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const guesser = await participant();
    for (let index = 0; index < JOIN_TRIES_PER_USER.points; index++) await expect(join(guesser, `ZZZZ-ZZZZ-ZZZ${index % 10}`)).rejects.toMatchObject({ status: 404 });
    await expect(join(guesser, code)).rejects.toMatchObject({ status: 429 });
    expect(await teamOf(guesser.id)).toBeNull();
  });

  it("tries are limited per client address across users", async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => participant()));
    const shared = "192.0.2.77";
    let refused = 0;
    for (let index = 0; index < 45; index++) {
      await joinByCode(users[index % 5], "0000-0000-0000", shared).catch((error: { status: number }) => {
        if (error.status === 429) refused++;
      });
    }
    expect(refused).toBe(5);
  });
});

describe("captains and members", () => {
  it("the captain removes a member; a member cannot; a captain who leaves hands the team on", async () => {
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const [first, second] = [await participant(), await participant()];
    await join(first, code);
    await join(second, code);
    await expect(removeMember(first, second.id)).rejects.toMatchObject({ message: m.captainOnly, status: 403 });
    await expect(createInvite(first)).rejects.toMatchObject({ message: m.captainOnly });
    const stranger = await participant();
    await expect(removeMember(captain, stranger.id)).rejects.toMatchObject({ message: m.memberNotFound, status: 404 });
    await removeMember(captain, second.id);
    expect(await teamOf(second.id)).toBeNull();
    // The code the removed member knows no longer lets them back.
    await expect(join(second, code)).rejects.toMatchObject({ message: m.inviteRevoked, status: 410 });
    expect(await teamOf(second.id)).toBeNull();
    await leaveOwnTeam(captain);
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "team.left"), eq(auditLog.userId, captain.id)))).toHaveLength(1);
    const [row] = await getDb().select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, team.id));
    expect(row.captainId).toBe(first.id);
    const removed = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "team.member-removed"), eq(auditLog.userId, second.id)));
    expect(removed).toHaveLength(1);
    await expect(leaveOwnTeam(stranger)).rejects.toMatchObject({ message: m.noTeam });
  });

  it("a captain an admin moves to another team, or deletes, hands the team to its next member", async () => {
    const admin = actorFor((await makeUser("admin")).id, "admin", "admin");
    const captainOf = async (teamId: number) => (await getDb().select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, teamId)))[0].captainId;
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const [first, second] = [await participant(), await participant()];
    await join(first, code);
    await join(second, code);
    const elsewhere = await captainWithTeam();
    await updateUser(admin, { id: captain.id, name: captain.name, role: "participant", teamId: elsewhere.team.id });
    expect(await captainOf(team.id)).toBe(first.id);
    // The new captain leads: they invite; the one moved away does not captain their old team.
    await expect(createInvite(first)).resolves.toMatchObject({ code: expect.any(String) });
    await deleteUser(admin, first.id);
    expect(await captainOf(team.id)).toBe(second.id);
    expect((await readTeamPage({ id: second.id, role: "participant" })).team?.captain).toBe(true);
  });

  it("one in a team creates no second team and joins no other", async () => {
    const { captain } = await captainWithTeam();
    const other = await captainWithTeam();
    const { code } = await createInvite(other.captain);
    await expect(createOwnTeam(captain, "Second")).rejects.toMatchObject({ message: m.alreadyInTeam, status: 409 });
    await expect(join(captain, code)).rejects.toMatchObject({ message: m.leaveFirst, status: 409 });
  });
});

/**
 * Two membership changes lined up behind a lock the test holds on a team's row: `first` starts, then `second`,
 * each once the one before waits (behind the test's lock, or behind the other) or has ended; then the lock goes.
 * Each settles to "ok" or its error.
 */
async function lineUpBehindTeam(teamId: number, first: () => Promise<unknown>, second: () => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let pid!: number;
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const blocker = getDb().transaction(async (tx) => {
    [{ pid }] = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("update");
    locked();
    await released;
  });
  await holding;
  const ended = new Set<Promise<unknown>>();
  const settle = (run: () => Promise<unknown>) => {
    const outcome = run().then(
      () => "ok" as const,
      (error: unknown) => error,
    );
    void outcome.then(() => ended.add(outcome));
    return outcome;
  };
  // Backends waiting behind the test's lock, directly or behind another waiter.
  const waitingOrEnded = async (n: number, outcomes: Promise<unknown>[]) => {
    for (;;) {
      const [row] = await getDb().execute<{ n: number }>(sql`with recursive behind(pid) as (select ${pid}::int union select activity.pid from pg_stat_activity activity, behind where behind.pid = any(pg_blocking_pids(activity.pid)))
        select count(*)::int - 1 as n from behind`);
      if (Number(row.n) + outcomes.filter((outcome) => ended.has(outcome)).length >= n) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const a = settle(first);
  await waitingOrEnded(1, [a]);
  const b = settle(second);
  await waitingOrEnded(2, [a, b]);
  release();
  await blocker;
  return Promise.all([a, b]);
}

const isDeadlock = (outcome: unknown) => {
  const error = outcome as { code?: string; cause?: { code?: string } } | undefined;
  return error?.code === "40P01" || error?.cause?.code === "40P01";
};

describe("membership changes at once (one order of locks: the team, then users by id)", () => {
  it("a member leaving while the captain removes them: no deadlock, the member is out, the loser reads a sentence", async () => {
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const member = await participant();
    await join(member, code);
    const [removed, left] = await lineUpBehindTeam(
      team.id,
      () => removeMember(captain, member.id),
      () => leaveOwnTeam(member),
    );
    expect(isDeadlock(removed) || isDeadlock(left)).toBe(false);
    expect(removed).toBe("ok");
    expect(left).toMatchObject({ message: m.noTeam });
    expect(await teamOf(member.id)).toBeNull();
    expect(await teamOf(captain.id)).toBe(team.id);
  });

  it("a captain leaving (handing the team on) while the next captain leaves: no deadlock, both are out", async () => {
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const next = await participant();
    await join(next, code);
    const outcomes = await lineUpBehindTeam(
      team.id,
      () => leaveOwnTeam(captain),
      () => leaveOwnTeam(next),
    );
    expect(outcomes.some(isDeadlock)).toBe(false);
    expect(outcomes).toEqual(["ok", "ok"]);
    expect(await membersOf(team.id)).toBe(0);
    const [row] = await getDb().select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, team.id));
    expect(row.captainId).toBeNull();
  });

  it("an admin moving the next captain to another team while the captain leaves: the team is never handed to someone outside it", async () => {
    const { captain, team } = await captainWithTeam();
    const other = await captainWithTeam();
    const { code } = await createInvite(captain);
    const next = await participant();
    await join(next, code);
    const admin = actorFor((await makeUser("admin")).id, "admin", "admin");
    // The move waits for the other team's row (the test holds it) while the captain leaves.
    const outcomes = await lineUpBehindTeam(
      other.team.id,
      () => updateUser(admin, { id: next.id, name: next.name, role: "participant", teamId: other.team.id }),
      () => leaveOwnTeam(captain),
    );
    expect(outcomes.some(isDeadlock)).toBe(false);
    expect(outcomes).toEqual(["ok", "ok"]);
    expect(await teamOf(next.id)).toBe(other.team.id);
    const [row] = await getDb().select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, team.id));
    expect(row.captainId).toBeNull();
  });
});

describe("racing joins at the cap", () => {
  it("twelve joins at once for two places: exactly two get in, the rest read that the team is full", async () => {
    await updateTeamSizeCap(testAdmin, 3);
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const racers = await Promise.all(Array.from({ length: 12 }, () => participant()));
    const results = await Promise.allSettled(racers.map((racer) => join(racer, code)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    for (const result of results) if (result.status === "rejected") expect(result.reason).toMatchObject({ message: m.teamFull(team.name, 3), status: 409 });
    expect(await membersOf(team.id)).toBe(3);
  });

  it("a lock racing joins: every join either landed before it or is refused", async () => {
    const { captain, team } = await captainWithTeam();
    const { code } = await createInvite(captain);
    const racers = await Promise.all(Array.from({ length: 4 }, () => participant()));
    const joins = racers.map((racer) => join(racer, code).then(() => "in", (error: Error) => error.message));
    await saveTeamFormation(testAdmin, { selfFormedTeams: true, teamsLocked: true });
    const outcomes = await Promise.all(joins);
    const landed = outcomes.filter((outcome) => outcome === "in").length;
    expect(outcomes.every((outcome) => outcome === "in" || outcome === m.locked)).toBe(true);
    expect(await membersOf(team.id)).toBe(1 + landed);
  });
});

describe("registrations while teams form themselves", () => {
  it("the team typed at registration is a wish: the account is made on no team", async () => {
    const teamName = `Wished ${process.pid} ${++serial}`;
    const [registration] = await getDb()
      .insert(registrations)
      .values({ name: "Wish", lastName: "Ful", email: `wish-${process.pid}-${serial}@example.org`, phone: "0555000000", nationalId: "1", skill: "x", tshirtSize: "M", hasTeam: true, teamName })
      .returning({ id: registrations.id });
    const result = await createAccountsFromRegistrations(testAdmin, [registration.id]);
    expect(result.created).toHaveLength(1);
    expect(result.created[0].teamName).toBeNull();
    expect(await getDb().select().from(teams).where(eq(teams.name, teamName))).toEqual([]);
  });
});

describe("codes", () => {
  it("reads Crockford's look-alikes and refuses anything else", () => {
    expect(normaliseInviteCode("abcd-efgh-jkmn")).toEqual({ selector: "ABCD", verifier: "EFGHJKMN" });
    expect(normaliseInviteCode("o0il-1111-1111")).toEqual({ selector: "0011", verifier: "11111111" });
    expect(normaliseInviteCode("ABCD-EFGH-JKMU")).toBeNull();
    expect(normaliseInviteCode("ABCD-EFGH-JKM")).toBeNull();
    expect(normaliseInviteCode("A".repeat(10_000))).toBeNull();
  });
});
