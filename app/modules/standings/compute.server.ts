import { eq, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { prebuilt } from "../../../db/in-order.ts";
import { jsonDate, jsonObjectSql, parsedJson, scalarSubquery } from "../../../db/json.ts";
import type { Queryable } from "../../../db/client.ts";
import { categoryEnum, challenges, eventSettings, standings, teamAnswers, teamAwards, teams, users } from "../../../db/schema.ts";
import { awardTotalsOf, type AwardTotals, type CountedAward } from "../awards/rules.ts";
import { fromCenti, totalsOf, type ScoredSubmission, type Totals } from "../scoring/rules.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { frozenRankSql } from "./frozen-view.ts";
import { frozenSolvesOf, frozenSolvesSql, type FrozenSolve } from "./frozen-values.server.ts";
import { reachedAt } from "./ranking.ts";

/**
 * The columns every standings computation reads, joined once (no N+1). They come from `team_answers`
 * (db/schema.ts): judged submissions and flag solves alike, so both kinds of challenge count the same way.
 */
const scoredColumns = {
  teamId: teamAnswers.teamId,
  challengeId: teamAnswers.challengeId,
  userId: teamAnswers.userId,
  category: challenges.category,
  points: challenges.points,
  rejected: teamAnswers.rejected,
  scoreCenti: teamAnswers.scoreCenti,
  scoredAt: teamAnswers.scoredAt,
  flag: teamAnswers.flag,
};

export type ScoredRow = ScoredSubmission & { teamId: number; challengeId: number; userId: number | null };

export async function scoredSubmissionsOfTeam(tx: Queryable, teamId: number): Promise<ScoredRow[]> {
  return tx.select(scoredColumns).from(teamAnswers).innerJoin(challenges, eq(challenges.id, teamAnswers.challengeId)).where(eq(teamAnswers.teamId, teamId));
}

/**
 * The users whose statistics a recompute of each of these teams (SQL for an int[]) writes, as (team_id, user_id)
 * pairs: its members, and whoever is credited with one of its answers. `answers`: the teams' answers (team_id,
 * user_id) when the statement has read them already (recomputeReadsSql); else `team_answers` is read.
 */
const affectedPairsSql = (teamIds: SQLWrapper, answers?: SQL) => sql`
    select ${users.teamId} as team_id, ${users.id} as user_id from ${users} where ${users.teamId} = any(${teamIds})
    union
    ${answers ? sql`select answers.team_id, answers.user_id from ${answers} answers where answers.user_id is not null` : sql`select ${teamAnswers.teamId}, ${teamAnswers.userId} from ${teamAnswers} where ${teamAnswers.teamId} = any(${teamIds}) and ${teamAnswers.userId} is not null`}`;

/** The users whose statistics a recompute of the team writes (affectedPairsSql). */
export const affectedUserIds = (teamId: number | SQLWrapper) => sql`select affected.user_id from (${affectedPairsSql(sql`array[${teamId}]::int[]`)}) affected`;

/** The users whose statistics a recompute of these teams writes (affectedPairsSql, every team's together). */
export const affectedUserIdsOfTeams = (teamIds: SQLWrapper) => sql`select distinct affected.user_id from (${affectedPairsSql(sql`${teamIds}::int[]`)}) affected`;

export async function allScoredSubmissions(tx: Queryable): Promise<ScoredRow[]> {
  return tx.select(scoredColumns).from(teamAnswers).innerJoin(challenges, eq(challenges.id, teamAnswers.challengeId));
}

/**
 * The columns an award's count reads (revoked ones included: their revoke is a change of the total), from
 * `team_awards` (db/schema.ts): awards and what hint unlocks cost, counted alike.
 */
const awardColumns = {
  teamId: teamAwards.teamId,
  pointsCenti: teamAwards.pointsCenti,
  category: teamAwards.category,
  createdAt: teamAwards.createdAt,
  revokedAt: teamAwards.revokedAt,
};

export type AwardRow = CountedAward & { teamId: number };

export async function allAwards(tx: Queryable): Promise<AwardRow[]> {
  return tx.select(awardColumns).from(teamAwards);
}

export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * A team's standing: its submissions' points plus its awards' (team points: an award counts in the total and
 * in its category, never in a solved count), and when it reached that total (app/modules/standings/ranking.ts).
 */
