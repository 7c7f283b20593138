import { asc, eq } from "drizzle-orm";
import { eventSettings, gates, meals } from "../../../db/schema.ts";
import { getDb } from "../../utils/db.server.ts";
import { DEFAULT_TIME_ZONE } from "./zoned-time.ts";

/** The event's time zone (DOMAIN.md: an event setting, Africa/Algiers by default). */
export async function getEventTimeZone(): Promise<string> {
  const [row] = await getDb().select({ timeZone: eventSettings.timeZone }).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return row?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Everything the settings page edits. */
export async function readEventSettings() {
  const db = getDb();
  const [[settings], gateRows, mealRows] = await Promise.all([
    db.select().from(eventSettings).where(eq(eventSettings.id, 1)).limit(1),
    db.select().from(gates).orderBy(asc(gates.number)),
    db.select().from(meals).orderBy(asc(meals.at), asc(meals.id)),
  ]);
  return {
    timeZone: settings?.timeZone ?? DEFAULT_TIME_ZONE,
    finalAt: settings?.finalAt ?? null,
    gates: gateRows,
    meals: mealRows,
  };
}

export async function updateGate(number: number, values: { title: string; description: string; opensAt: Date }) {
  await getDb()
    .insert(gates)
    .values({ number, ...values })
    .onConflictDoUpdate({ target: gates.number, set: values });
}

export async function updateFinalAt(finalAt: Date) {
  await getDb().insert(eventSettings).values({ id: 1, finalAt }).onConflictDoUpdate({ target: eventSettings.id, set: { finalAt } });
}

export async function addMeal(label: string, at: Date) {
  await getDb().insert(meals).values({ label, at });
}

export async function removeMeal(id: number) {
  await getDb().delete(meals).where(eq(meals.id, id));
}
