/** Rows the integration tests need, made through the same tables the app uses. */
import { eq, sql } from "drizzle-orm";
import { nameColumns } from "../../app/modules/names/names.ts";
import { challengeFlags, challenges, eventSettings, gates, submissions, teams, users, type Category } from "../../db/schema.ts";
import { hashPassword } from "../../app/modules/auth/password.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { startSession } from "../../app/modules/auth/sessions.server.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { systemActor, type UserActor } from "../../app/modules/audit/audit.server.ts";
import type { Role } from "../../app/modules/auth/access.ts";
import type { Caller } from "../../app/glue/caller.server.ts";
import { sessionCookieName, sessionSetCookie } from "../../app/glue/session.server.ts";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

// Hashing is the slow part of making users; tests share one hash.
let sharedHash: Promise<string> | undefined;

export async function makeTeam(name = unique("team")) {
  const [team] = await getDb().insert(teams).values(nameColumns(name)).returning();
  return team;
}

export async function makeUser(role: Role, teamId: number | null = null, name = unique(role)) {
  sharedHash ??= hashPassword("fixture-password");
  const [user] = await getDb().insert(users).values({ ...nameColumns(name), role, teamId, passwordHash: await sharedHash }).returning();
  return user;
}

export async function makeChallenge(over: { points?: number; category?: Category; wave?: number } = {}) {
  const [challenge] = await getDb()
    .insert(challenges)
    .values({ title: unique("challenge"), description: "d", points: over.points ?? 100, category: over.category ?? "AI", wave: over.wave ?? 1 })
    .returning();
  return challenge;
}

/** A challenge of wave 1 in CS checked by one exact flag. */
export async function makeFlagChallenge(flag: string, over: { points?: number } = {}) {
  const challenge = await makeChallenge({ wave: 1, category: "CS", points: over.points });
  await getDb().update(challenges).set({ checking: "flag" }).where(eq(challenges.id, challenge.id));
  await getDb().insert(challengeFlags).values({ challengeId: challenge.id, position: 1, kind: "exact", value: flag });
  return challenge;
}

/** A team with one participant, and that participant as an actor (who sends flags). */
export async function makePlayer(teamName?: string) {
  const team = await makeTeam(teamName);
  const user = await makeUser("participant", team.id);
  return { team, user, actor: actorFor(user.id, user.name, "participant") };
}

export async function makeSubmission(teamId: number, challengeId: number, userId: number | null) {
  const [submission] = await getDb().insert(submissions).values({ teamId, challengeId, userId, text: "answer" }).returning();
  return submission;
}

export async function ensureEventSettings() {
  await getDb().insert(eventSettings).values({ id: 1, finalAt: new Date(Date.now() + 86_400_000) }).onConflictDoNothing();
}

/** The five gates if there are none yet: gates 1 and 2 opened an hour ago, 3 to 5 opening in an hour. */
export async function ensureTwoOpenGates() {
  const now = Date.now();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(number <= 2 ? now - 3_600_000 : now + 3_600_000) })))
    .onConflictDoNothing();
}

/** The five gates, each opened an hour ago (an existing gate is renamed and reopened so). */
export async function openAllGates() {
  await getDb().execute(sql`insert into gates (number, title, description, opens_at)
    select n, 'Gate ' || n, 'Door ' || n, now() - interval '1 hour' from generate_series(1, 5) n
    on conflict (number) do update set title = excluded.title, opens_at = excluded.opens_at`);
}

export async function setTeamOf(userId: number, teamId: number) {
  await getDb().update(users).set({ teamId }).where(eq(users.id, userId));
}

/**
 * The Cookie header a browser of this user would send after signing in (a new session each call).
 * `production`: for a web process in production mode, whose cookie has the __Host- prefix (the signed
 * value is the same under either name).
 */
export async function sessionCookie(userId: number, options: { production?: boolean } = {}): Promise<string> {
  const started = await startSession(userId, { ip: "127.0.0.1", userAgent: "fixture" });
  if (!started) throw new Error(`no user ${userId}`);
  const value = (await sessionSetCookie(started.token)).split(";")[0].split("=").slice(1).join("=");
  return `${sessionCookieName(options.production ?? getEnv().NODE_ENV === "production")}=${value}`;
}

/** A user as the audit trail names them when they act (as through a browser session from this machine). */
export function actorFor(userId: number, name = `user ${userId}`, role: Role = "judge"): UserActor {
  return { id: userId, name, role, via: "session", sessionId: null, tokenId: null, ip: "127.0.0.1" };
}

/** A signed-in caller as the glue sees them (a browser session). */
export function callerOf(user: { id: number; name: string; role: Role; teamId: number | null }): Caller {
  return { id: user.id, name: user.name, role: user.role, teamId: user.teamId, teamName: null, sessionId: null, tokenId: null };
}

/** A caller as the actor of their change (the session they came with; this machine's address). */
export function asActor(caller: Caller): UserActor {
  return { id: caller.id, name: caller.name, role: caller.role, via: caller.tokenId ? "token" : "session", sessionId: caller.sessionId, tokenId: caller.tokenId, ip: "127.0.0.1" };
}

/** The actor of a test's set-up changes (the audit trail names it "test"). */
export const testAdmin = systemActor("test");
