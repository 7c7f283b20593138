/**
 * The live standings in CTFtime's scoreboard feed format (https://ctftime.org/json-scoreboard-feed, its
 * minimal scoreboard): `{"standings":[{"pos":1,"team":"Name","score":1234.5}, …]}`, in the ranking order the
 * standings CSV uses (live, never the frozen board), a score in points with at most 2 decimals.
 */
import { liveStandingRows } from "./csv.server.ts";

export interface CtftimeScoreboard {
  standings: Array<{ pos: number; team: string; score: number }>;
}

export async function ctftimeScoreboard(): Promise<CtftimeScoreboard> {
  const rows = await liveStandingRows();
  return { standings: rows.map((row, index) => ({ pos: index + 1, team: row.name, score: row.total / 100 })) };
}
