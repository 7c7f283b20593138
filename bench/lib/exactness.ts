/**
 * "Standings exact at the end": once the workers have drained every job, the incremental writer's
 * results (Postgres rows and the Redis board the scoreboard reads) must equal a from-scratch
 * computation over submissions and scores.
 */
import { sql } from "drizzle-orm";
import { standings } from "../../db/schema.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { sleep } from "./servers.ts";

/** Waits until no team is marked stale, no dynamic challenge's solvers are behind and the standings queues are idle; resolves with the wait (ms). */
export async function waitForStandingsDrained(timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  const queues = [getQueue("standings"), getQueue("standingsBatch")];
  while (performance.now() - started < timeoutMs) {
    // The teams marked stale, and the dynamic challenges whose other solvers are still to fall (their rounds begin a
    // second apart: the last one may come after every team's own recompute).
    const [{ stale, behind }] = await getDb().execute<{ stale: number; behind: number }>(
      sql`select (select count(*)::int from standings_outbox) as stale,
        (select count(*)::int from flag_solve_counts c join challenges ch on ch.id = c.challenge_id where ch.scoring = 'dynamic' and c.recomputed < c.solves) as behind`,
    );
    const counts = await Promise.all(queues.map((queue) => queue.getJobCounts("waiting", "active", "delayed", "prioritized")));
    if (stale === 0 && behind === 0 && counts.every((count) => Object.values(count).every((n) => n === 0))) return performance.now() - started;
    await sleep(100);
  }
  throw new Error(`standings not drained within ${timeoutMs} ms`);
}

export interface Exactness {
  exact: boolean;
  teams: number;
  /** Teams whose stored row or board entry differs from the recomputation (a few, for the report). */
  mismatches: Array<{ teamId: number; where: "postgres" | "redis"; stored: unknown; expected: unknown }>;
}

export async function checkStandingsExact(): Promise<Exactness> {
  const db = getDb();
  const expected = await computeAllStandings(db);
  const mismatches: Exactness["mismatches"] = [];

  const stored = new Map((await db.select().from(standings)).map((row) => [row.teamId, comparable(row)]));
  for (const row of expected.standings) {
    const have = stored.get(row.teamId);
    const want = comparable(row);
    if (have !== want) mismatches.push({ teamId: row.teamId, where: "postgres", stored: have, expected: want });
  }

  const board = (await readSnapshot(getRedis())).board.map((team) => [team.id, team.rank, Math.round(team.totalScore * 100), team.solvedCount]);
  const expectedBoard = expected.standings.map((row) => [row.teamId, row.rank, row.totalCenti, row.solvedCount]);
  const length = Math.max(board.length, expectedBoard.length);
  for (let index = 0; index < length; index++) {
    if (JSON.stringify(board[index]) !== JSON.stringify(expectedBoard[index])) {
      mismatches.push({ teamId: Number(expectedBoard[index]?.[0] ?? board[index]?.[0]), where: "redis", stored: board[index], expected: expectedBoard[index] });
    }
  }
  return { exact: mismatches.length === 0, teams: expected.standings.length, mismatches: mismatches.slice(0, 10) };
}

type StandingRow = Pick<typeof standings.$inferSelect, "teamId" | "totalCenti" | "aiCenti" | "csCenti" | "psCenti" | "gdCenti" | "solvedCount" | "totalReachedAt">;

/** The fields that make a standing, in one fixed order (key order differs between selects). */
function comparable(row: StandingRow): string {
  return [row.teamId, row.totalCenti, row.aiCenti, row.csCenti, row.psCenti, row.gdCenti, row.solvedCount, row.totalReachedAt.getTime()].join(",");
}
