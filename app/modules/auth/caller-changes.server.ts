/**
 * Hears Postgres's notice of every change to who a caller is (migration 0005: a trigger on users,
 * teams and api_tokens, and migration 0006's on sessions, notify `gk_callers_changed` at commit) and
 * makes this process forget the callers it remembers (recent-users.server.ts) and tell whoever asked
 * (the sockets, which re-check their sessions: realtime.server.ts).
 *
 * A listening connection can be lost without a word (postgres.js re-listens by itself, silently, and a
 * half-open connection says nothing at all). So the process checks it hears: every PING_EVERY_MS it
 * notifies the channel itself and expects its own notice back before the next one. One that does not
 * come back means changes may be going unheard: the process forgets everything and keeps answers for
 * 1 s only (RECENT_USER_TTL_MS) until a notice of its own comes back again. postgres.js keeps one dedicated connection for it and
 * reconnects by itself; on every (re)connect the process forgets everything, since notices sent while
 * it was away are lost.
 */
import type { DbHandle } from "../../../db/client.ts";
import { getDbHandle } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { forgetRecentUsers, setHearingChanges } from "./recent-users.server.ts";

export const CALLERS_CHANGED_CHANNEL = "gk_callers_changed";
/**
 * Notices on the same channel that are not about callers, each to its own listeners (onNotice): an admin's reset
 * of a team's wrong answers ("flag_reset:<team>:<challenge>", app/modules/flags/attempts.server.ts) and a change
 * to the event's data ("event_data:<table>", migration 0024's triggers). They make no process forget its callers.
 */
export const FLAG_RESET_PREFIX = "flag_reset:";
export const EVENT_DATA_PREFIX = "event_data:";
const noticeListeners = new Map<string, Set<(rest: string) => void>>([
  [FLAG_RESET_PREFIX, new Set()],
  [EVENT_DATA_PREFIX, new Set()],
]);

/**
 * Calls `listener` with the rest of each notice that starts with `prefix` (FLAG_RESET_PREFIX, EVENT_DATA_PREFIX),
 * and with null after each (re)connect or lost ping: notices may have been missed then.
 */
export function onNotice(prefix: typeof FLAG_RESET_PREFIX | typeof EVENT_DATA_PREFIX, listener: (rest: string | null) => void): () => void {
  const set = noticeListeners.get(prefix)!;
  set.add(listener);
  return () => set.delete(listener);
}

function tell(prefix: string, rest: string | null) {
  for (const listener of noticeListeners.get(prefix) ?? []) {
    try {
      listener(rest as string);
    } catch (error) {
      getLogger().error({ err: error }, "a listener to notices failed");
    }
  }
}
/** How often the process checks that it still hears the channel. */
export const PING_EVERY_MS = 2_000;
const PING_PREFIX = "ping:";
const processTag = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

let watching: { handle: DbHandle; listening: Promise<void> } | null = null;
const listeners = new Set<() => void>();

/** Calls `listener` after each change heard, and after each (re)connect (changes may have been missed). */
export function onCallersChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A change to callers; `missed`: notices may have been lost (a (re)connect, a ping unanswered), so every listener forgets. */
function changed(missed = true) {
  forgetRecentUsers();
  if (missed) for (const prefix of noticeListeners.keys()) tell(prefix, null);
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      getLogger().error({ err: error }, "a listener to caller changes failed");
    }
  }
}

/** Whether changes are being heard right now (false while starting, or after a ping went unanswered). */
let hearing = false;

export function isHearingChanges(): boolean {
  return hearing;
}

function setHearing(value: boolean) {
  hearing = value;
  setHearingChanges(value);
}

/**
 * Starts hearing changes on the process's current pool (once per pool: after closeDb a new pool
 * needs its own); resolves when the LISTEN is in place. Cheap to call on every request.
 */
export function watchCallerChanges(): Promise<void> {
  const handle = getDbHandle();
  if (watching?.handle === handle) return watching.listening;
  // A new pool: the old one's listening connection ended with it, so nothing is heard until this one's is up.
  setHearing(false);
  forgetRecentUsers();
  let awaiting: string | null = null;
  let sequence = 0;
  const onPayload = (payload: string) => {
    for (const prefix of noticeListeners.keys()) if (payload.startsWith(prefix)) return tell(prefix, payload.slice(prefix.length));
    if (!payload.startsWith(PING_PREFIX)) return changed(false);
    if (payload !== awaiting) return; // another process's ping, or an old one of ours
    awaiting = null;
    if (!hearing && watching?.handle === handle) {
      // Heard again: what was said meanwhile is lost, so forget everything once more.
      setHearing(true);
      getLogger().info("hearing changes to callers again");
      changed();
    }
  };
  const ping = () => {
    if (watching?.handle !== handle) return clearInterval(pinger);
    if (awaiting !== null && hearing) {
      setHearing(false);
      getLogger().warn("no answer on the callers channel: remembering callers for 1 s only until it is heard again");
      changed();
    }
    awaiting = `${PING_PREFIX}${processTag}:${++sequence}`;
    handle.sql`select pg_notify(${CALLERS_CHANGED_CHANNEL}, ${awaiting})`.catch(() => {});
  };
  const pinger = setInterval(ping, PING_EVERY_MS);
  pinger.unref();
  const listening = handle.sql
    .listen(CALLERS_CHANGED_CHANNEL, onPayload, () => {
      if (watching?.handle === handle) setHearing(true);
      changed();
    })
    .then(
      () => undefined,
      (error: unknown) => {
        // Not listening: callers are kept for the short time only; the next request tries again.
        getLogger().warn({ err: error }, "cannot listen for changes to users and tokens");
        clearInterval(pinger);
        if (watching?.handle === handle) watching = null;
      },
    );
  watching = { handle, listening };
  return listening;
}