export function teamStandingValues(totals: Totals, awarded: AwardTotals, createdAt: Date) {
  return {
    aiCenti: totals.categories.AI + awarded.categories.AI,
    csCenti: totals.categories.CS + awarded.categories.CS,
    psCenti: totals.categories.PS + awarded.categories.PS,
    gdCenti: totals.categories.GD + awarded.categories.GD,
    totalCenti: totals.totalCenti + awarded.totalCenti,
    solvedCount: totals.solvedCount,
    totalReachedAt: reachedAt({ lastScoreChange: totals.lastScoredAt, lastAwardChange: awarded.lastChangedAt, createdAt }),
  };
}

export function userStatisticsValues(totals: Totals) {
  // Every column named in one literal: properties added after a spread cost V8 a slow copy each (about 1 µs), and a
  // right answer's recompute makes this for each of its team's users.
  return {
    aiCenti: totals.categories.AI,
    csCenti: totals.categories.CS,
    psCenti: totals.categories.PS,
    gdCenti: totals.categories.GD,
    totalCenti: totals.totalCenti,
    aiSolved: totals.solvedByCategory.AI,
    csSolved: totals.solvedByCategory.CS,
    psSolved: totals.solvedByCategory.PS,
    gdSolved: totals.solvedByCategory.GD,
  };
}

export function toTeamStanding(
  team: { id: number; name: string; division: string | null },
  row: ReturnType<typeof teamStandingValues> & { rank: number },
  version: number,
): TeamStanding {
  return {
    id: team.id,
    version,
    name: team.name,
    totalScore: fromCenti(row.totalCenti),
    categories: { AI: fromCenti(row.aiCenti), CS: fromCenti(row.csCenti), PS: fromCenti(row.psCenti), GD: fromCenti(row.gdCenti) },
    solvedCount: row.solvedCount,
    rank: row.rank,
    reachedAt: row.totalReachedAt.toISOString(),
    division: team.division,
  };
}

export { awardTotalsOf, totalsOf };

/**
 * When a change of a team's total shows on its chart (its history row): when it reached the total, unless
 * that did not move (another team's solve lowered a dynamic challenge's value: the team reached nothing, its
 * points fell now).
 */
export function historyPointAt(previousReachedAt: Date | null | undefined, reachedAt: Date, now: Date): Date {
  return previousReachedAt && previousReachedAt.getTime() === reachedAt.getTime() ? now : reachedAt;
}

/** `scoredColumns`' names in one order: the order of a scored row's values in its array. */
const scoredNames = Object.keys(scoredColumns) as Array<keyof typeof scoredColumns>;

type Codec<T> = { encode: (column: SQLWrapper) => SQL; decode: (value: number | null) => T };
const asIs: Codec<number | null> = { encode: (column) => sql`${column}`, decode: (value) => value };
const asFlag: Codec<boolean> = { encode: (column) => sql`${column}::int`, decode: (value) => value === 1 };
const categoryNames = categoryEnum.enumValues;
/**
 * How each column of a scored row is a whole number in its array, and back: a category by its place among the enum's
 * values, a boolean as 0 or 1, a time as epoch milliseconds (cut to the millisecond, as drizzle maps a timestamp),
 * null as null.
 */
const scoredCodecs: { [K in keyof typeof scoredColumns]: Codec<ScoredRow[K]> } = {
  teamId: asIs as Codec<number>,
  challengeId: asIs as Codec<number>,
  userId: asIs,
  category: {
    encode: (column) => sql`case ${column} ${sql.raw(categoryNames.map((name, index) => `when '${name}' then ${index}`).join(" "))} end`,
    decode: (value) => categoryNames[value!],
  },
  points: asIs as Codec<number>,
  rejected: asFlag,
  scoreCenti: asIs,
  scoredAt: {
    encode: (column) => sql`(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)::int8`,
    decode: (value) => (value === null ? null : new Date(value)),
  },
  flag: asFlag,
};
/**
 * A scored row as an array of its values as whole numbers (scoredCodecs) in `scoredNames`' order, made of
 * `column(name)`. A batch's reads make one for each answer of each of its teams, so the right answer's recompute,
 * whose reads grow with its team's answers, costs what they cost. Not an object with its keys
 * (json_build_object), nor an array of the values as they are (json_build_array, 1.7 µs a row on an AMD EPYC: it
 * looks up how to write each value's type, for every value): one array of one type (bigint) is written as JSON by one
 * rule (the reads 0.7 µs a row cheaper), and is read back without parsing a date (decision 049, amended 1 Dec).
 */
