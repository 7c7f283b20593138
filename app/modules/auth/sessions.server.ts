/**
 * Sign-in sessions (docs/decisions/015-server-side-sessions.md). A login starts a session: 32 random
 * bytes the browser keeps in its cookie, of which Postgres stores only the SHA-256 (a database leak
 * gives no usable cookie), with the user, when it started, when it was last used, the IP and the user
 * agent. A session ends when its row is deleted: logout, an admin, a change to its user (role, team,
 * password, deletion), or expiry (idle too long, or alive too long). A deleted row notifies every web
 * process (migration 0006), which forget what they remembered of it.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { sessions, teams, users } from "../../../db/schema.ts";
import type { DbHandle } from "../../../db/client.ts";
import { getDb, preparedOnce } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import type { Role } from "./access.ts";
import { forgetRecentUsers } from "./recent-users.server.ts";
import { shownIp } from "./ip.ts";

export interface SessionLimits {
  /** A session unused this long has ended. */
  idleMs: number;
  /** A session this old has ended, used or not. */
  maxMs: number;
}

export function sessionLimits(): SessionLimits {
  const env = getEnv();
  return { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxMs: env.SESSION_MAX_HOURS * 3_600_000 };
}

/** What the cookie holds: 256 random bits, base64url. */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A live session with its user as they are now. Times in epoch milliseconds. */
export interface LiveSession {
  sessionId: number;
  tokenHash: string;
  createdAt: number;
  lastUsedAt: number;
  id: number;
  name: string;
  role: Role;
  teamId: number | null;
  teamName: string | null;
}

/** Browsers send long user agents; a hostile one could send anything. Kept short for the admin's list. */
const MAX_USER_AGENT = 300;

/** A session just started: the cookie's token, and how many of the user's oldest sessions it ended. */
export interface StartedSession {
  token: string;
  endedOldest: number;
}

/** How many live sessions one user may hold (SESSIONS_PER_USER); a new one ends the oldest beyond it. */
export function sessionsPerUser(): number {
  return getEnv().SESSIONS_PER_USER;
}

/**
 * Starts a session for the user; returns the token for the cookie (plain, never stored or logged). With
 * `passwordHash` (a login), only while that is still the user's password: a login whose password check
 * raced a password change gets null, since the change ended every session it knew of (updateUser) and
 * this one would outlive it.
 *
 * A user holds at most SESSIONS_PER_USER live sessions (docs/RELIABILITY.md): when they already hold that
 * many, the oldest sign-ins end in the same transaction as the new one starts (`endedOldest` says how
 * many, for the new session's first page to tell them). The user's row is locked first, so two logins at
 * once take turns and neither leaves the user above the limit.
 */
export async function startSession(userId: number, from: { ip: string | null; userAgent: string | null }, passwordHash?: string, limits = sessionLimits()): Promise<StartedSession | null> {
  const token = newSessionToken();
  const ip = from.ip === null ? null : shownIp(from.ip);
  const userAgent = from.userAgent?.slice(0, MAX_USER_AGENT) ?? null;
  const keep = sessionsPerUser() - 1;
  const started = await getDb().transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(passwordHash === undefined ? eq(users.id, userId) : and(eq(users.id, userId), eq(users.passwordHash, passwordHash)))
      .for("no key update");
    if (!user) return null;
    const now = Date.now();
    // The newest `keep` live sessions stay; the older live ones end (expired ones are refused already).
    const oldest = tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), liveAt(limits, now)))
      .orderBy(desc(sessions.createdAt), desc(sessions.id))
      .offset(keep);
    const ended = await tx.delete(sessions).where(sql`${sessions.id} in (${oldest})`).returning({ id: sessions.id });
    await tx.insert(sessions).values({ userId, tokenHash: hashSessionToken(token), ip, userAgent });
    return { token, endedOldest: ended.length };
  });
  if (started && started.endedOldest > 0) forgetRecentUsers();
  return started;
}

/** A live session was used after `usedAfter` and started after `createdAfter` (liveCutoffs: the instants). */
function liveWhere(usedAfter: Date | SQL, createdAfter: Date | SQL) {
  return and(gt(sessions.lastUsedAt, usedAfter), gt(sessions.createdAt, createdAfter));
}

