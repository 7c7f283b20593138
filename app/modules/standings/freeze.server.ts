import { asc, eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { broadcastStandingsRefresh } from "../realtime/broadcast.server.ts";
import { releaseHeldFirstBloods } from "../flags/first-blood.server.ts";
import { lockBoardExclusive } from "./locks.ts";
import { readLiveSnapshot } from "./scoreboard.server.ts";
import { bumpVersion, readSnapshotCached, SnapshotNotReadyError, snapshotKeys } from "./snapshot.server.ts";

/**
 * Freezes the public scoreboard at the live standings as they are now: participants keep seeing
 * this board (and get no live updates of other teams) until unfreeze.
 */
export async function setScoreboardFrozen(actor: Actor, frozen: boolean) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await freezeOnce(actor, frozen);
    } catch (error) {
      // Redis lost the snapshot while the freeze waited for its lock: rebuilt before the next attempt, outside it.
      if (!(error instanceof SnapshotNotReadyError) || attempt >= 3) throw error;
    }
  }
}

async function freezeOnce(actor: Actor, frozen: boolean) {
  // Make sure the snapshot exists before taking the lock (a cold read may rebuild it).
  await readLiveSnapshot();
  // When the board froze, if it was: the first bloods since then were held from participants.
  let heldSince: Date | null = null;
  let frozenAt: Date | null = null;
  await getDb().transaction(async (tx) => {
    // Under the exclusive board lock no standings job can slip between the board we freeze and the flag.
    await lockBoardExclusive(tx);
    // Read without a rebuild: the rebuild takes this lock, which this transaction holds. A lost snapshot ends the
    // attempt; the next one rebuilds it first.
    const current = await readSnapshotCached(getRedis());
    if (!current.ready) throw new SnapshotNotReadyError();
    const live = current.board;
    const now = new Date();
    frozenAt = now;
    const [before] = await tx.select({ frozen: eventSettings.scoreboardFrozen, frozenAt: eventSettings.frozenAt }).from(eventSettings).where(eq(eventSettings.id, 1));
    heldSince = before?.frozen ? before.frozenAt : null;
    // Freezing again takes a new snapshot (a change); unfreezing a live board changes nothing.
    if (frozen || before?.frozen) await recordAudit(tx, actor, { kind: frozen ? "scoreboard.frozen" : "scoreboard.unfrozen", before: before ?? null, after: { frozen, frozenAt: frozen ? now : null } });
    await tx
      .update(eventSettings)
      .set(frozen ? { scoreboardFrozen: true, frozenAt: now, frozenBoard: live } : { scoreboardFrozen: false, frozenAt: null, frozenBoard: null })
      .where(eq(eventSettings.id, 1));
    const multi = getRedis().multi();
    if (frozen) multi.set(snapshotKeys.frozen(), JSON.stringify(live));
    else multi.del(snapshotKeys.frozen());
    // The teams' own points while frozen: none at a new freeze's instant (every solve so far counts as it does
    // live), none once lifted (the live points show). A solve after a new freeze recomputes its solvers.
    multi.del(snapshotKeys.own());
    multi.hset(snapshotKeys.meta(), "frozen", frozen ? "1" : "0");
    bumpVersion(multi);
    const results = await multi.exec();
    for (const [error] of results ?? []) if (error) throw error;
  });
  // Unfreezing publishes the real standings: every board re-reads, and hears the first bloods it missed.
  broadcastStandingsRefresh();
  // Freezing again starts a new freeze at `frozenAt`: the ones held before it are told now too.
  if (heldSince) await releaseHeldFirstBloods(heldSince, frozen ? frozenAt : null);
}

export async function isScoreboardFrozen(): Promise<boolean> {
  const [row] = await getDb().select({ frozen: eventSettings.scoreboardFrozen }).from(eventSettings).orderBy(asc(eventSettings.id)).limit(1);
  return row?.frozen ?? false;
}
