import { lt, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { standingsOutbox } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";

/**
 * Marks a team's standings stale, inside the caller's transaction: the score and the request to
 * recompute commit together, so a score can never be saved without its standings catching up.
 */
export async function markStandingsStale(tx: Queryable, teamId: number) {
  await tx
    .insert(standingsOutbox)
    .values({ teamId })
    .onConflictDoUpdate({
      target: standingsOutbox.teamId,
      set: { version: sql`nextval('standings_outbox_version_seq')`, requestedAt: sql`now()` },
    });
}

/**
 * A new standings version from the outbox's sequence. Taken under the team lock (a job) or the exclusive
 * board lock (a rebuild), so a team's versions grow in commit order.
 */
export async function nextStandingsVersion(tx: Queryable): Promise<number> {
  const [row] = await tx.execute<{ version: string }>(sql`select nextval('standings_outbox_version_seq') as version`);
  return Number(row.version);
}

/**
 * After commit: ask a worker to recompute. No job id, so a score landing while the team's job runs
 * gets a job of its own; surplus jobs find the outbox row gone and end at once (that is the
 * coalescing). If Redis is down this fails fast and the outbox sweep enqueues it later.
 */
export async function requestStandingsRecompute(teamId: number): Promise<boolean> {
  try {
    await enqueue("standings", { teamId });
    return true;
  } catch (error) {
    getLogger().warn({ err: error, teamId }, "standings job not enqueued; the outbox sweep will retry");
    return false;
  }
}

/** Enqueues a job for every team still marked stale for longer than `olderThanMs` (worker sweep). */
export async function sweepStaleStandings(olderThanMs = 2000): Promise<number> {
  const rows = await getDb()
    .select({ teamId: standingsOutbox.teamId })
    .from(standingsOutbox)
    .where(lt(standingsOutbox.requestedAt, new Date(Date.now() - olderThanMs)));
  for (const { teamId } of rows) await enqueue("standings", { teamId });
  return rows.length;
}

/** The standings still to recompute: teams marked stale, and how long the oldest has waited (metrics). */
export async function outboxBacklog(): Promise<{ teams: number; oldestSeconds: number }> {
  const [row] = await getDb().execute<{ teams: number; oldest_seconds: number | null }>(sql`
    select count(*)::int as teams, extract(epoch from now() - min(${standingsOutbox.requestedAt}))::float8 as oldest_seconds
    from ${standingsOutbox}`);
  return { teams: Number(row?.teams ?? 0), oldestSeconds: Number(row?.oldest_seconds ?? 0) };
}