function liveCutoffs(limits: SessionLimits, now: number) {
  return { usedAfter: new Date(now - limits.idleMs), createdAfter: new Date(now - limits.maxMs) };
}

function liveAt(limits: SessionLimits, now: number) {
  const { usedAfter, createdAfter } = liveCutoffs(limits, now);
  return liveWhere(usedAfter, createdAfter);
}

const liveColumns = {
  sessionId: sessions.id,
  tokenHash: sessions.tokenHash,
  createdAt: sessions.createdAt,
  lastUsedAt: sessions.lastUsedAt,
  id: users.id,
  name: users.name,
  role: users.role,
  teamId: users.teamId,
  teamName: teams.name,
};

type LiveRow = { [K in keyof LiveSession]: K extends "createdAt" | "lastUsedAt" ? Date : LiveSession[K] };

function toLive(row: LiveRow): LiveSession {
  return { ...row, createdAt: row.createdAt.getTime(), lastUsedAt: row.lastUsedAt.getTime() };
}

/** Hashes per query: a web process with tens of thousands of sockets stays under Postgres's parameter limit. */
const HASHES_PER_QUERY = 5_000;

function inChunks<T>(items: T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += HASHES_PER_QUERY) chunks.push(items.slice(start, start + HASHES_PER_QUERY));
  return chunks;
}

/**
 * The lookups of sessions with their users, built once per pool (preparedOnce): drizzle building one (two joins,
 * nine columns) took longer than Postgres running it. The values are placeholders, the two instants as ISO strings.
 * Two statements: a signed-in request's session (when its caller is not remembered, app/glue/caller.server.ts) by
 * its one hash, and the sockets' sessions by a list of hashes (`anyOf`). Postgres plans a list's statement for each
 * run (its plan for a list of unknown length looks dearer than one for the list it is given), and planning the join
 * cost many times running it: a web process looks a session up again every minute, so the one-hash statement, whose
 * plan Postgres keeps, is the one requests use.
 */
