import type { Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { scoredSubmissionsOfTeam } from "../standings/compute.server.ts";
import { countedCenti, fromCenti } from "./rules.ts";

/**
 * A team's scores per category, one number per scored submission (a rejected one
 * counts 0), whose sums, with the team's awards in the category (app/modules/awards), are the team's
 * category points. Live: a team always sees its own points.
 */
export async function teamCategoryScores(teamId: number): Promise<Record<Category, number[]>> {
  const scores: Record<Category, number[]> = { AI: [], CS: [], PS: [], GD: [] };
  for (const row of await scoredSubmissionsOfTeam(getDb(), teamId)) {
    if (row.scoreCenti !== null) scores[row.category].push(fromCenti(countedCenti(row)));
  }
  return scores;
}
