/**
 * Who a caller is, remembered for a moment, for the one read that scripts and big screens repeat many
 * times a second: the scoreboard feed (GET /api/v1/scoreboard). Without it every poll would be a
 * Postgres query for the caller (and the token's last-use stamp), and the feed is meant never to touch
 * Postgres on its hot path (docs/decisions/011-scoreboard-feed-fast-path.md).
 *
 * What a stale answer can do is bounded: for at most RECENT_USER_TTL_MS after a user was deleted, a
 * token revoked, a role or team changed, the feed answers as before. The feed only reads the board, so
 * the worst case is a deleted account seeing the standings for two more seconds. Every other route
 * looks the caller up afresh.
 */
import type { SessionUser } from "./login.server.ts";

export const RECENT_USER_TTL_MS = 2_000;
/** Beyond this many callers, expired entries are dropped before a new one is kept. */
const MAX_REMEMBERED = 20_000;

const remembered = new Map<string, { until: number; user: Promise<SessionUser | null> }>();

function dropExpired(now: number) {
  for (const [key, entry] of remembered) if (entry.until <= now) remembered.delete(key);
}

/**
 * The user for `key` (e.g. a session's user id, a token's hash): the answer of a lookup started less
 * than RECENT_USER_TTL_MS ago, or a new lookup. A lookup that fails is not remembered.
 */
export function recentUser(key: string, lookup: () => Promise<SessionUser | null>, now = Date.now()): Promise<SessionUser | null> {
  const hit = remembered.get(key);
  if (hit && hit.until > now) return hit.user.then(copyOf);
  if (remembered.size >= MAX_REMEMBERED) dropExpired(now);
  // Still full of live entries: answer without remembering rather than grow without bound.
  const user = lookup();
  if (remembered.size < MAX_REMEMBERED) {
    remembered.set(key, { until: now + RECENT_USER_TTL_MS, user });
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

/** Forget everything (tests that change a user and read the feed at once). */
export function forgetRecentUsers(): void {
  remembered.clear();
}
