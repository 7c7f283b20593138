/**
 * A team's own points while the board is frozen (docs/domain.md "Freeze"): its members see its answers, awards
 * and unlocks live, as always, but a dynamic flag challenge's solve counts at the challenge's value as of the
 * freeze (its solves up to the freeze instant: the value the challenge's card shows them, app/modules/flags/
 * figures.server.ts), their own solves made since included at that value. Other teams' solves after the freeze
 * move nothing they see (CTFd's frozen scores still fall with decay; ours do not).
 *
 * Read in Postgres as each solve's curve and its challenge's solves up to the freeze; the value is computed by
 * the one rule in TypeScript (app/modules/flags/decay.ts), never a third copy of it in SQL. The standings job
 * keeps each team's own points beside its live standing (the snapshot's `own`, app/modules/standings/
 * snapshot.server.ts) while they differ; the chart's own line and the team's scores in the API read them here.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { jsonObjectSql, parsedJson } from "../../../db/json.ts";
import type { Queryable } from "../../../db/client.ts";
import { challenges, eventSettings, flagSolves } from "../../../db/schema.ts";
import { challengeValue } from "../flags/decay.ts";
import type { ScoredSubmission } from "../scoring/rules.ts";
import type { OwnPoints } from "./frozen-view.ts";

/** A team's solve of a dynamic flag challenge while the board is frozen: what its value as of the freeze is made of. */
export interface FrozenSolve {
  teamId: number;
  challengeId: number;
  points: number;
  minimumPoints: number;
  decay: number;
  /** The challenge's solves up to the freeze instant (every team's). */
  solvesAtFreeze: number;
}

/** A FrozenSolve with when it was made and when the challenge's later solves were (the chart's own line). */
export interface FrozenSolveTimeline extends FrozenSolve {
  solvedAt: number;
  /** The instants (whole ms, as the chart's points) of the challenge's solves after the freeze, every team's, in order. */
  laterSolves: number[];
}

/**
 * As one JSON column (a list of FrozenSolve; `[]` while the board is live), the solves of dynamic flag
 * challenges by the team `teamId` (SQL for its id; null: every team), each with its challenge's curve and
 * solves up to the freeze. The count is an index range on flag_solves (challenge, solved_at).
 * While the board is live the list is not looked for: the freeze is read once for the statement (an uncorrelated
 * EXISTS, an init plan), and the team's solves and the challenges are read only while frozen. A recompute's reads
 * have this column for each team of a batch, and looking for the team's dynamic solves first made the planner scan
 * every challenge once a team (docs/PERFORMANCE.md, "Flag answers").
 */
export function frozenSolvesSql(teamId: SQLWrapper | null, { timeline = false } = {}): SQL {
  const solve = jsonObjectSql({
    teamId: sql`own.team_id`,
    challengeId: sql`own.challenge_id`,
    points: sql`curve.points`,
    minimumPoints: sql`curve.minimum_points`,
    decay: sql`curve.decay`,
    solvesAtFreeze: sql`(select count(*)::int from ${flagSolves} upto where upto.challenge_id = own.challenge_id and upto.solved_at <= settings.frozen_at)`,
    ...(timeline
      ? {
          solvedAt: sql`floor(extract(epoch from own.solved_at) * 1000)::float8`,
          laterSolves: sql`(select coalesce(json_agg(floor(extract(epoch from later.solved_at) * 1000)::float8 order by later.solved_at), '[]'::json)
            from ${flagSolves} later where later.challenge_id = own.challenge_id and later.solved_at > settings.frozen_at)`,
        }
      : {}),
  });
  return sql`(select case when exists (select 1 from ${eventSettings} gate where gate.id = 1 and gate.scoreboard_frozen and gate.frozen_at is not null)
    then (select coalesce(json_agg(${solve}), '[]'::json)
    from ${flagSolves} own inner join ${challenges} curve on curve.id = own.challenge_id
    inner join ${eventSettings} settings on settings.id = 1
    where settings.scoreboard_frozen and settings.frozen_at is not null and curve.scoring = 'dynamic'
      and curve.minimum_points is not null and curve.decay is not null
      ${teamId === null ? sql`` : sql`and own.team_id = ${teamId}`}) else '[]'::json end)`;
}

