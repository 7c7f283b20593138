import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventSettings, gates, standingsHistory } from "../../db/schema.ts";
import { eventVersionsSql, parseEventVersions } from "../../app/modules/event-data/shared.server.ts";
import { getScoreChart, rememberChartBoard } from "../../app/modules/standings/history.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { ensureEventSettings, makeTeam } from "../support/fixtures.ts";

const MINUTE = 60_000;

describe("score chart history", () => {
  it("starts each line at its total before the window, and stops other teams at the freeze for a frozen viewer", async () => {
    await ensureEventSettings();
    const [own, other] = [await makeTeam(), await makeTeam()];
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE);
    await getDb().insert(standingsHistory).values([
      // Without gates the window is the last hour: 3 hours ago is before it, the rest inside.
      { teamId: own.id, totalCenti: 1000, at: at(180) },
      { teamId: own.id, totalCenti: 2550, at: at(40) },
      { teamId: own.id, totalCenti: 4000, at: at(5) },
      { teamId: other.id, totalCenti: 3000, at: at(50) },
      { teamId: other.id, totalCenti: 9000, at: at(10) },
    ]);
    const teams = [
      { id: other.id, name: other.name },
      { id: own.id, name: own.name },
    ];

    const live = await getScoreChart({ teams, frozenFor: null });
    expect(live.timeZone).toBe("Africa/Algiers");
    expect(live.chart.until - live.chart.from).toBeGreaterThanOrEqual(59 * MINUTE);
    expect(live.chart.series.map((series) => series.teamId)).toEqual([other.id, own.id]);
    expect(live.chart.series[1].points.map(([, total]) => total)).toEqual([10, 25.5, 40]);
    expect(live.chart.series[0].points.map(([, total]) => total)).toEqual([30, 90]);

    await getDb().update(eventSettings).set({ scoreboardFrozen: true, frozenAt: at(20) }).where(eq(eventSettings.id, 1));
    const frozen = await getScoreChart({ teams, frozenFor: { ownTeamId: own.id } });
    // The other team stops at the freeze (its later 90 is hidden); the viewer's own team stays live.
    expect(frozen.chart.series[0].points.map(([, total]) => total)).toEqual([30]);
    expect(frozen.chart.series[0].until).toBeLessThan(now - 19 * MINUTE);
    expect(frozen.chart.series[1].points.map(([, total]) => total)).toEqual([10, 25.5, 40]);
    await getDb().update(eventSettings).set({ scoreboardFrozen: false, frozenAt: null }).where(eq(eventSettings.id, 1));

    const none = await getScoreChart({ teams: [], frozenFor: null });
    expect(none.chart.series).toEqual([]);
  });

  it("is read once per board: a new board, a point the board is ahead of, a sliding window or a settings change is read again", async () => {
    await ensureEventSettings();
    await getDb().update(eventSettings).set({ scoreboardFrozen: false, frozenAt: null }).where(eq(eventSettings.id, 1));
    // The first gate opened three hours ago: the window starts there and no longer moves with the clock.
    await getDb().execute(sql`insert into gates (number, title, description, opens_at) values (1, 'Gate 1', 'Door 1', now() - interval '3 hours')
      on conflict (number) do update set opens_at = excluded.opens_at`);
    const versions = async () => {
      const [row] = await getDb().execute<{ v: string }>(sql`select ${eventVersionsSql()} as v`);
      return parseEventVersions(row?.v)!;
    };
    const team = await makeTeam();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * MINUTE);
    await getDb().insert(standingsHistory).values({ teamId: team.id, totalCenti: 1000, at: at(30) });
    const totals = async (teams: Array<{ id: number; name: string; totalScore: number }>, board: object, known = versions()) => {
      rememberChartBoard(teams, board);
      const { chart } = await getScoreChart({ teams, frozenFor: null, versions: await known });
      return chart.series[0].points.map(([, total]) => total);
    };
    const board = {};
    expect(await totals([{ id: team.id, name: team.name, totalScore: 10 }], board)).toEqual([10]);

    // Written behind the board's back (no board moves): the same board's chart is the one read before.
    await getDb().insert(standingsHistory).values({ teamId: team.id, totalCenti: 2000, at: at(20) });
    expect(await totals([{ id: team.id, name: team.name, totalScore: 10 }], board)).toEqual([10]);
    // A recompute places a new board (a new snapshot): read again.
    const moved = {};
    expect(await totals([{ id: team.id, name: team.name, totalScore: 20 }], moved)).toEqual([10, 20]);

    // The board ahead of the history (placed, its transaction not yet committed): shown, not kept.
    const ahead = {};
    expect(await totals([{ id: team.id, name: team.name, totalScore: 30 }], ahead)).toEqual([10, 20]);
    await getDb().insert(standingsHistory).values({ teamId: team.id, totalCenti: 3000, at: at(10) });
    expect(await totals([{ id: team.id, name: team.name, totalScore: 30 }], ahead)).toEqual([10, 20, 30]);

    // The settings or gates change (here the first gate's opening): read again on the same board.
    await getDb().insert(standingsHistory).values({ teamId: team.id, totalCenti: 4000, at: at(5) });
    expect(await totals([{ id: team.id, name: team.name, totalScore: 30 }], ahead)).toEqual([10, 20, 30]);
    await getDb().update(gates).set({ opensAt: at(150) }).where(eq(gates.number, 1));
    expect(await totals([{ id: team.id, name: team.name, totalScore: 40 }], ahead)).toEqual([10, 20, 30, 40]);

    // While the first gate opened less than an hour ago the window slides with the clock: never kept.
    await getDb().update(gates).set({ opensAt: at(10) }).where(eq(gates.number, 1));
    const sliding = {};
    const before = await totals([{ id: team.id, name: team.name, totalScore: 40 }], sliding);
    await getDb().insert(standingsHistory).values({ teamId: team.id, totalCenti: 4000, at: at(1) });
    expect((await totals([{ id: team.id, name: team.name, totalScore: 40 }], sliding)).length).toBe(before.length + 1);

    // A remembered chart's "now" moves on with the clock.
    await getDb().update(gates).set({ opensAt: at(180) }).where(eq(gates.number, 1));
    const steady = {};
    const teams = [{ id: team.id, name: team.name, totalScore: 40 }];
    rememberChartBoard(teams, steady);
    const known = await versions();
    const first = await getScoreChart({ teams, frozenFor: null, versions: known });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await getScoreChart({ teams, frozenFor: null, versions: known });
    expect(second.chart.series[0].points).toBe(first.chart.series[0].points);
    expect(second.chart.until).toBeGreaterThan(first.chart.until);

    // Frozen: a viewer whose own team is on the chart sees its line live, another viewer does not (never one chart for both).
    const other = await makeTeam();
    await getDb().insert(standingsHistory).values({ teamId: other.id, totalCenti: 500, at: at(60) });
    await getDb().update(eventSettings).set({ scoreboardFrozen: true, frozenAt: at(3) }).where(eq(eventSettings.id, 1));
    const frozenVersions = await versions();
    const frozenBoard = {};
    // At the freeze the team stood at 40; its newest point (40, a minute ago) is after it.
    const frozenTeams = [{ id: team.id, name: team.name, totalScore: 40 }, { id: other.id, name: other.name, totalScore: 5 }];
    rememberChartBoard(frozenTeams, frozenBoard);
    const lastAt = async (ownTeamId: number) =>
      (await getScoreChart({ teams: frozenTeams, frozenFor: { ownTeamId }, versions: frozenVersions })).chart.series[0].points.at(-1)![0];
    for (let round = 0; round < 2; round++) {
      expect(await lastAt(team.id)).toBeGreaterThan(Date.now() - 2 * MINUTE);
      expect(await lastAt(other.id)).toBeLessThan(Date.now() - 3 * MINUTE);
    }
    await getDb().update(eventSettings).set({ scoreboardFrozen: false, frozenAt: null }).where(eq(eventSettings.id, 1));
  });
});