const scoredArrayOf = (column: (name: keyof typeof scoredColumns) => SQLWrapper) =>
  sql`array[${sql.join(
    scoredNames.map((name) => scoredCodecs[name].encode(column(name))),
    sql`, `,
  )}]::int8[]`;
const scoredArray = scoredArrayOf((name) => scoredColumns[name]);
/** A scored row from its array (scoredArrayOf). */
function scoredOf(values: Array<number | null>): ScoredRow {
  const row: Record<string, unknown> = {};
  for (let index = 0; index < scoredNames.length; index++) row[scoredNames[index]] = scoredCodecs[scoredNames[index]].decode(values[index]);
  return row as unknown as ScoredRow;
}
/** A JSON array of `element` over the rows of `from` (a FROM and its WHERE), as a column: '[]' for none. */
const jsonList = (element: SQL, from: SQL) => scalarSubquery(sql`select coalesce(json_agg(${element}), '[]'::json) ${from}`);

/**
 * Everything the recompute of each team of `base` reads, in one statement (one snapshot, one round trip, a row a
 * team, in team id order): the team, its scored submissions and its awards, the users whose statistics it writes
 * (affectedPairsSql) and what they are credited with on other teams (on this one, it is among the team's rows:
 * recomputeReadsOf adds it), the team's standings row as it stands (its total and what clients were last shown),
 * the board's freeze with the team's frozen rank and, while frozen, its dynamic flag solves as of the freeze
 * (./frozen-values.server.ts), and a new standings version (app/modules/standings/outbox.server.ts), drawn in team
 * id order (the ordered select under the one that draws them has `offset 0`, so the two are not merged; Postgres
 * draws a volatile column's values after the sort).
 * `base`: a relation with a `team_id` column (and any others, returned first as they are): one team, or a batch's.
 * The answers of every team of the batch are read together, once, by `team_id = any(array(...))` (an init plan, so
 * an index scan on each table under `team_answers` whatever the statistics say), then grouped by team; the users'
 * answers on teams outside the batch likewise, once for all the batch's users (those on the batch's teams are among
 * the batch's answers). The frozen rank is picked out in Postgres, by
 * the frozen-board rule's SQL (`frozenRankSql` in ./frozen-view.ts).
 */
