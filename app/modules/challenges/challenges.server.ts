/**
 * Challenges: create, edit, delete, activate/deactivate. A challenge with submissions cannot be
 * deleted (its scores are part of the standings). A replaced or removed attachment is deleted from
 * storage after commit, by the storage-cleanup worker.
 */
import { asc, count, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { challengeCriteria, challenges, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { deleteObject } from "../../infrastructure/s3.server.ts";
import { messages } from "../messages.ts";
import type { RubricLine } from "../scoring/rubric.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { DashboardError } from "../teams/teams.server.ts";
import type { ChallengeFormValues } from "./schema.ts";

const m = messages.dashboard;

/** A challenge as the form, the API or an import gives it; `rubric` only from the form (undefined: left as it is). */
export type ChallengeInput = Omit<ChallengeFormValues, "id" | "removeAttachment" | "rubric"> & { rubric?: RubricLine[] };

/** Deletes an object nothing points at any more: by the worker, or at once if Redis is down. */
export async function cleanupObject(key: string) {
  try {
    await enqueue("storageCleanup", { key });
  } catch (error) {
    getLogger().warn({ err: error, key }, "storage cleanup not enqueued; deleting now");
    await deleteObject(key).catch((err: unknown) => getLogger().error({ err, key }, "orphaned object left in storage"));
  }
}

export async function listChallenges() {
  const db = getDb();
  const counts = db.select({ challengeId: submissions.challengeId, n: count().as("n") }).from(submissions).groupBy(submissions.challengeId).as("counts");
  return db
    .select({
      id: challenges.id,
      title: challenges.title,
      category: challenges.category,
      wave: challenges.wave,
      points: challenges.points,
      status: challenges.status,
      difficulty: challenges.difficulty,
      attachmentName: challenges.attachmentName,
      submissions: sql<number>`coalesce(${counts.n}, 0)::int`,
    })
    .from(challenges)
    .leftJoin(counts, eq(counts.challengeId, challenges.id))
    .orderBy(sql`${challenges.wave} asc nulls last`, asc(challenges.category), asc(challenges.title), asc(challenges.id));
}

export async function getChallenge(id: number) {
  const [row] = await getDb().select().from(challenges).where(eq(challenges.id, id));
  return row ?? null;
}

function values(input: ChallengeInput) {
  return {
    title: input.title,
    description: input.description,
    points: input.points,
    category: input.category,
    hints: input.hints || null,
    wave: input.wave ?? null,
    difficulty: input.difficulty ?? null,
  };
}

/** A new challenge is active by default (docs/domain.md). */
/** An attachment already in storage (app/glue/challenge-form.server.ts streams it there). */
export interface StoredAttachment {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

export async function createChallenge(input: ChallengeInput, attachment: StoredAttachment | null) {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(challenges)
      .values({
        ...values(input),
        attachmentKey: attachment?.key ?? null,
        attachmentName: attachment?.name ?? null,
        attachmentType: attachment?.contentType ?? null,
      })
      .returning({ id: challenges.id });
    if (input.rubric) await replaceRubric(tx, row.id, input.rubric);
    return row;
  });
}

/** A challenge's rubric criteria, in order (empty: scored with a single score box). */
export async function getRubric(challengeId: number, db: Queryable = getDb()) {
  return db
    .select({ id: challengeCriteria.id, name: challengeCriteria.name, weight: challengeCriteria.weight, maxPoints: challengeCriteria.maxPoints })
    .from(challengeCriteria)
    .where(eq(challengeCriteria.challengeId, challengeId))
    .orderBy(asc(challengeCriteria.position));
}

/**
 * Sets a challenge's rubric. Unchanged, nothing is touched; changed, the criteria are replaced, and with them
 * the judges' criterion scores (their submission scores stay: a judge who scores again uses the new rubric).
 */
async function replaceRubric(tx: Queryable, challengeId: number, rubric: RubricLine[]) {
  const current = await getRubric(challengeId, tx);
  const same =
    current.length === rubric.length &&
    current.every((criterion, index) => criterion.name === rubric[index].name && criterion.weight === rubric[index].weight && criterion.maxPoints === rubric[index].maxPoints);
  if (same) return;
  await tx.delete(challengeCriteria).where(eq(challengeCriteria.challengeId, challengeId));
  if (rubric.length) await tx.insert(challengeCriteria).values(rubric.map((criterion, position) => ({ challengeId, position, ...criterion })));
}

/** Many challenges at once (a bulk import): one statement, so all are created or none. */
export async function createChallenges(inputs: ChallengeInput[]) {
  if (!inputs.length) return [];
  return getDb().insert(challenges).values(inputs.map(values)).returning({ id: challenges.id, title: challenges.title });
}

/**
 * Edits a challenge. A new attachment replaces the old one; `removeAttachment` drops it. When the
 * points or category change, every team with a submission to it is recomputed (solved flags and
 * category points depend on them).
 */
export async function updateChallenge(id: number, input: ChallengeInput, attachment: StoredAttachment | null, removeAttachment = false) {
  const { oldKey, teams } = await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ points: challenges.points, category: challenges.category, attachmentKey: challenges.attachmentKey })
      .from(challenges)
      .where(eq(challenges.id, id))
      .for("update");
    if (!before) throw new DashboardError(m.challengeNotFound, 404);
    const replaceFile = Boolean(attachment) || removeAttachment;
    await tx
      .update(challenges)
      .set({
        ...values(input),
        ...(replaceFile
          ? { attachmentKey: attachment?.key ?? null, attachmentName: attachment?.name ?? null, attachmentType: attachment?.contentType ?? null }
          : {}),
      })
      .where(eq(challenges.id, id));
    if (input.rubric) await replaceRubric(tx, id, input.rubric);
    let teams: number[] = [];
    if (before.points !== input.points || before.category !== input.category) {
      const rows = await tx.selectDistinct({ teamId: submissions.teamId }).from(submissions).where(eq(submissions.challengeId, id));
      teams = rows.map((row) => row.teamId);
      for (const teamId of teams) await markStandingsStale(tx, teamId);
    }
    return { oldKey: replaceFile ? before.attachmentKey : null, teams };
  });
  if (oldKey) await cleanupObject(oldKey);
  for (const teamId of teams) await requestStandingsRecompute(teamId);
}

