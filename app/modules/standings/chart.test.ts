import { describe, expect, it } from "vitest";
import { chartGeometry, chartTeamIds, CHART_HEIGHT, CHART_WIDTH, extendChart, followsTeams, niceMax, type ScoreChart } from "./chart.ts";

const chart = (): ScoreChart => ({
  from: 0,
  until: 1000,
  series: [
    { teamId: 1, name: "Phoenix", points: [[-50, 20], [500, 80]], until: 1000 },
    { teamId: 2, name: "Kraken", points: [], until: 1000 },
  ],
});

describe("score chart", () => {
  it("follows the top 10 of the board", () => {
    const board = Array.from({ length: 12 }, (_, index) => ({ id: index + 1 }));
    expect(chartTeamIds(board)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(followsTeams(chart(), [2, 1])).toBe(true);
    expect(followsTeams(chart(), [1, 3])).toBe(false);
  });

  it("draws step lines from the total at the left edge to each line's end", () => {
    const { maxPoints, paths } = chartGeometry(chart());
    expect(maxPoints).toBe(100);
    // 20 points at the edge (the change before the window), 80 from the middle on.
    expect(paths[0]).toBe(`M0 ${CHART_HEIGHT * 0.8} H${CHART_WIDTH / 2} V${CHART_HEIGHT * 0.2} H${CHART_WIDTH}`);
    // No history: flat at 0.
    expect(paths[1]).toBe(`M0 ${CHART_HEIGHT} H${CHART_WIDTH}`);
  });

  it("stops a frozen line at the freeze", () => {
    const frozen = chart();
    frozen.series[0] = { ...frozen.series[0], points: [[100, 10], [800, 90]], until: 400 };
    const { paths } = chartGeometry(frozen);
    expect(paths[0]).toBe(`M0 ${CHART_HEIGHT} H${CHART_WIDTH / 10} V${CHART_HEIGHT * 0.9} H${(CHART_WIDTH * 4) / 10}`);
  });

  it("extends a followed team's line on a live update, never back in time", () => {
    const next = extendChart(chart(), { id: 2, name: "Kraken", totalScore: 40, reachedAt: new Date(1500).toISOString() }, 1600);
    expect(next.until).toBe(1500);
    expect(next.series[1]).toMatchObject({ points: [[1500, 40]], until: 1500 });
    const late = extendChart(next, { id: 2, name: "Kraken", totalScore: 45, reachedAt: new Date(1200).toISOString() }, 1700);
    expect(late.series[1].points.at(-1)).toEqual([1500, 45]);
    // Same total: nothing to add. Unknown team: nothing changes.
    expect(extendChart(late, { id: 2, name: "Kraken", totalScore: 45, reachedAt: new Date(1800).toISOString() }, 1800).series[1].points).toHaveLength(2);
    const other = extendChart(late, { id: 9, name: "Other", totalScore: 5, reachedAt: new Date(1800).toISOString() }, 1800);
    expect(other).toBe(late);
  });

  it("rounds the y axis up to a readable maximum", () => {
    expect(niceMax(0)).toBe(10);
    expect(niceMax(195)).toBe(200);
    expect(niceMax(1234)).toBe(2000);
    expect(niceMax(260)).toBe(500);
  });
});
