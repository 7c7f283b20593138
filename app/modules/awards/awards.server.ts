/**
 * Manual awards (docs/domain.md "Scoring and standings", Awards): an admin gives a team points, positive or
 * negative, with a reason and optionally a category, or revokes an award given earlier (the row stays,
 * marked revoked, and counts 0). Each change is one transaction that writes the award, marks the team's
 * standings stale and writes the audit record; the standings job is asked for after commit, as for a
 * judge's score (decision 005), so the board, the chart and the live update follow the same path.
 */
import { and, desc, eq, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { jsonDate, jsonObjectSql, oneRow, parsedJson, scalarSubquery } from "../../../db/json.ts";
import type { Queryable } from "../../../db/client.ts";
import { awards, teams, users, type Category } from "../../../db/schema.ts";
import { getDb, preparedOnce } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { fromCenti } from "../scoring/rules.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { AwardFormSchema, awardPointsCenti, type AwardInput } from "./schema.ts";

const m = messages.awards;

/** A refused award: bad input (400, on its field), an unknown team or award (404), a second revoke (409). */
export class AwardError extends DomainError {
  constructor(message: string, status = 400, field?: string) {
    super(message, { status, field });
  }
}

export interface Award {
  id: number;
  teamId: number;
  teamName: string;
  /** Points, with up to 2 decimals; negative for a penalty. */
  points: number;
  category: Category | null;
  reason: string;
  givenBy: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** Gives a team an award (the actor is the admin, or the system). */
export async function giveAward(actor: Actor, input: AwardInput) {
  const award = await getDb().transaction((tx) => giveAwardIn(tx, actor, input));
  await requestStandingsRecompute(award.teamId);
  return award;
}

/**
 * Gives an award inside the caller's transaction (an integrity signal confirmed into a penalty writes both
 * together, app/modules/integrity/signals.server.ts); the caller asks for the standings job after commit.
 */
export async function giveAwardIn(tx: Queryable, actor: Actor, input: AwardInput) {
  const parsed = AwardFormSchema.safeParse({ ...input, category: input.category ?? undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AwardError(issue.message, 400, issue.path[0] === undefined ? undefined : String(issue.path[0]));
  }
  const { teamId, points, category, reason } = parsed.data;
  const pointsCenti = awardPointsCenti(points);
  // A key-share lock: the team cannot be deleted under the award (a rename may go on).
  const [team] = await tx.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, teamId)).for("key share");
  if (!team) throw new AwardError(m.teamNotFound, 404, "teamId");
  const [row] = await tx
    .insert(awards)
    // The web process's clock, as a judge's score time (scoring.server.ts): the tie-break compares the two.
    .values({ teamId, pointsCenti, category: category ?? null, reason, givenBy: actor.id, createdAt: new Date() })
    .returning({ id: awards.id, teamId: awards.teamId, createdAt: awards.createdAt });
  await Promise.all([
    markStandingsStale(tx, teamId),
    recordAudit(tx, actor, {
      kind: "award.given",
      teamId,
      subjectId: row.id,
      after: { team: team.name, points: fromCenti(pointsCenti), category: category ?? null, reason },
    }),
  ]);
  return row;
}

/** Revokes an award: it stays listed, marked revoked, and counts 0 from now on. A second revoke is refused (409). */
export async function revokeAward(actor: Actor, awardId: number) {
  const award = await getDb().transaction(async (tx) => {
    // Row lock: two admins revoking at once are served one after the other; the second is told.
    const [row] = await tx
      .select({ id: awards.id, teamId: awards.teamId, teamName: teams.name, pointsCenti: awards.pointsCenti, category: awards.category, reason: awards.reason, revokedAt: awards.revokedAt })
      .from(awards)
      .innerJoin(teams, eq(teams.id, awards.teamId))
      .where(eq(awards.id, awardId))
      .for("update", { of: awards });
    if (!row) throw new AwardError(m.notFound, 404);
    if (row.revokedAt) throw new AwardError(m.alreadyRevoked, 409);
    // The web process's clock, as a judge's score time and the award's own created_at (the tie-break compares them).
    const [revoked] = await tx
      .update(awards)
      .set({ revokedAt: new Date(), revokedBy: actor.id })
      .where(and(eq(awards.id, row.id), isNull(awards.revokedAt)))
      .returning({ revokedAt: awards.revokedAt });
    const shown = { team: row.teamName, points: fromCenti(row.pointsCenti), category: row.category, reason: row.reason };
    await Promise.all([
      markStandingsStale(tx, row.teamId),
      recordAudit(tx, actor, {
        kind: "award.revoked",
        teamId: row.teamId,
        subjectId: row.id,
        before: { ...shown, revokedAt: null },
        after: { ...shown, revokedAt: revoked.revokedAt },
      }),
    ]);
    return { id: row.id, teamId: row.teamId, revokedAt: revoked.revokedAt! };
  });
  await requestStandingsRecompute(award.teamId);
  return award;
}

const giver = alias(users, "giver");
const revoker = alias(users, "revoker");

/** Every award, newest first, revoked ones included (the admin page). */
export async function listAwards(): Promise<Award[]> {
  const rows = await getDb()
    .select({
      id: awards.id,
      teamId: awards.teamId,
      teamName: teams.name,
      pointsCenti: awards.pointsCenti,
      category: awards.category,
      reason: awards.reason,
      givenBy: giver.name,
      createdAt: awards.createdAt,
      revokedAt: awards.revokedAt,
      revokedBy: revoker.name,
    })
    .from(awards)
    .innerJoin(teams, eq(teams.id, awards.teamId))
    .leftJoin(giver, eq(giver.id, awards.givenBy))
    .leftJoin(revoker, eq(revoker.id, awards.revokedBy))
    .orderBy(desc(awards.createdAt), desc(awards.id));
  return rows.map(({ pointsCenti, ...row }) => ({ ...row, points: fromCenti(pointsCenti) }));
}

export interface TeamAward {
  id: number;
  points: number;
  category: Category | null;
  reason: string;
  createdAt: Date;
}

/**
 * A team's awards that count (not revoked), newest first: what its members see on /status. As one JSON
 * column (a scalar subquery), so /status reads it with the viewer's badges
 * (app/modules/participant/badges.server.ts); `teamAwards` reads the same alone.
 */
export function teamAwardsSql(teamId: Placeholder): SQL {
  const row = jsonObjectSql({ id: awards.id, pointsCenti: awards.pointsCenti, category: awards.category, reason: awards.reason, createdAt: awards.createdAt });
  return scalarSubquery(sql`select coalesce(json_agg(${row} order by ${awards.createdAt} desc, ${awards.id} desc), '[]'::json)
    from ${awards} where ${awards.teamId} = ${teamId} and ${awards.revokedAt} is null`);
}

export function parseTeamAwards(column: unknown): TeamAward[] {
  const rows = (parsedJson(column) as (Omit<TeamAward, "points" | "createdAt"> & { pointsCenti: number; createdAt: string })[] | null) ?? [];
  return rows.map(({ pointsCenti, createdAt, ...row }) => ({ ...row, points: fromCenti(pointsCenti), createdAt: jsonDate(createdAt) }));
}

const teamAwardsStatement = preparedOnce((db) => db.select({ rows: teamAwardsSql(sql.placeholder("teamId")) }).from(oneRow()).prepare("team_awards"));

export async function teamAwards(teamId: number): Promise<TeamAward[]> {
  const [row] = await teamAwardsStatement().execute({ teamId });
  return parseTeamAwards(row?.rows);
}
