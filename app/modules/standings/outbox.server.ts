import { lt, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { prebuilt } from "../../../db/in-order.ts";
import { standingsOutbox } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueueMany } from "../../infrastructure/queue.server.ts";

/**
 * Marks teams' standings stale, inside the caller's transaction: the score and the request to
 * recompute commit together, so a score can never be saved without its standings catching up.
 * Several teams (a challenge's points changed) in one statement, in id order: two transactions marking
 * overlapping teams lock their rows in the same order.
 */
export async function markStandingsStale(tx: Queryable, teams: number | Iterable<number>) {
  const teamIds = typeof teams === "number" ? [teams] : [...new Set(teams)].sort((a, b) => a - b);
  if (teamIds.length === 0) return;
  await tx.execute(markStandingsStaleSql(teamIds.map((teamId) => sql`${teamId}`)));
}

/** The statement that marks these teams stale (at least one, in id order): markStandingsStale's. */
function markStandingsStaleSql(teamIds: readonly SQLWrapper[]): SQL {
  const rows = sql.join(
    teamIds.map((teamId) => sql`(${teamId})`),
    sql`, `,
  );
  return sql`insert into ${standingsOutbox} (team_id) values ${rows}
    on conflict (team_id) do update set version = nextval('standings_outbox_version_seq'), requested_at = now()`;
}

/** The statement that marks one team stale, built once: to send with others (sendInOrder). */
export const markTeamStale = prebuilt(["teamId"], ({ teamId }) => markStandingsStaleSql([teamId]));

/**
 * A new standings version from the outbox's sequence. Taken under the team lock (a job) or the exclusive
 * board lock (a rebuild), so a team's versions grow in commit order. The sequence caches none (CACHE 1): a
 * connection never holds numbers lower than one already given to another, which the Redis placements' check of
 * order relies on (./snapshot.server.ts).
 */
export async function nextStandingsVersion(tx: Queryable): Promise<number> {
  const [row] = await tx.execute<{ version: string }>(sql`select nextval('standings_outbox_version_seq') as version`);
  return Number(row.version);
}

/**
 * After commit: ask a worker to recompute these teams (null and repeated ids are skipped). No job id, so
 * a score landing while the team's job runs gets a job of its own; surplus jobs find the outbox row gone
 * and end at once (that is the coalescing). One round trip and one deadline for them all: if Redis is
 * down or does not answer, this gives up at once or after the deadline, and the outbox sweep enqueues
 * them later.
 */
export async function requestStandingsRecompute(teams: number | Iterable<number | null | undefined>): Promise<boolean> {
  const teamIds = typeof teams === "number" ? [teams] : [...new Set(teams)].filter((teamId): teamId is number => typeof teamId === "number");
  try {
    await enqueueMany(
      "standings",
      teamIds.map((teamId) => ({ teamId })),
    );
    return true;
  } catch (error) {
    getLogger().warn({ err: error, teams: teamIds.length, teamId: teamIds[0] }, "standings jobs not enqueued; the outbox sweep will retry");
    return false;
  }
}

/** Enqueues a job for every team still marked stale for longer than `olderThanMs` (worker sweep). */
export async function sweepStaleStandings(olderThanMs = 2000): Promise<number> {
  const rows = await getDb()
    .select({ teamId: standingsOutbox.teamId })
    .from(standingsOutbox)
    .where(lt(standingsOutbox.requestedAt, new Date(Date.now() - olderThanMs)));
  await enqueueMany(
    "standings",
    rows.map(({ teamId }) => ({ teamId })),
  );
  return rows.length;
}

/** The standings still to recompute: teams marked stale, and how long the oldest has waited (metrics). */
export async function outboxBacklog(): Promise<{ teams: number; oldestSeconds: number }> {
  const [row] = await getDb().execute<{ teams: number; oldest_seconds: number | null }>(sql`
    select count(*)::int as teams, extract(epoch from now() - min(${standingsOutbox.requestedAt}))::float8 as oldest_seconds
    from ${standingsOutbox}`);
  return { teams: Number(row?.teams ?? 0), oldestSeconds: Number(row?.oldest_seconds ?? 0) };
}