function liveSessionsWhere(db: DbHandle["db"], hashes: SQL) {
  return db
    .select(liveColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(teams, eq(teams.id, users.teamId))
    .where(and(hashes, liveWhere(sql`${sql.placeholder("usedAfter")}::timestamptz`, sql`${sql.placeholder("createdAfter")}::timestamptz`)));
}
const liveSessionStatement = preparedOnce((db) => liveSessionsWhere(db, sql`${sessions.tokenHash} = ${sql.placeholder("hash")}`).prepare("live_session"));
const liveSessionsStatement = preparedOnce((db) => liveSessionsWhere(db, anyOf(sessions.tokenHash, sql.placeholder("hashes"))).prepare("live_sessions"));

/** The live sessions with these token hashes (one query per 5,000), with their users. */
export async function findLiveSessions(tokenHashes: string[], limits = sessionLimits(), now = Date.now()): Promise<LiveSession[]> {
  if (tokenHashes.length > HASHES_PER_QUERY) return (await Promise.all(inChunks(tokenHashes).map((chunk) => findLiveSessions(chunk, limits, now)))).flat();
  if (tokenHashes.length === 0) return [];
  const { usedAfter, createdAfter } = liveCutoffs(limits, now);
  const rows = await liveSessionsStatement().execute({ hashes: tokenHashes, usedAfter: usedAfter.toISOString(), createdAfter: createdAfter.toISOString() });
  return rows.map(toLive);
}

export async function findLiveSession(tokenHash: string, limits = sessionLimits(), now = Date.now()): Promise<LiveSession | null> {
  const { usedAfter, createdAfter } = liveCutoffs(limits, now);
  const [row] = await liveSessionStatement().execute({ hash: tokenHash, usedAfter: usedAfter.toISOString(), createdAfter: createdAfter.toISOString() });
  return row ? toLive(row) : null;
}

/**
 * Records a use of these sessions (those still live); returns the hashes that were. Callers write at
 * most once a minute per session (SESSION_TOUCH_MS), so a page a second writes no row per page. One session (a
 * request's) goes through a statement prepared once, as its lookup does (liveSessionStatement): Postgres keeps its plan.
 */
export async function touchSessions(tokenHashes: string[], limits = sessionLimits(), now = Date.now()): Promise<Set<string>> {
  if (tokenHashes.length > HASHES_PER_QUERY) {
    return new Set((await Promise.all(inChunks(tokenHashes).map((chunk) => touchSessions(chunk, limits, now)))).flatMap((set) => [...set]));
  }
  if (tokenHashes.length === 0) return new Set();
  const { usedAfter, createdAfter } = liveCutoffs(limits, now);
  const values = { usedAfter: usedAfter.toISOString(), createdAfter: createdAfter.toISOString(), now: new Date(now).toISOString() };
  const rows =
    tokenHashes.length === 1
      ? await touchSessionStatement().execute({ ...values, hash: tokenHashes[0] })
      : await touchSessionsStatement().execute({ ...values, hashes: tokenHashes });
  return new Set(rows.map((row) => row.tokenHash));
}

function touchWhere(db: DbHandle["db"], hashes: SQL) {
  return db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder("now")}::timestamptz` })
    .where(and(hashes, liveWhere(sql`${sql.placeholder("usedAfter")}::timestamptz`, sql`${sql.placeholder("createdAfter")}::timestamptz`)))
    .returning({ tokenHash: sessions.tokenHash });
}
const touchSessionStatement = preparedOnce((db) => touchWhere(db, sql`${sessions.tokenHash} = ${sql.placeholder("hash")}`).prepare("touch_session"));
const touchSessionsStatement = preparedOnce((db) => touchWhere(db, anyOf(sessions.tokenHash, sql.placeholder("hashes"))).prepare("touch_sessions"));

/** How stale a session's last use may be before a request records a new one. */
export const SESSION_TOUCH_MS = 60_000;

/*
 * Ending sessions: the row goes, and this process forgets what it remembered at once (the others when
 * Postgres's notice reaches them, a few milliseconds after the commit; so does this one, again).
 */

/** Ends one session (logout). */
export async function endSessionByToken(token: string): Promise<void> {
  const rows = await getDb().delete(sessions).where(eq(sessions.tokenHash, hashSessionToken(token))).returning({ id: sessions.id });
  if (rows.length > 0) forgetRecentUsers();
}

/** Ends one session of this user (an admin's action, in its transaction: the caller forgets the remembered callers after commit); false when there was none. */
export async function endSession(userId: number, sessionId: number, db: Executor = getDb()): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

type Executor = Pick<ReturnType<typeof getDb>, "delete">;

/**
 * Ends every session of the user but `exceptSessionId` (the one that changed its own password keeps
 * going). Runs in the caller's transaction, so the sessions end exactly when the change commits; the
 * caller forgets the remembered callers after the commit (forgetRecentUsers), not before it.
 */
export async function endSessionsOf(db: Executor, userId: number, exceptSessionId: number | null = null): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptSessionId === null ? undefined : ne(sessions.id, exceptSessionId)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** A user's live sessions, newest use first, for the admin's list (no token, no hash). */
export async function listSessionsOf(userId: number, limits = sessionLimits(), now = Date.now()) {
  return getDb()
    .select({ id: sessions.id, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, ip: sessions.ip, userAgent: sessions.userAgent })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), liveAt(limits, now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id));
}

/** How many live sessions each user has (the Users page's column). */
export async function countLiveSessions(limits = sessionLimits(), now = Date.now()): Promise<Map<number, number>> {
  const rows = await getDb()
    .select({ userId: sessions.userId, n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(liveAt(limits, now))
    .groupBy(sessions.userId);
  return new Map(rows.map((row) => [row.userId, row.n]));
}

/** Deletes expired sessions (they are already refused; this only keeps the table small). */
export async function deleteExpiredSessions(limits = sessionLimits(), now = Date.now()): Promise<number> {
  const rows = await getDb()
    .delete(sessions)
    .where(or(lte(sessions.lastUsedAt, new Date(now - limits.idleMs)), lte(sessions.createdAt, new Date(now - limits.maxMs))))
    .returning({ id: sessions.id });
  return rows.length;
}
