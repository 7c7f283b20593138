/**
 * Reads the points-over-time chart from `standings_history` (one row per change of a team's total,
 * written by the standings job and the rebuild: decision 005).
 */
import { sql } from "drizzle-orm";
import { getDb } from "../../infrastructure/db.server.ts";
import { DEFAULT_TIME_ZONE } from "../settings/zoned-time.ts";
import type { ChartSeries, ScoreChart } from "./chart.ts";

/** A team's changes inside the window; far more than an event produces (one per judged score). */
const MAX_CHANGES_PER_TEAM = 1000;

export interface ChartRequest {
  /** The teams to draw, in rank order (the board's top 10). */
  teams: ReadonlyArray<{ id: number; name: string }>;
  /**
   * While frozen, a participant sees other teams as they stood at the freeze: their lines stop
   * there. Their own team's line stays live (docs/domain.md, "Freeze").
   */
  frozenFor: { ownTeamId: number | null } | null;
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
export async function getScoreChart(request: ChartRequest): Promise<{ chart: ScoreChart; timeZone: string }> {
  const ids = request.teams.map((team) => team.id);
  const frozenView = request.frozenFor !== null;
  const ownTeamId = request.frozenFor?.ownTeamId ?? 0;
  const rows = await getDb().execute<Row>(sql`
    with settings as (
      select s.time_zone, s.frozen_at from (select 1) as one left join event_settings s on s.id = 1
    ), win as (
      select settings.time_zone, now() as now_at,
        case when ${frozenView} then coalesce(settings.frozen_at, now()) else now() end as cut_at
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
            and at <= case when t.id = ${ownTeamId} then bounds.now_at else bounds.cut_at end
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
  const series: ChartSeries[] = request.teams.map((team) => ({
    teamId: team.id,
    name: team.name,
    points: (pointsByTeam.get(team.id) ?? []).sort((a, b) => a[0] - b[0]),
    until: frozenView && team.id !== ownTeamId ? cutAt : nowAt,
  }));
  const until = Math.max(nowAt, fromAt + 1);
  return { chart: { from: fromAt, until, series }, timeZone: first?.time_zone ?? DEFAULT_TIME_ZONE };
}
