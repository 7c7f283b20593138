/**
 * Who is calling: the one function every entry point uses (pages and actions, the API, the scoreboard
 * feed, the sockets' handshake, the queue dashboard). A caller is known by the session cookie (decision
 * 015) or, where tokens are accepted (the API), by a personal API token (decision 009).
 *
 * A session costs no Postgres query per request: what a session's token leads to is remembered until
 * Postgres reports a change to users, teams, tokens or sessions (recent-users.server.ts). Its last use
 * is written at most once a minute. An ended session (logout, an admin, a change to its user) is
 * forgotten by every web process as soon as the notice arrives; an expired one is refused here.
 */
import { findUserByApiToken, hashToken } from "../modules/api-tokens/tokens.server.ts";
import { watchCallerChanges } from "../modules/auth/caller-changes.server.ts";
import type { SessionUser } from "../modules/auth/login.server.ts";
import { forgetRecentUser, recentUser } from "../modules/auth/recent-users.server.ts";
import {
  findLiveSession,
  hashSessionToken,
  SESSION_TOUCH_MS,
  sessionLimits,
  touchSessions,
  type LiveSession,
} from "../modules/auth/sessions.server.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { readSessionToken } from "./session.server.ts";

/** What identifies a caller: the request's Authorization and Cookie headers. */
export interface CallerHeaders {
  authorization?: string | null;
  cookie?: string | null;
}

/** The caller: a user as they are now, and the session or the API token they came with (the other null). */
export interface Caller extends SessionUser {
  sessionId: number | null;
  tokenId: number | null;
}

/** Whether the request carries an Authorization header, of any scheme and value (even empty). */
export function carriesAuthorization(headers: CallerHeaders): boolean {
  return headers.authorization !== null && headers.authorization !== undefined;
}

/**
 * Whether personal API tokens are accepted at this path: /api/v1 and below, as the URL resolves it (dot
 * segments removed, as Remix routes it), letters in any case (as Remix matches routes).
 */
export function acceptsTokensAt(path: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(path, "http://localhost").pathname;
  } catch {
    return false;
  }
  return /^\/api\/v1(?:\/|$)/i.test(pathname);
}

/** The bearer token in an Authorization header's value, if it holds one. */
export function bearerIn(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : null;
}

/** The caller a live session stands for. */
export function asCaller(session: LiveSession): Caller {
  return { id: session.id, name: session.name, role: session.role, teamId: session.teamId, teamName: session.teamName, sessionId: session.sessionId, tokenId: null };
}

/** Sessions whose use this process last recorded, and when: one write a minute per session at most. */
const touched = new Map<string, number>();
const MAX_TOUCHED = 20_000;

function recordUse(session: LiveSession, now: number) {
  if (now - session.lastUsedAt < SESSION_TOUCH_MS) return;
  const last = touched.get(session.tokenHash);
  if (last !== undefined && now - last < SESSION_TOUCH_MS) return;
  if (touched.size >= MAX_TOUCHED) touched.clear();
  touched.set(session.tokenHash, now);
  touchSessions([session.tokenHash], sessionLimits(), now).catch((error: unknown) => {
    touched.delete(session.tokenHash);
    getLogger().warn({ err: error }, "cannot record a session's last use");
  });
}

/** The live session the cookie names, or null; `now` for tests. */
export async function findSessionCaller(cookie: string | null | undefined, now = Date.now()): Promise<Caller | null> {
  const token = await readSessionToken(cookie);
  if (!token) return null;
  void watchCallerChanges();
  const limits = sessionLimits();
  const hash = hashSessionToken(token);
  const key = `session:${hash}`;
  const lookup = () => findLiveSession(hash, limits, now);
  let session = await recentUser(key, lookup, now);
  if (session && (now - session.createdAt >= limits.maxMs || now - session.lastUsedAt >= limits.idleMs)) {
    // Remembered as it was: another web process may have recorded a use since. Postgres decides.
    forgetRecentUser(key);
    session = await recentUser(key, lookup, now);
  }
  if (!session) {
    // Not remembered: dead cookies (they stay well-signed forever) must not fill the memory of live ones.
    forgetRecentUser(key);
    return null;
  }
  recordUse(session, now);
  return asCaller(session);
}

/**
 * The caller of these headers, or null for a visitor (no cookie, an ended or expired session, an
 * unknown or revoked token). With an Authorization header, that header alone decides and the cookie is
 * never read: `tokens` (the API only), a live bearer token is the caller; anything else in the header,
 * and any Authorization header where tokens are not accepted, is null (callers answer 401:
 * `carriesAuthorization`). `recentToken`: a remembered answer for a token will do (the scoreboard feed:
 * elsewhere a token is looked up afresh, which stamps its last use).
 */
export async function findCaller(headers: CallerHeaders, options: { tokens?: boolean; recentToken?: boolean } = {}): Promise<Caller | null> {
  if (carriesAuthorization(headers)) {
    const token = options.tokens ? bearerIn(headers.authorization) : null;
    if (!token) return null;
    if (options.recentToken) void watchCallerChanges();
    const lookup = () => findUserByApiToken(token);
    const user = await (options.recentToken ? recentUser(`token:${hashToken(token)}`, lookup) : lookup());
    return user ? { ...user, sessionId: null } : null;
  }
  return findSessionCaller(headers.cookie);
}

/** Whether the request carries a well-signed session cookie (live or not): no query. */
export async function carriesSessionCookie(cookie: string | null | undefined): Promise<boolean> {
  return (await readSessionToken(cookie)) !== null;
}
