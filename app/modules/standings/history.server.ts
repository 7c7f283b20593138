/**
 * Reads the points-over-time chart from `standings_history` (one row per change of a team's total,
 * written by the standings job and the rebuild: decision 005).
 */
import { sql } from "drizzle-orm";
import { getDb } from "../../infrastructure/db.server.ts";
import type { EventVersions } from "../event-data/shared.server.ts";
import { DEFAULT_TIME_ZONE } from "../settings/zoned-time.ts";
import type { ChartSeries, ScoreChart } from "./chart.ts";
import { chartCutAtSql, chartLineEnd, chartLineEndSql, type ChartCut } from "./frozen-view.ts";
import { ownLineWhileFrozen } from "./frozen-values.server.ts";

/** A team's changes inside the window; far more than an event produces (one per judged score). */
const MAX_CHANGES_PER_TEAM = 1000;

const HOUR = 60 * 60 * 1000;

export interface ChartRequest {
  /** The teams to draw, in rank order (the board's top 10), with the totals the board shows them at. */
  teams: ReadonlyArray<{ id: number; name: string; totalScore?: number }>;
  /**
   * While frozen, a participant sees other teams as they stood at the freeze: their lines stop
   * there. Their own team's line stays live, its dynamic flag solves at their values as of the freeze
   * (docs/domain.md, "Freeze"; the cut is the frozen-board rule's, `chartCutFor` in ./frozen-view.ts, as code
   * and as SQL).
   */
  frozenFor: ChartCut | null;
  /**
   * The event data's versions this request read (app/modules/event-data/shared.server.ts); with them and a
   * board read from the snapshot (rememberChartBoard), the chart is read once per board instead of once per
   * request. Without: read from Postgres.
   */
  versions?: EventVersions | null;
}

interface Row extends Record<string, unknown> {
  time_zone: string | null;
  now_at: Date;
  cut_at: Date;
  from_at: Date;
  team_id: number | null;
  total_centi: number | null;
  at: Date | null;
}

/**
 * One statement, bounded by the teams and the time window, each team read through the
 * (team_id, at) index: its total just before the window (where its line starts) and its changes
 * inside it. The window opens at the first gate (or an hour before its end, if that is earlier) and
 * ends now, or at the freeze for the lines a frozen viewer may not see move.
 * Also returns the event's time zone for the axis labels.
 */
async function readChart(request: ChartRequest): Promise<ReadChart> {
  const ids = request.teams.map((team) => team.id);
  const cut = request.frozenFor;
  const rows = await getDb().execute<Row>(sql`
    with settings as (
      select s.time_zone, s.frozen_at from (select 1) as one left join event_settings s on s.id = 1
    ), win as (
      select settings.time_zone, now() as now_at,
        ${chartCutAtSql(cut, sql`settings.frozen_at`)} as cut_at
      from settings
    ), bounds as (
      select win.*, least(coalesce((select min(opens_at) from gates), win.cut_at), win.cut_at - interval '1 hour') as from_at
      from win
    )
    select bounds.time_zone, bounds.now_at, bounds.cut_at, bounds.from_at, h.team_id, h.total_centi, h.at
    from bounds
    left join lateral (
      select t.id as team_id, x.total_centi, x.at
      from unnest(${`{${ids.join(",")}}`}::int[]) as t(id)
      cross join lateral (
        (select total_centi, at from standings_history
          where team_id = t.id and at < bounds.from_at
          order by at desc limit 1)
        union all
        (select total_centi, at from standings_history
          where team_id = t.id and at >= bounds.from_at
            and at <= ${chartLineEndSql(cut, sql`t.id`, { cutAt: sql`bounds.cut_at`, nowAt: sql`bounds.now_at` })}
          order by at desc limit ${MAX_CHANGES_PER_TEAM})
      ) as x
    ) as h on true
  `);
  const first = rows[0];
  const nowAt = first ? new Date(first.now_at).getTime() : Date.now();
  const cutAt = first ? new Date(first.cut_at).getTime() : nowAt;
  const fromAt = first ? new Date(first.from_at).getTime() : nowAt - 60 * 60 * 1000;

  const pointsByTeam = new Map<number, Array<[number, number]>>();
  for (const row of rows) {
    if (row.team_id === null || row.at === null || row.total_centi === null) continue;
    const teamId = Number(row.team_id);
    const points = pointsByTeam.get(teamId) ?? [];
    points.push([new Date(row.at).getTime(), Number(row.total_centi) / 100]);
    pointsByTeam.set(teamId, points);
  }
  // A frozen viewer's own line: its dynamic flag solves at their values as of the freeze (./frozen-values.server.ts).
  const ownTeamId = cut?.ownTeamId ?? null;
  if (ownTeamId !== null && pointsByTeam.has(ownTeamId)) {
    pointsByTeam.set(ownTeamId, await ownLineWhileFrozen(getDb(), ownTeamId, cutAt, pointsByTeam.get(ownTeamId)!));
  }
  const lines = request.teams.map((team) => (pointsByTeam.get(team.id) ?? []).sort((a, b) => a[0] - b[0]));
  return { lines, fromAt, cutAt, nowAt, readAt: Date.now(), timeZone: first?.time_zone ?? DEFAULT_TIME_ZONE };
}