/** The column of frozenSolvesSql, read. */
export function frozenSolvesOf(column: unknown): FrozenSolve[] {
  return ((parsedJson(column) as FrozenSolve[] | null) ?? []).map((solve) => ({
    teamId: Number(solve.teamId),
    challengeId: Number(solve.challengeId),
    points: Number(solve.points),
    minimumPoints: Number(solve.minimumPoints),
    decay: Number(solve.decay),
    solvesAtFreeze: Number(solve.solvesAtFreeze),
  }));
}

/** These solves' values as of the freeze, in hundredths, by challenge (one team's solves). */
export function frozenCentiByChallenge(solves: readonly FrozenSolve[]): Map<number, number> {
  return new Map(solves.map((solve) => [solve.challengeId, challengeValue({ ...solve, scoring: "dynamic" }, solve.solvesAtFreeze) * 100]));
}

/** A team's scored rows with each dynamic flag solve counted at its value as of the freeze (the others as they are). */
export function atFreezeValues<Row extends ScoredSubmission & { challengeId: number }>(rows: readonly Row[], frozenCenti: ReadonlyMap<number, number>): Row[] {
  if (frozenCenti.size === 0) return [...rows];
  return rows.map((row) => {
    const centi = row.flag ? frozenCenti.get(row.challengeId) : undefined;
    return centi === undefined ? row : { ...row, scoreCenti: centi };
  });
}

/** The points columns of a team's standing (app/modules/standings/compute.server.ts `teamStandingValues`). */
interface PointColumns {
  aiCenti: number;
  csCenti: number;
  psCenti: number;
  gdCenti: number;
  totalCenti: number;
}

/** The team's own points as its members see them while frozen, when they differ from its live ones (null: the same). */
export function ownPointsOf(own: PointColumns, live: PointColumns): OwnPoints | null {
  if (own.aiCenti === live.aiCenti && own.csCenti === live.csCenti && own.psCenti === live.psCenti && own.gdCenti === live.gdCenti && own.totalCenti === live.totalCenti) return null;
  return { totalScore: own.totalCenti / 100, categories: { AI: own.aiCenti / 100, CS: own.csCenti / 100, PS: own.psCenti / 100, GD: own.gdCenti / 100 } };
}

/** One team's solves of dynamic flag challenges as of the freeze (empty while the board is live), read on their own. */
export async function frozenCentiOfTeam(db: Queryable, teamId: number): Promise<Map<number, number>> {
  const [row] = await db.execute<{ solves: unknown }>(sql`select ${frozenSolvesSql(sql`${teamId}::int`)} as solves`);
  return frozenCentiByChallenge(frozenSolvesOf(row?.solves));
}

/**
 * The team's own line on the chart while frozen (docs/domain.md "Freeze"): each of its points after the freeze
 * `frozenAt` (ms) with its dynamic flag solves made by then counted at their values as of the freeze instead of
 * their values then, so no other team's solve after the freeze shows as a fall. `points`: [instant ms, total].
 */
export async function ownLineWhileFrozen(db: Queryable, teamId: number, frozenAt: number, points: ReadonlyArray<[number, number]>): Promise<Array<[number, number]>> {
  if (!points.some(([at]) => at > frozenAt)) return [...points];
  const [row] = await db.execute<{ solves: unknown }>(sql`select ${frozenSolvesSql(sql`${teamId}::int`, { timeline: true })} as solves`);
  const solves = ((parsedJson(row?.solves) as FrozenSolveTimeline[] | null) ?? []).map((solve) => ({
    ...frozenSolvesOf([solve])[0],
    solvedAt: Number(solve.solvedAt),
    laterSolves: solve.laterSolves.map(Number),
  }));
  if (solves.length === 0) return [...points];
  return points.map(([at, total]) => {
    if (at <= frozenAt) return [at, total];
    let fall = 0;
    for (const solve of solves) {
      if (solve.solvedAt > at) continue;
      const curve = { ...solve, scoring: "dynamic" as const };
      const solvesThen = solve.solvesAtFreeze + solve.laterSolves.filter((later) => later <= at).length;
      fall += challengeValue(curve, solve.solvesAtFreeze) - challengeValue(curve, solvesThen);
    }
    return [at, total + fall];
  });
}
