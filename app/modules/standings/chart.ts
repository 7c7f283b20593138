/**
 * The scoreboard's points-over-time chart (top 10 teams): its data shape, how a live update extends
 * it, and the geometry the SVG draws. Pure and browser-safe: the loader builds the data on the
 * server, the page extends it on `teams:update`, and both render the same picture.
 */
import type { TeamStanding } from "../realtime/events.ts";

/** How many teams the chart follows: the top of the board. */
export const CHART_TEAMS = 10;

/** One team's line: its totals (points) at the instants they changed, oldest first. */
export interface ChartSeries {
  teamId: number;
  name: string;
  /** [epoch ms, total points]. */
  points: Array<[number, number]>;
  /** Where the line stops (epoch ms): now, or the freeze for other teams while a participant looks at a frozen board (`chartLineEnd` in ./frozen-view.ts). */
  until: number;
}

export interface ScoreChart {
  /** The time axis, epoch ms. */
  from: number;
  until: number;
  series: ChartSeries[];
}

/** The team ids the chart should follow for a board: its first CHART_TEAMS, in rank order. */
export function chartTeamIds(board: readonly Pick<TeamStanding, "id">[]): number[] {
  return board.slice(0, CHART_TEAMS).map((team) => team.id);
}

/** True when the chart follows exactly these teams (in any order): otherwise it must be read again. */
export function followsTeams(chart: ScoreChart, teamIds: readonly number[]): boolean {
  if (chart.series.length !== teamIds.length) return false;
  const followed = new Set(chart.series.map((series) => series.teamId));
  return teamIds.every((id) => followed.has(id));
}

/**
 * A live update: the team's line gains a point at the time it reached its new total, and the time
 * axis reaches that moment. A team the chart does not follow leaves it as it is. Never goes back in
 * time, whatever order the events arrive in.
 */
export function extendChart(chart: ScoreChart, update: Pick<TeamStanding, "id" | "name" | "totalScore" | "reachedAt">, receivedAt: number): ScoreChart {
  const index = chart.series.findIndex((series) => series.teamId === update.id);
  if (index === -1) return chart;
  const series = chart.series[index];
  const last = series.points.at(-1);
  const reached = Date.parse(update.reachedAt);
  const at = Math.max(Number.isFinite(reached) ? reached : receivedAt, last?.[0] ?? chart.from, chart.from);
  const points: Array<[number, number]> = last && last[1] === update.totalScore ? series.points : [...series.points, [at, update.totalScore]];
  const until = Math.max(chart.until, at);
  const next: ChartSeries = { ...series, name: update.name, points, until: Math.max(series.until, at) };
  const seriesList = chart.series.slice();
  seriesList[index] = next;
  return { ...chart, until, series: seriesList };
}

/** The drawing's coordinate space: x and y from 0 to these (the SVG stretches it to its box). */
export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 400;

/** A y axis that ends on a round number at or above the highest total (at least 10 points). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 10;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    if (candidate >= value) return Math.max(10, candidate);
  }
  return Math.max(10, 10 * magnitude);
}

export interface ChartGeometry {
  maxPoints: number;
  /** One step path per series ("M x y H x V y ..."), in the order of the series. */
  paths: string[];
}

/**
 * Step lines: a total holds until it changes, so each line runs flat then jumps. A team's line starts
 * at the left edge (at its total then) and stops at its own `until`.
 */
export function chartGeometry(chart: ScoreChart): ChartGeometry {
  const span = Math.max(1, chart.until - chart.from);
  const highest = Math.max(0, ...chart.series.flatMap((series) => series.points.map(([, total]) => total)));
  const maxPoints = niceMax(highest);
  const x = (at: number) => round((Math.min(Math.max(at, chart.from), chart.until) - chart.from) / span * CHART_WIDTH);
  const y = (total: number) => round(CHART_HEIGHT - (Math.max(0, total) / maxPoints) * CHART_HEIGHT);
  const paths = chart.series.map((series) => {
    // The total at the left edge: the last change at or before it (0 if none).
    let current = 0;
    const later: Array<[number, number]> = [];
    for (const [at, total] of series.points) {
      if (at <= chart.from) current = total;
      else later.push([at, total]);
    }
    let path = `M0 ${y(current)}`;
    for (const [at, total] of later) {
      if (at > series.until) break;
      path += ` H${x(at)} V${y(total)}`;
    }
    return `${path} H${x(series.until)}`;
  });
  return { maxPoints, paths };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
