/**
 * Hears Postgres's notice of every change to who a caller is (migration 0005: a trigger on users,
 * teams and api_tokens, and migration 0006's on sessions, notify `gk_callers_changed` at commit) and
 * makes this process forget the callers it remembers (recent-users.server.ts) and tell whoever asked
 * (the sockets, which re-check their sessions: realtime.server.ts). postgres.js keeps one dedicated connection for it and
 * reconnects by itself; on every (re)connect the process forgets everything, since notices sent while
 * it was away are lost.
 */
import type { DbHandle } from "../../../db/client.ts";
import { getDbHandle } from "../../utils/db.server.ts";
import { getLogger } from "../../utils/logger.server.ts";
import { forgetRecentUsers, setHearingChanges } from "./recent-users.server.ts";

export const CALLERS_CHANGED_CHANNEL = "gk_callers_changed";

let watching: { handle: DbHandle; listening: Promise<void> } | null = null;
const listeners = new Set<() => void>();

/** Calls `listener` after each change heard, and after each (re)connect (changes may have been missed). */
export function onCallersChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  forgetRecentUsers();
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      getLogger().error({ err: error }, "a listener to caller changes failed");
    }
  }
}

/**
 * Starts hearing changes on the process's current pool (once per pool: after closeDb a new pool
 * needs its own); resolves when the LISTEN is in place. Cheap to call on every request.
 */
export function watchCallerChanges(): Promise<void> {
  const handle = getDbHandle();
  if (watching?.handle === handle) return watching.listening;
  // A new pool: the old one's listening connection ended with it, so nothing is heard until this one's is up.
  setHearingChanges(false);
  forgetRecentUsers();
  const listening = handle.sql
    .listen(
      CALLERS_CHANGED_CHANNEL,
      () => changed(),
      () => {
        if (watching?.handle === handle) setHearingChanges(true);
        changed();
      },
    )
    .then(
      () => undefined,
      (error: unknown) => {
        // Not listening: callers are kept for the short time only; the next feed request tries again.
        getLogger().warn({ err: error }, "cannot listen for changes to users and tokens");
        if (watching?.handle === handle) watching = null;
      },
    );
  watching = { handle, listening };
  return listening;
}
