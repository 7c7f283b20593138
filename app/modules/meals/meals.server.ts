import { asc } from "drizzle-orm";
import { meals } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { sharedRead, type EventVersions } from "../event-data/shared.server.ts";

/** The first meal later than now, or null. */
/** Every meal, by time: read once per version when given the request's (app/modules/event-data/shared.server.ts). */
const mealRows = sharedRead(["meals"], () => getDb().select({ label: meals.label, at: meals.at }).from(meals).orderBy(asc(meals.at), asc(meals.id)));

export async function getNextMeal(now = new Date(), versions: EventVersions | null = null): Promise<{ label: string; at: string } | null> {
  const row = (await mealRows(versions)).find((meal) => meal.at.getTime() > now.getTime());
  return row ? { label: row.label, at: row.at.toISOString() } : null;
}