/** What one read of the chart found: each team's points (in the request's order) and its window. */
interface ReadChart {
  lines: ReadonlyArray<ReadonlyArray<[number, number]>>;
  fromAt: number;
  cutAt: number;
  /** Postgres's clock when read, and this process's at the same moment: a remembered read's "now" moves on from there. */
  nowAt: number;
  readAt: number;
  timeZone: string;
}

function chartOf(request: ChartRequest, read: ReadChart, nowAt: number): { chart: ScoreChart; timeZone: string } {
  const series: ChartSeries[] = request.teams.map((team, index) => ({
    teamId: team.id,
    name: team.name,
    // Shared by every request that reads this board's chart: nothing writes to it.
    points: read.lines[index] as Array<[number, number]>,
    until: chartLineEnd(request.frozenFor, team.id, { cutAt: read.cutAt, nowAt }),
  }));
  const until = Math.max(nowAt, read.fromAt + 1);
  return { chart: { from: read.fromAt, until, series }, timeZone: read.timeZone };
}

/**
 * The board each chart request's teams came from (the standings snapshot of one Redis version: a new
 * object with every change of the board), set by the scoreboard's read (scoreboard.server.ts).
 */
const boards = new WeakMap<object, object>();

/** Marks `teams` (an array handed to getScoreChart later) as read from `board`, a snapshot no write changes. */
export function rememberChartBoard(teams: readonly unknown[], board: object): void {
  boards.set(teams, board);
}

/** At most this many charts a board: one for live viewers, one per frozen viewer's own team among the chart's. */
const MAX_CHARTS_PER_BOARD = 64;

const remembered = new WeakMap<object, Map<string, { label: string; read: Promise<ReadChart> }>>();

/** The event tables the chart's window and labels depend on: the gates' opening, the freeze, the time zone. */
const CHART_TABLES = ["event_settings", "gates"] as const;

/**
 * The chart, read from Postgres once per board (and per version of the settings and gates) rather than
 * once per request: every participant of a live board sees the same lines (docs/performance-log.md).
 *
 * A read is remembered only when it is whole for its board: every team's newest point is the total the
 * board shows it at. A recompute moves the Redis board just before its transaction commits the team's
 * new point, so a read in between finds the board ahead of the history: it is shown but not kept, and
 * the next request reads again (requests that arrived during the read share it). A history row is
 * written only when a team's total changes, and every change moves the board (a new snapshot, so a new
 * entry here). A window whose start still slides with the clock (the first gate opened less than an
 * hour before the window's end) is never kept.
 */
export async function getScoreChart(request: ChartRequest): Promise<{ chart: ScoreChart; timeZone: string }> {
  const board = boards.get(request.teams);
  if (!board || !request.versions || request.teams.some((team) => team.totalScore === undefined)) {
    const read = await readChart(request);
    return chartOf(request, read, read.nowAt);
  }
  const ownTeamId = request.frozenFor?.ownTeamId ?? null;
  const key = `${request.frozenFor === null ? "live" : `frozen:${request.teams.some((team) => team.id === ownTeamId) ? ownTeamId : "-"}`}|${request.teams.map((team) => team.id).join(",")}`;
  const label = CHART_TABLES.map((table) => request.versions![table]).join(",");
  let charts = remembered.get(board);
  const hit = charts?.get(key);
  if (hit && hit.label === label) {
    // A shared read that failed is not this request's failure: it reads once on its own.
    const read = await hit.read.catch(() => readChart(request));
    return chartOf(request, read, read.nowAt + Math.max(0, Date.now() - read.readAt));
  }
  // Requests that arrive while the read runs share it; it stays only if it is whole and its window fixed.
  if (!charts) remembered.set(board, (charts = new Map()));
  if (!charts.has(key) && charts.size >= MAX_CHARTS_PER_BOARD) charts.delete(charts.keys().next().value as string);
  const entry = { label, read: readChart(request) };
  charts.set(key, entry);
  const forget = () => {
    if (charts.get(key) === entry) charts.delete(key);
  };
  let read: ReadChart;
  try {
    read = await entry.read;
  } catch (error) {
    forget();
    throw error;
  }
  const whole = request.teams.every((team, index) => Math.round((team.totalScore ?? 0) * 100) === Math.round((read.lines[index].at(-1)?.[1] ?? 0) * 100));
  // The window's start is fixed once the first gate opened an hour before its end, or by a freeze in the past.
  const steady = read.fromAt < read.cutAt - HOUR || (request.frozenFor !== null && read.cutAt < read.nowAt);
  if (!whole || !steady) forget();
  return chartOf(request, read, read.nowAt);
}
