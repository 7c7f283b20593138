/**
 * Property: the ranking order (app/modules/standings/ranking.ts) is the same wherever it is applied:
 * the standings export (Postgres's ORDER BY), the scoreboard (the Redis sorted set's positions) and the
 * browser's re-sort of the board (the comparator), on ties of every kind: equal totals, equal times,
 * times that differ below the millisecond (Postgres keeps microseconds, a JavaScript Date does not).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { standings, teams } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { standingsCsv } from "../../app/modules/exports/csv.server.ts";
import { nameColumns } from "../../app/modules/names/names.ts";
import { toTeamStanding } from "../../app/modules/standings/compute.server.ts";
import { compareStandings } from "../../app/modules/standings/ranking.ts";
import { readSnapshot, writeWholeSnapshot } from "../../app/modules/standings/snapshot.server.ts";

// Few distinct values, so that ties are the rule. Microseconds after a fixed instant: 0 and 400 share
// a millisecond, 1,000 and 1,700 the next one.
const team = fc.record({
  totalCenti: fc.constantFrom(0, 5_000, 12_345),
  reachedAtMicros: fc.constantFrom(0, 400, 1_000, 1_700),
  // A team whose standing is not computed yet: the export lists it (0 points) after the others.
  computed: fc.boolean(),
});

const BASE = "2026-03-01T10:00:00";

function instant(micros: number): string {
  return `${BASE}.${String(micros).padStart(6, "0")}Z`;
}

describe("the ranking order", () => {
  it("is the same in the export, in Redis and in the browser's comparator", async () => {
    const db = getDb();
    const redis = getRedis();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(team, { minLength: 1, maxLength: 12 }), async (world) => {
        run += 1;
        await db.delete(teams);
        // Inserted in array order, so ids ascend along it while times and totals do not.
        const inserted = await db
          .insert(teams)
          .values(world.map((_, index) => nameColumns(`r${run}-${index}`)))
          .returning({ id: teams.id, name: teams.name });
        const computed = world.flatMap((spec, index) => (spec.computed ? [{ ...spec, ...inserted[index] }] : []));
        if (computed.length) {
          await db.insert(standings).values(
            computed.map((spec) => ({ teamId: spec.id, totalCenti: spec.totalCenti, totalReachedAt: new Date(0) })),
          );
          // Microseconds cannot pass through a Date: written as text.
          for (const spec of computed) {
            await db.execute(`update standings set total_reached_at = '${instant(spec.reachedAtMicros)}' where team_id = ${spec.id}`);
          }
        }

        const exported = (await standingsCsv()).trim().split(/\r?\n/).slice(1).map((line) => line.split(",")[1]);

        // The board as the standings writer builds it: rows read from Postgres, placed in Redis.
        const rows = await db.select().from(standings);
        const names = new Map(inserted.map((row) => [row.id, row.name]));
        const board = rows.map((row) => toTeamStanding({ id: row.teamId, name: names.get(row.teamId)!, division: null }, { ...row, rank: 0 }, 1));
        await writeWholeSnapshot(redis, board, { version: 1, frozen: false, frozenBoard: null, divisions: [] });
        const fromRedis = (await readSnapshot(redis)).board.map((entry) => entry.name);
        const sorted = [...board].sort(compareStandings).map((entry) => entry.name);

        const uncomputed = inserted.filter((_, index) => !world[index].computed).map((row) => row.name);
        expect(fromRedis).toEqual(sorted);
        expect(exported).toEqual([...sorted, ...uncomputed]);
      }),
      { numRuns: 60 },
    );
  });
});
