/**
 * Teams: create, rename, move to a division, delete. A team's name is unique without regard to case or look-alike
 * characters (app/modules/names/names.ts; the database's unique index on the name's key says so, and
 * its violation becomes a clear message). Every change marks the team's
 * standings stale in the same transaction, so the board picks up a new or renamed team.
 */
import { asc, count, eq, sql } from "drizzle-orm";
import { awards, flagAttempts, hintUnlocks, submissions, teams, users } from "../../../db/schema.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { divisionOnList } from "../divisions/divisions.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { NAME_CONSTRAINTS, nameColumns } from "../names/names.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { fromCenti } from "../scoring/rules.ts";
import { removeTeamFromStandings } from "../standings/recompute.server.ts";

const m = messages.dashboard;

/** A refused change, with the message the admin sees (after the warning sign). */
export class DashboardError extends DomainError {
  constructor(message: string, status = 400, field?: string) {
    super(message, { status, field });
  }
}

export interface TeamRow {
  id: number;
  name: string;
  division: string | null;
  members: number;
  submissions: number;
}

export async function listTeams(): Promise<TeamRow[]> {
  const db = getDb();
  const memberCounts = db.select({ teamId: users.teamId, n: count().as("members") }).from(users).groupBy(users.teamId).as("member_counts");
  const submissionCounts = db
    .select({ teamId: submissions.teamId, n: count().as("submission_count") })
    .from(submissions)
    .groupBy(submissions.teamId)
    .as("submission_counts");
  return db
    .select({
      id: teams.id,
      name: teams.name,
      division: teams.division,
      members: sql<number>`coalesce(${memberCounts.n}, 0)::int`,
      submissions: sql<number>`coalesce(${submissionCounts.n}, 0)::int`,
    })
    .from(teams)
    .leftJoin(memberCounts, eq(memberCounts.teamId, teams.id))
    .leftJoin(submissionCounts, eq(submissionCounts.teamId, teams.id))
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}

export async function getTeam(id: number) {
  const [team] = await getDb().select({ id: teams.id, name: teams.name, division: teams.division }).from(teams).where(eq(teams.id, id));
  return team ?? null;
}

function nameTaken(error: unknown): never {
  if (NAME_CONSTRAINTS.teams.some((constraint) => isUniqueViolation(error, constraint))) throw new DashboardError(m.teamNameTaken, 409, "name");
  throw error;
}

const savedColumns = { id: teams.id, name: teams.name, division: teams.division };

/** A new team, in a division of the event's list or none (app/modules/divisions/divisions.server.ts checks it). */
export async function createTeam(actor: Actor, name: string, division: string | null = null) {
  const team = await getDb()
    .transaction(async (tx) => {
      const onList = await divisionOnList(tx, division);
      const [row] = await tx.insert(teams).values({ ...nameColumns(name), division: onList }).returning(savedColumns);
      // A new team appears on the board (with 0 points) once its standings are computed.
      await markStandingsStale(tx, row.id);
      await recordAudit(tx, actor, { kind: "team.created", teamId: row.id, subjectId: row.id, after: { name: row.name, ...(row.division ? { division: row.division } : {}) } });
      return row;
    })
    .catch(nameTaken);
  await requestStandingsRecompute(team.id);
  return team;
}

/**
 * Renames a team and/or moves it to another division (null: none), in one transaction; what is left out is
 * kept. Each change leaves its own record (`team.renamed`, `team.division`); a save that changes nothing
 * leaves none. The team's standing is recomputed, so every board (overall and division) follows live.
 */
export async function updateTeam(actor: Actor, id: number, changes: { name?: string; division?: string | null }) {
  const team = await getDb()
    .transaction(async (tx) => {
      const [before] = await tx.select({ name: teams.name, division: teams.division }).from(teams).where(eq(teams.id, id)).for("update");
      if (!before) throw new DashboardError(m.teamNotFound, 404);
      const division = changes.division === undefined ? before.division : await divisionOnList(tx, changes.division);
      const [row] = await tx
        .update(teams)
        .set({ ...(changes.name === undefined ? {} : nameColumns(changes.name)), division })
        .where(eq(teams.id, id))
        .returning(savedColumns);
      await markStandingsStale(tx, id);
      if (before.name !== row.name) await recordAudit(tx, actor, { kind: "team.renamed", teamId: id, subjectId: id, before: { name: before.name }, after: { name: row.name } });
      if (before.division !== row.division) {
        await recordAudit(tx, actor, { kind: "team.division", teamId: id, subjectId: id, before: { division: before.division }, after: { division: row.division } });
      }
      return row;
    })
    .catch(nameTaken);
  await requestStandingsRecompute(team.id);
  return team;
}

export async function renameTeam(actor: Actor, id: number, name: string) {
  return updateTeam(actor, id, { name });
}

/** Puts the team in a division of the event's list, or in none (null: the overall board only). */
export async function setTeamDivision(actor: Actor, id: number, division: string | null) {
  return updateTeam(actor, id, { division });
}

/**
 * Refused while the team has submissions (its history and points) or members (they would be left
 * without a team: move them first). Otherwise it leaves the board in the same transaction.
 */
export async function deleteTeam(actor: Actor, id: number) {
  await getDb().transaction(async (tx) => {
    const [team] = await tx.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, id)).for("update");
    if (!team) throw new DashboardError(m.teamNotFound, 404);
    const [[subs], [members]] = await Promise.all([
      tx.select({ n: count() }).from(submissions).where(eq(submissions.teamId, id)),
      tx.select({ n: count() }).from(users).where(eq(users.teamId, id)),
    ]);
    if (subs.n > 0) throw new DashboardError(m.teamHasSubmissions, 409);
    // Its flag answers and paid hints are part of other teams' standings (a dynamic challenge's value counts
    // every solve) and of the event's story, as submissions are.
    const [answered] = await tx.execute<{ answered: boolean }>(sql`select exists (select 1 from ${flagAttempts} where ${flagAttempts.teamId} = ${id})
      or exists (select 1 from ${hintUnlocks} where ${hintUnlocks.teamId} = ${id}) as answered`);
    if (answered?.answered) throw new DashboardError(m.teamHasAnswers, 409);
    if (members.n > 0) throw new DashboardError(m.teamHasMembers(members.n), 409);
    // Its awards go with it (cascade): the record keeps them.
    const gone = await tx.select({ id: awards.id, pointsCenti: awards.pointsCenti, category: awards.category, reason: awards.reason, revokedAt: awards.revokedAt }).from(awards).where(eq(awards.teamId, id));
    await removeTeamFromStandings(tx, id);
    await tx.delete(teams).where(eq(teams.id, id));
    await recordAudit(tx, actor, {
      kind: "team.deleted",
      teamId: id,
      subjectId: id,
      before: { name: team.name, ...(gone.length ? { awards: gone.map((award) => ({ id: award.id, points: fromCenti(award.pointsCenti), category: award.category, reason: award.reason, revoked: award.revokedAt !== null })) } : {}) },
    });
  });
}