export async function deleteChallenge(id: number) {
  const key = await getDb().transaction(async (tx) => {
    const [row] = await tx.select({ attachmentKey: challenges.attachmentKey }).from(challenges).where(eq(challenges.id, id)).for("update");
    if (!row) throw new DashboardError(m.challengeNotFound, 404);
    const [subs] = await tx.select({ n: count() }).from(submissions).where(eq(submissions.challengeId, id));
    if (subs.n > 0) throw new DashboardError(m.challengeHasSubmissions, 409);
    await tx.delete(challenges).where(eq(challenges.id, id));
    return row.attachmentKey;
  });
  if (key) await cleanupObject(key);
}

/** Clicking the status toggles active/inactive. Returns the new status. */
export async function toggleChallengeStatus(id: number) {
  const [row] = await getDb()
    .update(challenges)
    .set({ status: sql`case when ${challenges.status} = 'active' then 'inactive'::challenge_status else 'active'::challenge_status end` })
    .where(eq(challenges.id, id))
    .returning({ title: challenges.title, status: challenges.status });
  if (!row) throw new DashboardError(m.challengeNotFound, 404);
  return row;
}

/** Sets the status outright (the API's PATCH …/status): idempotent, unlike the screen's toggle. */
export async function setChallengeStatus(id: number, status: "active" | "inactive") {
  const [row] = await getDb().update(challenges).set({ status }).where(eq(challenges.id, id)).returning({ id: challenges.id, title: challenges.title, status: challenges.status });
  if (!row) throw new DashboardError(m.challengeNotFound, 404);
  return row;
}

export async function challengeAttachment(id: number) {
  const [row] = await getDb()
    .select({ key: challenges.attachmentKey, name: challenges.attachmentName })
    .from(challenges)
    .where(eq(challenges.id, id));
  return row?.key ? { key: row.key, name: row.name ?? "attachment" } : null;
}
