import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventSettings, standingsHistory } from "../../db/schema.ts";
import { getScoreChart } from "../../app/modules/standings/history.server.ts";
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
});
