import { asc, gt } from "drizzle-orm";
import { meals } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";

/** The first meal later than now, or null. */
export async function getNextMeal(now = new Date()): Promise<{ label: string; at: string } | null> {
  const [row] = await getDb().select({ label: meals.label, at: meals.at }).from(meals).where(gt(meals.at, now)).orderBy(asc(meals.at)).limit(1);
  return row ? { label: row.label, at: row.at.toISOString() } : null;
}
