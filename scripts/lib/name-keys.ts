/**
 * After the migrations: every user and team name in its normal form with its key (the rule is in
 * app/modules/names/names.ts; migration 0008 gave the rows already there a provisional key). Run by
 * scripts/migrate.ts after every migrate, so a change of the rule or a newer confusables table (a library
 * update) re-keys the names as well. It never fails on two names already there that the rule now calls
 * the same: both rows stay, the one that could not take the key keeps its old key, and it is reported for
 * the organiser to rename one (until then a user cannot sign in by typing the other's look-alike).
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { teams, users } from "../../db/schema.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { hasInvisibleCharacters, nameColumns } from "../../app/modules/names/names.ts";

export async function rekeyNames(db: Database): Promise<{ updated: number; clashes: string[]; invisible: string[] }> {
  let updated = 0;
  const clashes: string[] = [];
  // Names from before the rule that hide invisible characters: kept (a login may depend on them), reported.
  const invisible: string[] = [];
  for (const table of [users, teams]) {
    const kind = table === users ? "user" : "team";
    const rows = await db.select({ id: table.id, name: table.name, nameKey: table.nameKey }).from(table).orderBy(asc(table.id));
    let pending: typeof rows = [];
    for (const row of rows) {
      if (hasInvisibleCharacters(row.name)) invisible.push(`${kind} ${row.id} ${JSON.stringify(row.name)}`);
      const wanted = nameColumns(row.name);
      if (wanted.name !== row.name || wanted.nameKey !== row.nameKey) pending.push(row);
    }
    // A row refused now may take its key once a later row has moved off it: passes until one changes nothing.
    for (let progress = true; progress && pending.length; ) {
      const refused: typeof rows = [];
      for (const row of pending) {
        try {
          // A savepoint each: one clash must not undo the others.
          await db.transaction(async (tx) => {
            await tx.update(table).set(nameColumns(row.name)).where(eq(table.id, row.id));
          });
          updated++;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          refused.push(row);
        }
      }
      progress = refused.length < pending.length;
      pending = refused;
    }
    for (const row of pending) clashes.push(`${kind} ${row.id} "${row.name}"`);
  }
  return { updated, clashes, invisible };
}
