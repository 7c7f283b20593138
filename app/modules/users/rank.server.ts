import { asc, desc, eq, sql, type AnyColumn } from "drizzle-orm";
import { teams, users, userStatistics } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";

export interface RankedUser {
  id: number;
  name: string;
  team: string | null;
  /** Points per category and total (not hundredths), with the solved count per category. */
  ai: number;
  gd: number;
  cs: number;
  ps: number;
  total: number;
  solved: { AI: number; GD: number; CS: number; PS: number };
}

/**
 * Users Rank: participants only, total descending. Statistics are derived by the standings
 * worker; a participant without a row yet shows zeros (left join).
 */
export async function listUsersRank(): Promise<RankedUser[]> {
  const zero = (column: AnyColumn) => sql<number>`coalesce(${column}, 0)::int`;
  const rows = await getDb()
    .select({
      id: users.id,
      name: users.name,
      team: teams.name,
      ai: zero(userStatistics.aiCenti),
      gd: zero(userStatistics.gdCenti),
      cs: zero(userStatistics.csCenti),
      ps: zero(userStatistics.psCenti),
      total: zero(userStatistics.totalCenti),
      aiSolved: zero(userStatistics.aiSolved),
      gdSolved: zero(userStatistics.gdSolved),
      csSolved: zero(userStatistics.csSolved),
      psSolved: zero(userStatistics.psSolved),
    })
    .from(users)
    .leftJoin(teams, eq(teams.id, users.teamId))
    .leftJoin(userStatistics, eq(userStatistics.userId, users.id))
    .where(eq(users.role, "participant"))
    .orderBy(desc(sql`coalesce(${userStatistics.totalCenti}, 0)`), asc(sql`lower(${users.name})`), asc(users.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    team: row.team,
    ai: row.ai / 100,
    gd: row.gd / 100,
    cs: row.cs / 100,
    ps: row.ps / 100,
    total: row.total / 100,
    solved: { AI: row.aiSolved, GD: row.gdSolved, CS: row.csSolved, PS: row.psSolved },
  }));
}
