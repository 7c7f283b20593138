/**
 * Property: the frozen-board rule's SQL forms (app/modules/standings/frozen-view.ts) agree with its code forms,
 * in Postgres: a team's frozen rank as the standings job reads it (`frozenRankSql`, in the statement that
 * recomputes a team) and as the code reads it off the frozen board (`frozenRankOf`), frozen or live, for teams
 * on the board and off it; where a chart line stops as the chart's read cuts it (`chartCutAtSql`,
 * `chartLineEndSql`) and as the chart is drawn (`chartLineEnd`), for every viewer's cut.
 */
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowsOf, sendInOrder } from "../../db/in-order.ts";
import { eventSettings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";
import { recomputeReads, recomputeReadsOf } from "../../app/modules/standings/compute.server.ts";
import { chartCutAtSql, chartLineEnd, chartLineEndSql, frozenRankOf, frozenRankSql, type ChartCut } from "../../app/modules/standings/frozen-view.ts";

const standing = (id: number, rank: number): TeamStanding => ({
  id,
  name: `t${id}`,
  totalScore: 0,
  categories: { AI: 0, CS: 0, PS: 0, GD: 0 },
  solvedCount: 0,
  rank,
  reachedAt: "2026-03-01T10:00:00.000Z",
  version: 1,
  division: null,
});

// Ids 1..8, so that a team asked about is often on the board and often not.
const frozenBoard = fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }).map((ids) => ids.map((id, index) => standing(id, index + 1)));

async function setSettings(values: { frozen: boolean; frozenBoard: TeamStanding[] | null; frozenAt: Date | null }) {
  const db = getDb();
  await db.delete(eventSettings);
  await db.insert(eventSettings).values({ id: 1, finalAt: new Date(), scoreboardFrozen: values.frozen, frozenBoard: values.frozenBoard, frozenAt: values.frozenAt });
}

describe("the frozen-board rule in SQL and in code", () => {
  it("gives a team the same frozen rank, frozen or live, on the board or off it", async () => {
    const db = getDb();
    const settingsRank = (teamId: number) =>
      db
        .select({ rank: frozenRankSql({ frozen: eventSettings.scoreboardFrozen, frozenBoard: eventSettings.frozenBoard }, sql`${teamId}::int`) })
        .from(eventSettings)
        .where(eq(eventSettings.id, 1));
    await fc.assert(
      fc.asyncProperty(fc.boolean(), frozenBoard, async (frozen, board) => {
        // A live board keeps no frozen board; one left behind by mistake must still give no rank.
        await setSettings({ frozen, frozenBoard: board, frozenAt: frozen ? new Date() : null });
        for (let teamId = 1; teamId <= 8; teamId += 1) {
          const [row] = await settingsRank(teamId);
          expect(row.rank === null ? null : Number(row.rank)).toBe(frozenRankOf(frozen ? board : null, teamId));
        }
        // The statement the standings job reads a team's recompute with carries the same rank.
        const reads = recomputeReadsOf(rowsOf((await sendInOrder(db, [recomputeReads({ teamId: 3 })]))[0])[0]);
        expect(reads.freeze).toEqual({ frozen, frozenRank: frozenRankOf(frozen ? board : null, 3) });
      }),
      { numRuns: 40 },
    );
  });

  it("stops a chart line at the same instant", async () => {
    const db = getDb();
    const cuts: Array<ChartCut | null> = [null, { ownTeamId: 2 }, { ownTeamId: null }];
    for (const frozenAt of [new Date("2026-03-01T10:00:00.000Z"), null]) {
      await setSettings({ frozen: frozenAt !== null, frozenBoard: frozenAt ? [] : null, frozenAt });
      for (const cut of cuts) {
        for (const teamId of [1, 2]) {
          const [row] = await db.execute<{ now_at: Date; cut_at: Date; line_end: Date }>(sql`
            with settings as (select frozen_at from event_settings where id = 1),
            win as (select now() as now_at, ${chartCutAtSql(cut, sql`settings.frozen_at`)} as cut_at from settings)
            select win.now_at, win.cut_at, ${chartLineEndSql(cut, sql`${teamId}::int`, { cutAt: sql`win.cut_at`, nowAt: sql`win.now_at` })} as line_end from win`);
          const nowAt = new Date(row.now_at).getTime();
          const cutAt = new Date(row.cut_at).getTime();
          // The cut's instant: the freeze's for a viewer with a cut (now without a freeze instant), else now.
          expect(cutAt).toBe(cut !== null && frozenAt ? frozenAt.getTime() : nowAt);
          expect(new Date(row.line_end).getTime()).toBe(chartLineEnd(cut, teamId, { cutAt, nowAt }));
          // And on its own, from any two instants.
          const ends = { cutAt: new Date("2026-03-01T09:00:00.000Z"), nowAt: new Date("2026-03-01T11:00:00.000Z") };
          const [alone] = await db.execute<{ line_end: Date }>(
            sql`select ${chartLineEndSql(cut, sql`${teamId}::int`, { cutAt: sql`${ends.cutAt.toISOString()}::timestamptz`, nowAt: sql`${ends.nowAt.toISOString()}::timestamptz` })} as line_end`,
          );
          expect(new Date(alone.line_end).getTime()).toBe(chartLineEnd(cut, teamId, ends).getTime());
        }
      }
    }
  });
});
