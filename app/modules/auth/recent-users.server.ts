/**
 * Who a caller is, remembered, so that a request does not cost a Postgres query to know its caller: a
 * session (every page, API call and socket signed in with the cookie, decision 015) and, on the
 * scoreboard feed only, an API token (the feed is meant never to touch Postgres on its hot path,
 * docs/decisions/011-scoreboard-feed-fast-path.md; elsewhere a token is looked up afresh, which also
 * stamps its last use).
 *
 * A stale answer is bounded. While the process hears Postgres's notice of every change to users,
 * teams, tokens and sessions (caller-changes.server.ts, a trigger per table), it forgets everything at
 * each one and keeps an answer up to WATCHED_TTL_MS otherwise. Until it hears them (starting, or the
 * listening connection down), it keeps an answer RECENT_USER_TTL_MS at most: an ended session or a
 * revoked token is refused by every process within that time even then.
 */

/** How long an answer is kept while changes are not being heard. */
export const RECENT_USER_TTL_MS = 1_000;
/** How long while they are: only a backstop, since every change makes the process forget at once. */
export const WATCHED_TTL_MS = 60_000;
/** Beyond this many callers, expired entries are dropped before a new one is kept. */
const MAX_REMEMBERED = 20_000;

const remembered = new Map<string, { until: number; user: Promise<object | null> }>();
let hearingChanges = false;

/** Whether every change to callers reaches this process now (set by caller-changes.server.ts). */
export function setHearingChanges(hearing: boolean): void {
  hearingChanges = hearing;
}

function dropExpired(now: number) {
  for (const [key, entry] of remembered) if (entry.until <= now) remembered.delete(key);
}

/**
 * The caller for `key` (e.g. a session's or a token's hash): the answer of a lookup started less than
 * RECENT_USER_TTL_MS ago (WATCHED_TTL_MS while changes are heard), or a new lookup. A lookup that
 * fails is not remembered. Keys must name their kind ("session:…", "token:…"): one key, one type.
 */
export function recentUser<T extends object>(key: string, lookup: () => Promise<T | null>, now = Date.now()): Promise<T | null> {
  const hit = remembered.get(key);
  if (hit && hit.until > now) return (hit.user as Promise<T | null>).then(copyOf);
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
function copyOf<T extends object>(user: T | null): T | null {
  return user ? { ...user } : null;
}

/** Forget one caller (a session this process just ended or found expired). */
export function forgetRecentUser(key: string): void {
  remembered.delete(key);
}

/** Forget everything: a user, team, token or session changed. */
export function forgetRecentUsers(): void {
  remembered.clear();
}