export function recomputeReadsSql(base: SQL): SQL {
  const teamIds = sql`array(select team_id from base)`;
  const scoredFrom = sql`from ${teamAnswers} inner join ${challenges} on ${challenges.id} = ${teamAnswers.challengeId}`;
  // The users' answers on other teams: those on the batch's teams are among `answers` already (every team's own users
  // answer on it, so reading the users' answers afresh read most of the batch's answers twice); `elsewhere` reads
  // only those on teams outside the batch.
  return sql`with base as materialized (${base}),
    answers as materialized (select ${teamAnswers.teamId} as team_id, ${teamAnswers.userId} as user_id, ${scoredArray} as row ${scoredFrom} where ${teamAnswers.teamId} = any(${teamIds})),
    affected as materialized (${affectedPairsSql(teamIds, sql`answers`)}),
    elsewhere as materialized (select ${teamAnswers.teamId} as team_id, ${teamAnswers.userId} as user_id, ${scoredArray} as row ${scoredFrom}
      where ${teamAnswers.userId} = any(array(select distinct affected.user_id from affected)) and ${teamAnswers.teamId} <> all(${teamIds})),
    credited as (select team_id, user_id, row from answers union all select team_id, user_id, row from elsewhere),
    team_rows as (select answers.team_id, json_agg(answers.row) as rows from answers group by answers.team_id),
    user_ids as (select affected.team_id, json_agg(affected.user_id) as ids from affected group by affected.team_id),
    user_rows as (select affected.team_id, json_agg(credited.row) as rows from affected
      join credited on credited.user_id = affected.user_id and credited.team_id <> affected.team_id group by affected.team_id)
    select reads.*, nextval('standings_outbox_version_seq') as version from (select base.*,
      ${scalarSubquery(sql`select ${jsonObjectSql({ id: teams.id, name: teams.name, division: teams.division, createdAt: teams.createdAt })} from ${teams} where ${teams.id} = base.team_id`)} as team,
      coalesce(team_rows.rows, '[]'::json) as team_rows,
      ${jsonList(jsonObjectSql(awardColumns), sql`from ${teamAwards} where ${teamAwards.teamId} = base.team_id`)} as awards,
      coalesce(user_ids.ids, '[]'::json) as user_ids,
      coalesce(user_rows.rows, '[]'::json) as user_rows,
      ${scalarSubquery(sql`select ${jsonObjectSql({ totalCenti: standings.totalCenti, reachedAt: standings.totalReachedAt, shown: standings.shown })} from ${standings} where ${standings.teamId} = base.team_id`)} as previous,
      ${scalarSubquery(sql`select ${eventSettings.scoreboardFrozen} from ${eventSettings} where ${eventSettings.id} = 1`)} as frozen,
      ${scalarSubquery(sql`select ${frozenRankSql({ frozen: eventSettings.scoreboardFrozen, frozenBoard: eventSettings.frozenBoard }, sql`base.team_id`)} from ${eventSettings} where ${eventSettings.id} = 1`)} as frozen_rank,
      ${frozenSolvesSql(sql`base.team_id`)} as frozen_solves
    from base left join team_rows using (team_id) left join user_ids using (team_id) left join user_rows using (team_id)
    order by base.team_id offset 0) reads order by reads.team_id`;
}

/** recomputeReadsSql of one team, built once. */
export const recomputeReads = prebuilt(["teamId"], ({ teamId }) => recomputeReadsSql(sql`select ${teamId}::int as team_id`));

export interface RecomputeReads {
  team: { id: number; name: string; division: string | null; createdAt: Date } | null;
  teamRows: ScoredRow[];
  teamAwards: AwardRow[];
  userIds: number[];
  userRows: ScoredRow[];
  previous: { totalCenti: number; reachedAt: Date; shown: string | null } | null;
  freeze: { frozen: boolean; frozenRank: number | null };
  /** While frozen: the team's solves of dynamic flag challenges, with their value as of the freeze's makings. */
  frozenSolves: FrozenSolve[];
  version: number;
}

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** The row of recomputeReadsSql, mapped: timestamps as drizzle maps them (to the millisecond). */
export function recomputeReadsOf(row: Record<string, unknown>): RecomputeReads {
  const team = parsedJson(row.team) as Json<NonNullable<RecomputeReads["team"]>> | null;
  const previousJson = parsedJson(row.previous) as Json<NonNullable<RecomputeReads["previous"]>> | null;
  const previous = previousJson && { ...previousJson, reachedAt: jsonDate(previousJson.reachedAt) };
  const teamRows = (parsedJson(row.team_rows) as Array<Array<number | null>>).map(scoredOf);
  const userIdList = (parsedJson(row.user_ids) as number[]).map(Number);
  const userIds = new Set(userIdList);
  return {
    team: team && { ...team, createdAt: jsonDate(team.createdAt) },
    teamRows,
    teamAwards: (parsedJson(row.awards) as Json<AwardRow>[]).map((award) => ({
      ...award,
      createdAt: jsonDate(award.createdAt),
      revokedAt: award.revokedAt === null ? null : jsonDate(award.revokedAt),
    })),
    userIds: userIdList,
    // The users' answers on this team are among its own rows: read once (team_rows), the others' teams' apart.
    userRows: [...teamRows.filter((scored) => scored.userId !== null && userIds.has(scored.userId)), ...(parsedJson(row.user_rows) as Array<Array<number | null>>).map(scoredOf)],
    previous,
    freeze: { frozen: row.frozen === true, frozenRank: row.frozen_rank === null || row.frozen_rank === undefined ? null : Number(row.frozen_rank) },
    frozenSolves: frozenSolvesOf(row.frozen_solves),
    version: Number(row.version),
  };
}
