import type { Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { scoredSubmissionsOfTeam } from "../standings/compute.server.ts";
import { seesLiveBoard } from "../standings/frozen-view.ts";
import { atFreezeValues, frozenCentiOfTeam } from "../standings/frozen-values.server.ts";
import { countedCenti, fromCenti } from "./rules.ts";

/**
 * A team's scores per category, one number per scored submission (a rejected one
 * counts 0), whose sums, with the team's awards in the category (app/modules/awards), are the team's
 * category points. Live: a team always sees its own points; while the board is frozen, a viewer who does not
 * see the live board (the team's own members) reads its dynamic flag solves at their values as of the freeze,
 * as its row on their board (app/modules/standings/frozen-values.server.ts).
 */
export async function teamCategoryScores(teamId: number, viewer: { role: Role }): Promise<Record<Category, number[]>> {
  const scores: Record<Category, number[]> = { AI: [], CS: [], PS: [], GD: [] };
  const [rows, frozenCenti] = await Promise.all([
    scoredSubmissionsOfTeam(getDb(), teamId),
    seesLiveBoard(viewer.role, true) ? new Map<number, number>() : frozenCentiOfTeam(getDb(), teamId),
  ]);
  for (const row of atFreezeValues(rows, frozenCenti)) {
    if (row.scoreCenti !== null) scores[row.category].push(fromCenti(countedCenti(row)));
  }
  return scores;
}
