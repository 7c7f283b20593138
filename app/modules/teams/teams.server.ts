/**
 * Teams: create, rename, delete. A team's name is unique without regard to case or look-alike
 * characters (app/modules/names/names.ts; the database's unique index on the name's key says so, and
 * its violation becomes a clear message). Every change marks the team's
 * standings stale in the same transaction, so the board picks up a new or renamed team.
 */
import { asc, count, eq, sql } from "drizzle-orm";
import { submissions, teams, users, awards } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
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

/** postgres.js reports a unique violation as code 23505; drizzle may wrap it as the cause. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error as { code?: string; constraint_name?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return constraint ? current.constraint_name === constraint : true;
  }
  return false;
}

export interface TeamRow {
  id: number;
  name: string;
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
      members: sql<number>`coalesce(${memberCounts.n}, 0)::int`,
      submissions: sql<number>`coalesce(${submissionCounts.n}, 0)::int`,
    })
    .from(teams)
    .leftJoin(memberCounts, eq(memberCounts.teamId, teams.id))
    .leftJoin(submissionCounts, eq(submissionCounts.teamId, teams.id))
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}

export async function getTeam(id: number) {
  const [team] = await getDb().select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, id));
  return team ?? null;
}

function nameTaken(error: unknown): never {
  if (NAME_CONSTRAINTS.teams.some((constraint) => isUniqueViolation(error, constraint))) throw new DashboardError(m.teamNameTaken, 409, "name");
  throw error;
}

export async function createTeam(actor: Actor, name: string) {
  const team = await getDb()
    .transaction(async (tx) => {
      const [row] = await tx.insert(teams).values(nameColumns(name)).returning({ id: teams.id, name: teams.name });
      // A new team appears on the board (with 0 points) once its standings are computed.
      await markStandingsStale(tx, row.id);
      await recordAudit(tx, actor, { kind: "team.created", teamId: row.id, subjectId: row.id, after: { name: row.name } });
      return row;
    })
    .catch(nameTaken);
  await requestStandingsRecompute(team.id);
  return team;
}

export async function renameTeam(actor: Actor, id: number, name: string) {
  const team = await getDb()
    .transaction(async (tx) => {
      const [before] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, id)).for("update");
      if (!before) throw new DashboardError(m.teamNotFound, 404);
      const [row] = await tx.update(teams).set(nameColumns(name)).where(eq(teams.id, id)).returning({ id: teams.id, name: teams.name });
      await markStandingsStale(tx, id);
      if (before.name !== row.name) await recordAudit(tx, actor, { kind: "team.renamed", teamId: id, subjectId: id, before, after: { name: row.name } });
      return row;
    })
    .catch(nameTaken);
  await requestStandingsRecompute(team.id);
  return team;
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
