/**
 * Who a caller is, remembered for a moment, for the one read that scripts and big screens repeat many
 * times a second: the scoreboard feed (GET /api/v1/scoreboard). Without it every poll would be a
 * Postgres query for the caller (and the token's last-use stamp), and the feed is meant never to touch
 * Postgres on its hot path (docs/decisions/011-scoreboard-feed-fast-path.md).
 *
 * A stale answer is bounded. While the process hears Postgres's notice of every change to users,
 * teams and tokens (caller-changes.server.ts, a trigger per table), it forgets everything at each one
 * and keeps an answer up to WATCHED_TTL_MS otherwise. Until it hears them (starting, or the listening
 * connection down), it keeps an answer RECENT_USER_TTL_MS at most. The feed only reads the board: the
 * worst case is a revoked token reading the standings that much longer. Every other route looks the
 * caller up afresh.
 */
import type { SessionUser } from "./login.server.ts";

/** How long an answer is kept while changes are not being heard. */
export const RECENT_USER_TTL_MS = 2_000;
/** How long while they are: only a backstop, since every change makes the process forget at once. */
export const WATCHED_TTL_MS = 60_000;
/** Beyond this many callers, expired entries are dropped before a new one is kept. */
const MAX_REMEMBERED = 20_000;

const remembered = new Map<string, { until: number; user: Promise<SessionUser | null> }>();
let hearingChanges = false;

/** Whether every change to callers reaches this process now (set by caller-changes.server.ts). */
export function setHearingChanges(hearing: boolean): void {
  hearingChanges = hearing;
}

function dropExpired(now: number) {
  for (const [key, entry] of remembered) if (entry.until <= now) remembered.delete(key);
}

/**
 * The user for `key` (e.g. a session's user id, a token's hash): the answer of a lookup started less
 * than RECENT_USER_TTL_MS ago (WATCHED_TTL_MS while changes are heard), or a new lookup. A lookup that
 * fails is not remembered.
 */
export function recentUser(key: string, lookup: () => Promise<SessionUser | null>, now = Date.now()): Promise<SessionUser | null> {
  const hit = remembered.get(key);
  if (hit && hit.until > now) return hit.user.then(copyOf);
  if (remembered.size >= MAX_REMEMBERED) dropExpired(now);
  // Still full of live entries: answer without remembering rather than grow without bound.
  const user = lookup();
  if (remembered.size < MAX_REMEMBERED) {
    remembered.set(key, { until: now + (hearingChanges ? WATCHED_TTL_MS : RECENT_USER_TTL_MS), user });
    user.catch(() => {
      if (remembered.get(key)?.user === user) remembered.delete(key);
    });
  }
  return user.then(copyOf);
}

/** A copy each: one caller changing its user must not change another's. */
function copyOf(user: SessionUser | null): SessionUser | null {
  return user ? { ...user } : null;
}

/** Forget everything: a user, team or token changed. */
export function forgetRecentUsers(): void {
  remembered.clear();
}
