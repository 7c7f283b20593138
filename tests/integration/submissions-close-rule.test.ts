/**
 * Property: when submissions close (app/modules/submissions/close.ts) is the same instant in SQL (what
 * `assertCanSubmit` reads as it saves) and in code (what the pages and the API show), and a request begun at
 * any instant is open by both or by neither: with the setting, without it (the final countdown's), and before
 * the event has any settings (never closed).
 */
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSettings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { submissionsCloseOf, submissionsCloseSql, submissionsOpenAt } from "../../app/modules/submissions/close.ts";

const BASE = Date.UTC(2026, 2, 1, 10);
// Few distinct instants, so that a request begun at the very instant of the close is common.
const instant = fc.constantFrom(0, 1, 999, 60_000).map((ms) => new Date(BASE + ms));

/** The instant as the saving transaction reads it: the settings row joined as `assertCanSubmit` joins it. */
async function closeInSql(): Promise<Date | null> {
  const [row] = await getDb()
    .select({ closesAt: submissionsCloseSql })
    .from(sql`(select 1) as one`)
    .leftJoin(eventSettings, eq(eventSettings.id, 1));
  return row.closesAt;
}

describe("submissions close", () => {
  it("is the same instant in SQL and in code, and open or closed alike for a request begun at any instant", async () => {
    const db = getDb();
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.record({ finalAt: instant, submissionsCloseAt: fc.option(instant, { nil: null }) }), { nil: null }),
        fc.array(instant, { minLength: 1, maxLength: 4 }),
        async (settings, begun) => {
          await db.delete(eventSettings);
          if (settings) await db.insert(eventSettings).values({ id: 1, ...settings });
          const fromSql = await closeInSql();
          const fromCode = settings ? submissionsCloseOf(settings) : null;
          expect(fromSql?.getTime() ?? null).toBe(fromCode?.getTime() ?? null);
          for (const at of begun) expect(submissionsOpenAt(fromSql, at)).toBe(submissionsOpenAt(fromCode, at));
        },
      ),
      { numRuns: 60 },
    );
  });
});
