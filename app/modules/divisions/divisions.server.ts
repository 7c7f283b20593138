/**
 * The event's divisions (docs/domain.md "Divisions"): a list an admin keeps on the Settings page, and the
 * check that a team's division is on it. The list lives in `event_settings.divisions`, and a copy in the
 * standings snapshot (Redis), so the scoreboard and its feed list and filter divisions without Postgres.
 *
 * Race-safe both ways: a team's division is checked under a share lock on the settings row
 * (`divisionOnList`), and the list is changed under an update lock on it, so a team can never be put in a
 * division that is being removed, nor a division removed while a team is being put in it.
 */
import { count, eq } from "drizzle-orm";
import type { Queryable, Transaction } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { eventSettings, teams } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { broadcastStandingsRefresh } from "../realtime/broadcast.server.ts";
import { lockBoardShared } from "../standings/locks.ts";
import { writeSnapshotDivisions } from "../standings/snapshot.server.ts";
import { divisionNamed } from "./schema.ts";

const m = messages.divisions;

/** The event's divisions, in the order the scoreboard's filter shows them (none: no settings yet). */
export async function readDivisions(db: Queryable = getDb()): Promise<string[]> {
  const [row] = await db.select({ divisions: eventSettings.divisions }).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return row?.divisions ?? [];
}

/**
 * The division `typed` names on the event's list, as the list spells it (case and look-alikes ignored), or
 * a refusal (400, on the `division` input) naming the list. Null stays null (no division). Takes a share
 * lock on the settings row until the caller's transaction ends: the list cannot lose it meanwhile.
 */
export async function divisionOnList(tx: Transaction, typed: string | null, field = "division"): Promise<string | null> {
  if (typed === null) return null;
  const [row] = await tx.select({ divisions: eventSettings.divisions }).from(eventSettings).where(eq(eventSettings.id, 1)).for("share");
  const names = row?.divisions ?? [];
  const found = divisionNamed(names, typed);
  if (found === null) throw new DomainError(m.unknown(names), { status: 400, field });
  return found;
}

/**
 * Replaces the event's list. A division that teams are still in cannot be removed (409, naming it and how
 * many): move them first, so no team drops off a division board unnoticed. Audited when it changes; every
 * scoreboard re-reads (the filter changed).
 */
export async function updateDivisions(actor: Actor, names: readonly string[]): Promise<void> {
  const changed = await getDb().transaction(async (tx) => {
    // The board lock first (as the rebuild takes it), then the row: a rebuild never writes an older list to Redis.
    await lockBoardShared(tx);
    const [before] = await tx.select({ divisions: eventSettings.divisions }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new DomainError(m.needsFinal, { status: 400, field: "divisions" });
    const removed = before.divisions.filter((name) => !names.includes(name));
    if (removed.length) {
      const used = await tx
        .select({ division: teams.division, n: count() })
        .from(teams)
        .where(anyOf(teams.division, removed))
        .groupBy(teams.division);
      const [first] = used;
      if (first) throw new DomainError(m.inUse(first.division ?? "", first.n), { status: 409, field: "divisions" });
    }
    if (before.divisions.length === names.length && before.divisions.every((name, index) => name === names[index])) return false;
    await tx.update(eventSettings).set({ divisions: [...names] }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.divisions", before, after: { divisions: [...names] } });
    // Before the commit, as the freeze writes its flag: if Redis is down the change fails whole.
    await writeSnapshotDivisions(getRedis(), names);
    return true;
  });
  if (changed) broadcastStandingsRefresh();
}
