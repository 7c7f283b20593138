/** Admin CSV exports: live standings (never the frozen board) and Users Rank. */
import { eq, sql } from "drizzle-orm";
import { standings, teams } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { rankOrderBy } from "../standings/ranking.ts";
import { listUsersRank } from "../users/rank.server.ts";
import { toCsv } from "./csv-format.server.ts";

const points = (centi: number) => (centi / 100).toFixed(2).replace(/\.?0+$/, "");

/**
 * Every team's live standing in the ranking order (app/modules/standings/ranking.ts), in hundredths; teams not
 * computed yet have 0. The standings CSV and the CTFtime feed (./ctftime.server.ts) read these rows.
 */
export async function liveStandingRows() {
  return getDb()
    .select({
      name: teams.name,
      ai: sql<number>`coalesce(${standings.aiCenti}, 0)::int`,
      cs: sql<number>`coalesce(${standings.csCenti}, 0)::int`,
      ps: sql<number>`coalesce(${standings.psCenti}, 0)::int`,
      gd: sql<number>`coalesce(${standings.gdCenti}, 0)::int`,
      total: sql<number>`coalesce(${standings.totalCenti}, 0)::int`,
      solved: sql<number>`coalesce(${standings.solvedCount}, 0)::int`,
    })
    .from(teams)
    .leftJoin(standings, eq(standings.teamId, teams.id))
    .orderBy(...rankOrderBy({ totalCenti: standings.totalCenti, reachedAt: standings.totalReachedAt, teamId: teams.id }));
}

/** Every team in the ranking order, live. */
export async function standingsCsv(): Promise<string> {
  const rows = await liveStandingRows();
  return toCsv(
    ["Rank", "Team", "AI", "CS", "PS", "GD", "Total", "Solved"],
    rows.map((row, index) => [index + 1, row.name, points(row.ai), points(row.cs), points(row.ps), points(row.gd), points(row.total), row.solved]),
  );
}

export async function usersRankCsv(): Promise<string> {
  const users = await listUsersRank();
  return toCsv(
    ["Rank", "Team", "User", "AI", "AI solved", "GD", "GD solved", "CS", "CS solved", "PS", "PS solved", "Total score"],
    users.map((user, index) => [
      index + 1,
      user.team ?? "",
      user.name,
      user.ai,
      user.solved.AI,
      user.gd,
      user.solved.GD,
      user.cs,
      user.solved.CS,
      user.ps,
      user.solved.PS,
      user.total,
    ]),
  );
}
