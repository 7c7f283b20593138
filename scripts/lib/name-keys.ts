/**
 * After the migrations: every user and team name in its normal form with its key (the rule is in
 * app/modules/names/names.ts; migration 0008 gave the rows already there a provisional key). Run by
 * scripts/migrate.ts after every migrate, so a newer confusables table (a library update) re-keys the names as well. Two names
 * already there that the rule now calls the same keep their provisional key: logged for the organiser
 * to rename one (the older row keeps the name's key).
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { teams, users } from "../../db/schema.ts";
import { hasInvisibleCharacters, nameColumns } from "../../app/modules/names/names.ts";

export async function rekeyNames(db: Database): Promise<{ updated: number; clashes: string[]; invisible: string[] }> {
  let updated = 0;
  const clashes: string[] = [];
  // Names from before the rule that hide invisible characters: kept (a login may depend on them), reported.
  const invisible: string[] = [];
  for (const table of [users, teams]) {
    const rows = await db.select({ id: table.id, name: table.name, nameKey: table.nameKey }).from(table).orderBy(asc(table.id));
    for (const row of rows) {
      if (hasInvisibleCharacters(row.name)) invisible.push(`${table === users ? "user" : "team"} ${row.id} ${JSON.stringify(row.name)}`);
      const wanted = nameColumns(row.name);
      if (wanted.name === row.name && wanted.nameKey === row.nameKey) continue;
      try {
        // A savepoint each: one clash must not undo the others.
        await db.transaction(async (tx) => {
          await tx.update(table).set(wanted).where(eq(table.id, row.id));
        });
        updated++;
      } catch (error) {
        if ((error as { code?: string; cause?: { code?: string } }).code !== "23505" && (error as { cause?: { code?: string } }).cause?.code !== "23505") throw error;
        clashes.push(`${table === users ? "user" : "team"} ${row.id} "${row.name}"`);
      }
    }
  }
  return { updated, clashes, invisible };
}
