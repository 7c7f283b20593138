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

/** Waits until no team is marked stale and the standings queue is idle; resolves with the wait (ms). */
export async function waitForStandingsDrained(timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  const queue = getQueue("standings");
  while (performance.now() - started < timeoutMs) {
    const [{ stale }] = await getDb().execute<{ stale: number }>(sql`select count(*)::int as stale from standings_outbox`);
    const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized");
    if (stale === 0 && Object.values(counts).every((count) => count === 0)) return performance.now() - started;
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
