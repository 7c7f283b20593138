/**
 * Challenges: create, edit, delete, activate/deactivate. A challenge with submissions cannot be
 * deleted (its scores are part of the standings). A replaced or removed attachment is deleted from
 * storage after commit, by the storage-cleanup worker.
 */
import { asc, count, eq, getTableColumns, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { parsedJson } from "../../../db/json.ts";
import { anyOf } from "../../../db/any-of.ts";
import { prebuilt, type Rows } from "../../../db/in-order.ts";
import {
  challengeCriteria,
  challengeFlags,
  challengeHints,
  challengeStarterFiles,
  challengePrerequisites,
  challenges,
  codeRuns,
  flagAttempts,
  flagSolves,
  hintUnlocks,
  predictionSubmissions,
  submissions,
  teamFlags,
} from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { deleteObject } from "../../infrastructure/s3.server.ts";
import { arabicOrNull } from "../i18n/content.ts";
import { messages } from "../messages.ts";
import { type Criterion, formatRubric, type RubricLine } from "../scoring/rubric.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { fromCenti } from "../scoring/rules.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DashboardError } from "../teams/teams.server.ts";
import { shownFileNameOrNull } from "../file-names.ts";
import { answersSummary, formatAnswers, sameAnswers, type FlagAnswer } from "../flags/answers.ts";
import { parseAnswersToSave } from "../flags/answers.server.ts";
import { readFlagAnswers, syncTeamFlags } from "../flags/guess.server.ts";
import { newFlagSecret } from "../flags/matching.server.ts";
import { formatPaidHints, parsePaidHints } from "../flags/paid-hints.ts";
import { readHints, replaceHints } from "../flags/hints.server.ts";
import type { ChallengeFormValues, CheckingMode, ScoringMode } from "./schema.ts";

const m = messages.dashboard;

/**
 * A challenge as the form, the API or an import gives it; `rubric` only from the form (undefined: left as it
 * is). `checking` with its `answers` (the admin's text form, app/modules/flags/answers.ts) and limits:
 * undefined leaves them as they are (a new challenge is judged).
 */
export type ChallengeInput = Omit<
  ChallengeFormValues,
  "id" | "removeAttachment" | "rubric" | "checking" | "answers" | "wrongPerMinute" | "maxAttempts" | "scoring" | "minimumPoints" | "decay" | "paidHints" | "prerequisites"
> & {
  rubric?: RubricLine[];
  checking?: CheckingMode;
  answers?: string;
  wrongPerMinute?: number;
  maxAttempts?: number;
  /** A flag challenge's points (undefined with `checking`: static). */
  scoring?: ScoringMode;
  minimumPoints?: number;
  decay?: number;
  /** Hints that cost points, `cost | text` a line (undefined: left as they are). */
  paidHints?: string;
  /** The challenges a team must solve first (undefined: left as they are). */
  prerequisites?: number[];
  /** In a bulk import (createChallenges): the challenges of the same import it requires, by their index in it. */
  prerequisiteRows?: number[];
};

const fm = messages.flagAnswers;

/** How a challenge is checked, as it will be saved: its mode, answers and limits (a judged challenge has none). */
interface Checking {
  checking: CheckingMode;
  answers: FlagAnswer[];
  wrongPerMinute: number | null;
  maxAttempts: number | null;
  scoring: ScoringMode;
  minimumPoints: number | null;
  decay: number | null;
}

/**
 * The input's checking, read and checked as it will be saved (null: not given, left as it is): the answers'
 * text read again with each answer's line, and every pattern compiled by RE2, so a refusal names its line
 * and RE2's reason (400 on `answers`).
 */
function checkingOf(input: ChallengeInput): Checking | null {
  if (input.checking === undefined) return null;
  const parsed = parseAnswersToSave(input.answers);
  if ("error" in parsed) throw new DashboardError(parsed.error, 400, "answers");
  if (input.checking === "judges" || input.checking === "metric" || input.checking === "tests") {
    if (parsed.answers.length) throw new DashboardError(fm.notForJudges, 400, "answers");
    if (input.scoring === "dynamic") throw new DashboardError(fm.dynamicForFlags, 400, "scoring");
    // A metric's settings and labels are the prediction challenge's own (app/modules/predictions); the languages,
    // limits and hidden tests the code challenge's (app/modules/code).
    return { checking: input.checking, answers: [], wrongPerMinute: null, maxAttempts: null, scoring: "static", minimumPoints: null, decay: null };
  }
  if (!parsed.answers.length) throw new DashboardError(fm.required, 400, "answers");
  const dynamic = input.scoring === "dynamic";
  if (dynamic && (input.minimumPoints === undefined || input.decay === undefined)) throw new DashboardError(fm.dynamicNeedsCurve, 400, input.minimumPoints === undefined ? "minimumPoints" : "decay");
  if (dynamic && input.minimumPoints! > input.points) throw new DashboardError(fm.minimumAbovePoints, 400, "minimumPoints");
  return {
    checking: "flag",
    answers: parsed.answers,
    wrongPerMinute: input.wrongPerMinute ?? null,
    maxAttempts: input.maxAttempts ?? null,
    scoring: dynamic ? "dynamic" : "static",
    minimumPoints: dynamic ? input.minimumPoints! : null,
    decay: dynamic ? input.decay! : null,
  };
}

/**
 * Writes a challenge's answers when they changed (recorded as "flag.answers": how many of each kind, never a
 * value). The per-team key is made the first time a per-team answer appears and kept afterwards: a new key
 * would change every team's flag. The teams' flag digests follow the per-team answer.
 */
async function saveAnswers(tx: Queryable, actor: Actor, challengeId: number, answers: FlagAnswer[], secret: string | null): Promise<void> {
  const current = await readFlagAnswers(tx, challengeId);
  if (sameAnswers(current, answers)) {
    if (secret) await syncTeamFlags(tx, challengeId, secret, answers);
    return;
  }
  await tx.delete(challengeFlags).where(eq(challengeFlags.challengeId, challengeId));
  if (answers.length) await tx.insert(challengeFlags).values(answers.map((answer, index) => ({ challengeId, position: index + 1, ...answer })));
  const perTeam = (list: FlagAnswer[]) => list.find((answer) => answer.kind === "per_team")?.value;
  if (perTeam(current) !== perTeam(answers)) await tx.delete(teamFlags).where(eq(teamFlags.challengeId, challengeId));
  if (secret) await syncTeamFlags(tx, challengeId, secret, answers);
  await recordAudit(tx, actor, {
    kind: "flag.answers",
    subjectId: challengeId,
    ...(current.length ? { before: answersSummary(current) } : {}),
    after: answersSummary(answers),
  });
}

/** The per-team key the answers need: the challenge's own once it has one, else a new one if an answer is per team. */
function secretFor(answers: FlagAnswer[], existing: string | null): string | null {
  return existing ?? (answers.some((answer) => answer.kind === "per_team") ? newFlagSecret() : null);
}

function checkingValues(checking: Checking, secret: string | null) {
  return {
    checking: checking.checking,
    wrongPerMinute: checking.wrongPerMinute,
    maxAttempts: checking.maxAttempts,
    scoring: checking.scoring,
    minimumPoints: checking.minimumPoints,
    decay: checking.decay,
    flagSecret: secret,
  };
}

/** The hints' lines as saved (already checked by the schema; refused here all the same if not). */
function paidHintsOf(text: string) {
  const parsed = parsePaidHints(text);
  if ("error" in parsed) throw new DashboardError(parsed.error, 400, "paidHints");
  return parsed.hints;
}

/** A challenge's hints that cost points in the form's text (admins only). */
export async function getPaidHintsText(id: number): Promise<string> {
  return formatPaidHints(await readHints(id));
}

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
  const rows = await db
    .select({
      id: challenges.id,
      title: challenges.title,
      titleAr: challenges.titleAr,
      category: challenges.category,
      wave: challenges.wave,
      points: challenges.points,
      status: challenges.status,
      difficulty: challenges.difficulty,
      attachmentName: challenges.attachmentName,
      submissions: sql<number>`coalesce(${counts.n}, 0)::int`,
      checking: challenges.checking,
      wrongPerMinute: challenges.wrongPerMinute,
      maxAttempts: challenges.maxAttempts,
      scoring: challenges.scoring,
      minimumPoints: challenges.minimumPoints,
      decay: challenges.decay,
      releaseAfterMinutes: challenges.releaseAfterMinutes,
      answerCount: answerCountSql,
    })
    .from(challenges)
    .leftJoin(counts, eq(counts.challengeId, challenges.id))
    .orderBy(sql`${challenges.wave} asc nulls last`, asc(challenges.category), asc(challenges.title), asc(challenges.id));
  return rows.map((row) => ({ ...row, attachmentName: shownFileNameOrNull(row.attachmentName) }));
}

/**
 * One challenge, its attachment's name as shown (app/modules/file-names.ts), with how many answers it accepts
 * (`answerCount`; never the answers, nor its per-team key: those stay in the flags module).
 */
export async function getChallenge(id: number) {
  const [row] = await getDb()
    .select({ ...getTableColumns(challenges), answerCount: answerCountSql })
    .from(challenges)
    .where(eq(challenges.id, id));
  if (!row) return null;
  const { flagSecret: _secret, ...challenge } = row;
  return { ...challenge, attachmentName: shownFileNameOrNull(row.attachmentName) };
}

// Qualified by hand: in a one-table select drizzle writes a column unqualified, and "id" would be the flags' own.
const answerCountSql = sql<number>`(select count(*)::int from ${challengeFlags} where ${challengeFlags.challengeId} = ${sql.raw('"challenges"."id"')})`.mapWith(Number);

/**
 * A challenge as its edit form (Dashboard → Challenges, admins only) shows it: every field as the form's text,
 * the Arabic beside the English, its answers, paid hints, rubric and prerequisites; null: no such challenge.
 */
export async function challengeFormValues(id: number) {
  const challenge = await getChallenge(id);
  if (!challenge) return null;
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    id: challenge.id,
    title: challenge.title,
    description: challenge.description,
    titleAr: challenge.titleAr ?? "",
    descriptionAr: challenge.descriptionAr ?? "",
    points: String(challenge.points),
    category: challenge.category,
    hints: challenge.hints ?? "",
    wave: challenge.wave ? String(challenge.wave) : "",
    difficulty: challenge.difficulty ?? "",
    rubric: formatRubric(await getRubric(challenge.id)),
    attachmentName: challenge.attachmentName,
    // The page is admins' only (pageRoles): the answers fill the form, and go nowhere else.
    checking: challenge.checking,
    answers: await getChallengeAnswersText(challenge.id),
    wrongPerMinute: text(challenge.wrongPerMinute),
    maxAttempts: text(challenge.maxAttempts),
    scoring: challenge.scoring,
    minimumPoints: text(challenge.minimumPoints),
    decay: text(challenge.decay),
    paidHints: await getPaidHintsText(challenge.id),
    releaseAfterMinutes: text(challenge.releaseAfterMinutes),
    prerequisites: (await getPrerequisiteIds(challenge.id)).map(String),
  };
}

/** A challenge's hints that cost points as the API shows them to admins: their number, cost and text. */
export interface AdminPaidHint {
  number: number;
  cost: number;
  text: string;
}

/**
 * What the API's objects for admins add to challenges' columns: each one's prerequisites (ids) and its hints
 * that cost points (text included: admins write them). One statement for any number of challenges. Never an
 * answer, and never for a participant (who reads their team's hints: app/modules/flags/hints.server.ts).
 */
export async function challengeLinks(ids: readonly number[]): Promise<Map<number, { prerequisites: number[]; paidHints: AdminPaidHint[] }>> {
  const links = new Map<number, { prerequisites: number[]; paidHints: AdminPaidHint[] }>();
  if (ids.length === 0) return links;
  const rows = await getDb().execute<{ id: number; prerequisites: unknown; hints: unknown }>(sql`
    select one.id,
      (select coalesce(json_agg(${challengePrerequisites.requiresId} order by ${challengePrerequisites.requiresId}), '[]'::json)
        from ${challengePrerequisites} where ${challengePrerequisites.challengeId} = one.id) as prerequisites,
      (select coalesce(json_agg(json_build_object('number', ${challengeHints.position}, 'costCenti', ${challengeHints.costCenti}, 'text', ${challengeHints.text})
        order by ${challengeHints.position}), '[]'::json) from ${challengeHints} where ${challengeHints.challengeId} = one.id) as hints
    from unnest(${`{${ids.join(",")}}`}::int[]) as one(id)`);
  for (const row of rows) {
    const hints = parsedJson(row.hints) as Array<{ number: number; costCenti: number; text: string }>;
    links.set(Number(row.id), {
      prerequisites: (parsedJson(row.prerequisites) as number[]).map(Number),
      paidHints: hints.map((hint) => ({ number: Number(hint.number), cost: fromCenti(Number(hint.costCenti)), text: hint.text })),
    });
  }
  return links;
}

/** One challenge as the API shows it to admins: getChallenge's, with its prerequisites and paid hints (null: none such). */
export async function getChallengeForAdmin(id: number) {
  const [challenge, links] = await Promise.all([getChallenge(id), challengeLinks([id])]);
  return challenge && { ...challenge, ...(links.get(id) ?? { prerequisites: [], paidHints: [] }) };
}

/** Every challenge as the API lists it for admins: listChallenges' rows with their prerequisites and paid hints. */
export async function listChallengesForApi() {
  const rows = await listChallenges();
  const links = await challengeLinks(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, ...(links.get(row.id) ?? { prerequisites: [], paidHints: [] }) }));
}

/** A challenge's accepted answers in the admin's text form, for its edit form (admins only: a flag never reaches a team). */
export async function getChallengeAnswersText(id: number): Promise<string> {
  return formatAnswers(await readFlagAnswers(getDb(), id));
}

function values(input: ChallengeInput) {
  return {
    title: input.title,
    description: input.description,
    // The Arabic beside the English (docs/domain.md "Event content in two languages"): empty is none.
    titleAr: arabicOrNull(input.titleAr),
    descriptionAr: arabicOrNull(input.descriptionAr),
    points: input.points,
    category: input.category,
    hints: input.hints || null,
    wave: input.wave ?? null,
    difficulty: input.difficulty ?? null,
    releaseAfterMinutes: input.releaseAfterMinutes ?? null,
  };
}

/**
 * Replaces a challenge's prerequisites (docs/domain.md "Gates and challenges"), in the caller's transaction:
 * never itself, only challenges that exist, and never a circle (a challenge requiring itself through others,
 * which no team could ever open). Returns whether they changed.
 */
async function replacePrerequisites(tx: Queryable, challengeId: number, requires: readonly number[]): Promise<boolean> {
  const wanted = [...new Set(requires)].sort((a, b) => a - b);
  if (wanted.includes(challengeId)) throw new DashboardError(m.prerequisiteSelf, 400, "prerequisites");
  const current = (await tx.select({ id: challengePrerequisites.requiresId }).from(challengePrerequisites).where(eq(challengePrerequisites.challengeId, challengeId)))
    .map((row) => row.id)
    .sort((a, b) => a - b);
  if (current.join() === wanted.join()) return false;
  await tx.delete(challengePrerequisites).where(eq(challengePrerequisites.challengeId, challengeId));
  if (wanted.length === 0) return true;
  const known = await tx.select({ id: challenges.id }).from(challenges).where(anyOf(challenges.id, wanted));
  if (known.length !== wanted.length) throw new DashboardError(m.prerequisiteUnknown, 400, "prerequisites");
  await tx.insert(challengePrerequisites).values(wanted.map((requiresId) => ({ challengeId, requiresId })));
  const [circle] = await tx.execute<{ found: boolean }>(sql`with recursive reach(id) as (
      select ${challengePrerequisites.requiresId} from ${challengePrerequisites} where ${challengePrerequisites.challengeId} = ${challengeId}
      union
      select p.requires_id from ${challengePrerequisites} p inner join reach on p.challenge_id = reach.id
    ) select exists (select 1 from reach where id = ${challengeId}) as found`);
  if (circle?.found) throw new DashboardError(m.prerequisiteCycle, 400, "prerequisites");
  return true;
}

/** A challenge's prerequisites (ids), for its edit form. */
export async function getPrerequisiteIds(challengeId: number): Promise<number[]> {
  return (await getDb().select({ id: challengePrerequisites.requiresId }).from(challengePrerequisites).where(eq(challengePrerequisites.challengeId, challengeId))).map((row) => row.id);
}

/** A new challenge is active by default (docs/domain.md). */
/** An attachment already in storage (app/glue/challenge-form.server.ts streams it there). */
export interface StoredAttachment {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

export async function createChallenge(actor: Actor, input: ChallengeInput, attachment: StoredAttachment | null) {
  const checking = checkingOf(input);
  const secret = checking ? secretFor(checking.answers, null) : null;
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(challenges)
      .values({
        ...values(input),
        ...(checking ? checkingValues(checking, secret) : {}),
        attachmentKey: attachment?.key ?? null,
        attachmentName: attachment?.name ?? null,
        attachmentType: attachment?.contentType ?? null,
      })
      .returning({ id: challenges.id, ...auditedColumns });
    if (input.rubric) await replaceRubric(tx, row.id, input.rubric);
    await recordAudit(tx, actor, { kind: "challenge.created", subjectId: row.id, after: audited(row) });
    if (checking?.answers.length) await saveAnswers(tx, actor, row.id, checking.answers, secret);
    if (input.paidHints) await replaceHints(tx, row.id, paidHintsOf(input.paidHints));
    if (input.prerequisites?.length) await replacePrerequisites(tx, row.id, input.prerequisites);
    return { id: row.id };
  });
}

/** What a challenge's audit record keeps of it (its texts are long and change no standing: not kept). */
const auditedColumns = {
  title: challenges.title,
  titleAr: challenges.titleAr,
  points: challenges.points,
  category: challenges.category,
  wave: challenges.wave,
  difficulty: challenges.difficulty,
  status: challenges.status,
  attachmentName: challenges.attachmentName,
  checking: challenges.checking,
  wrongPerMinute: challenges.wrongPerMinute,
  maxAttempts: challenges.maxAttempts,
  scoring: challenges.scoring,
  minimumPoints: challenges.minimumPoints,
  decay: challenges.decay,
  releaseAfterMinutes: challenges.releaseAfterMinutes,
};

function audited(row: {
  title: string;
  titleAr: string | null;
  points: number;
  category: string;
  wave: number | null;
  difficulty: string | null;
  status: string;
  attachmentName: string | null;
  checking: CheckingMode | "tests";
  wrongPerMinute: number | null;
  maxAttempts: number | null;
  scoring: ScoringMode;
  minimumPoints: number | null;
  decay: number | null;
  releaseAfterMinutes: number | null;
}) {
  return {
    title: row.title,
    // The Arabic title, once there is one (none: not said).
    ...(row.titleAr !== null ? { titleAr: row.titleAr } : {}),
    points: row.points,
    category: row.category,
    wave: row.wave,
    difficulty: row.difficulty,
    status: row.status,
    attachment: row.attachmentName,
    checking: row.checking,
    // A flag challenge's limits (a judged one has none: not said).
    ...(row.checking === "flag" ? { wrongPerMinute: row.wrongPerMinute, maxAttempts: row.maxAttempts } : {}),
    // Dynamic points' curve (static: not said).
    ...(row.scoring === "dynamic" ? { scoring: row.scoring, minimumPoints: row.minimumPoints, decay: row.decay } : {}),
    ...(row.releaseAfterMinutes !== null ? { releaseAfterMinutes: row.releaseAfterMinutes } : {}),
  };
}

/** A challenge's rubric criteria, in order (empty: scored with a single score box). */
export async function getRubric(challengeId: number, db: Queryable = getDb()): Promise<Criterion[]> {
  return rubricOf(await db.execute(rubricSql(challengeId)));
}

/**
 * The rubric of a submission's challenge, as a statement to send after the one that locks the submission and
 * its challenge, in the same round trip (sendInOrder, db/in-order.ts): Postgres runs it once that lock is
 * held, so it reads the rubric of the challenge as locked. Its rows: rubricOf.
 */
export const rubricOfSubmission = prebuilt(["submissionId"], ({ submissionId }) =>
  rubricSql(sql`(select ${submissions.challengeId} from ${submissions} where ${submissions.id} = ${submissionId})`),
);

function rubricSql(challengeId: number | SQLWrapper): SQL {
  return sql`select ${challengeCriteria.id} as id, ${challengeCriteria.name} as name, ${challengeCriteria.weight} as weight, ${challengeCriteria.maxPoints} as max_points
    from ${challengeCriteria} where ${challengeCriteria.challengeId} = ${challengeId} order by ${challengeCriteria.position}`;
}

export function rubricOf(rows: Rows): Criterion[] {
  return rows.map((row) => ({ id: Number(row.id), name: String(row.name), weight: Number(row.weight), maxPoints: Number(row.max_points) }));
}

/**
 * Sets a challenge's rubric. Unchanged, nothing is touched; changed, the criteria are replaced, and with them
 * the judges' criterion scores (their submission scores stay: a judge who scores again uses the new rubric).
 */
async function replaceRubric(tx: Queryable, challengeId: number, rubric: RubricLine[]): Promise<boolean> {
  const current = await getRubric(challengeId, tx);
  const same =
    current.length === rubric.length &&
    current.every((criterion, index) => criterion.name === rubric[index].name && criterion.weight === rubric[index].weight && criterion.maxPoints === rubric[index].maxPoints);
  if (same) return false;
  await tx.delete(challengeCriteria).where(eq(challengeCriteria.challengeId, challengeId));
  if (rubric.length) await tx.insert(challengeCriteria).values(rubric.map((criterion, position) => ({ challengeId, position, ...criterion })));
  return true;
}

/**
 * Many challenges at once (a bulk import): one statement, so all are created or none, and one audit record;
 * then each one's answers, hints that cost points and prerequisites (saved ones by id, the import's own by
 * their index: `prerequisiteRows`), under the same rules as one challenge's.
 */
export async function createChallenges(actor: Actor, inputs: ChallengeInput[], fileName: string) {
  if (!inputs.length) return [];
  const checkings = inputs.map(checkingOf);
  const secrets = checkings.map((checking) => (checking ? secretFor(checking.answers, null) : null));
  const hints = inputs.map((input) => (input.paidHints ? paidHintsOf(input.paidHints) : []));
  return getDb().transaction(async (tx) => {
    const rows = inputs.map((input, index) => ({ ...values(input), ...(checkings[index] ? checkingValues(checkings[index], secrets[index]) : {}) }));
    const created = await tx.insert(challenges).values(rows).returning({ id: challenges.id, title: challenges.title });
    await recordAudit(tx, actor, { kind: "import.challenges", after: { file: fileName, created: created.length, challengeIds: created.map((row) => row.id) } });
    for (const [index, row] of created.entries()) {
      const answers = checkings[index]?.answers ?? [];
      if (answers.length) await saveAnswers(tx, actor, row.id, answers, secrets[index]);
      if (hints[index].length) await replaceHints(tx, row.id, hints[index]);
      const requires = [...(inputs[index].prerequisites ?? []), ...(inputs[index].prerequisiteRows ?? []).map((at) => created[at].id)];
      if (requires.length) await replacePrerequisites(tx, row.id, requires);
    }
    return created;
  });
}

/**
 * Edits a challenge. A new attachment replaces the old one; `removeAttachment` drops it. When the
 * points or category change, every team with a submission to it is recomputed (solved flags and
 * category points depend on them).
 */
export async function updateChallenge(actor: Actor, id: number, input: ChallengeInput, attachment: StoredAttachment | null, removeAttachment = false) {
  const checking = checkingOf(input);
  const { oldKey, teams } = await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ ...auditedColumns, attachmentKey: challenges.attachmentKey, description: challenges.description, descriptionAr: challenges.descriptionAr, hints: challenges.hints, flagSecret: challenges.flagSecret })
      .from(challenges)
      .where(eq(challenges.id, id))
      .for("update");
    if (!before) throw new DashboardError(m.challengeNotFound, 404);
    if (checking && checking.checking !== before.checking && (await hasAnswersFromTeams(tx, id))) throw new DashboardError(fm.checkingLocked, 409, "checking");
    const secret = checking ? secretFor(checking.answers, before.flagSecret) : before.flagSecret;
    const replaceFile = Boolean(attachment) || removeAttachment;
    const previousRubric = input.rubric ? formatRubric(await getRubric(id, tx)) : "";
    const [after] = await tx
      .update(challenges)
      .set({
        ...values(input),
        ...(checking ? checkingValues(checking, secret) : {}),
        ...(replaceFile
          ? { attachmentKey: attachment?.key ?? null, attachmentName: attachment?.name ?? null, attachmentType: attachment?.contentType ?? null }
          : {}),
      })
      .where(eq(challenges.id, id))
      .returning(auditedColumns);
    const rubricChanged = input.rubric ? await replaceRubric(tx, id, input.rubric) : false;
    if (checking) await saveAnswers(tx, actor, id, checking.answers, secret);
    const hintsBefore = input.paidHints === undefined ? "" : formatPaidHints(await readHints(id, tx));
    if (input.paidHints !== undefined) await replaceHints(tx, id, paidHintsOf(input.paidHints));
    const prerequisitesChanged = input.prerequisites !== undefined && (await replacePrerequisites(tx, id, input.prerequisites));
    // The texts teams read are long: the record says that they changed, not what they say. A save that
    // changes nothing is not recorded.
    const texts = {
      ...(before.description !== input.description ? { descriptionChanged: true } : {}),
      ...(before.descriptionAr !== arabicOrNull(input.descriptionAr) ? { descriptionArChanged: true } : {}),
      ...(before.hints !== (input.hints || null) ? { hintsChanged: true } : {}),
      ...(input.paidHints !== undefined && hintsBefore !== formatPaidHints(paidHintsOf(input.paidHints)) ? { paidHintsChanged: true } : {}),
      ...(prerequisitesChanged ? { prerequisites: [...new Set(input.prerequisites)].sort((a, b) => a - b) } : {}),
    };
    const fieldsChanged = JSON.stringify(audited(before)) !== JSON.stringify(audited(after));
    if (fieldsChanged || rubricChanged || replaceFile || Object.keys(texts).length > 0) {
      await recordAudit(tx, actor, {
        kind: "challenge.updated",
        subjectId: id,
        before: { ...audited(before), ...(rubricChanged ? { rubric: previousRubric } : {}) },
        after: { ...audited(after), ...texts, ...(rubricChanged ? { rubric: formatRubric(input.rubric!) } : {}) },
      });
    }
    let teams: number[] = [];
    const curveChanged = before.scoring !== after.scoring || before.minimumPoints !== after.minimumPoints || before.decay !== after.decay;
    if (before.points !== input.points || before.category !== input.category || curveChanged) {
      // Every team that scored on it: by a submission, a flag solve (counted at the challenge's value), or a paid
      // hint's unlock (its cost counts in the challenge's category).
      const rows = await tx.execute<{ team_id: number }>(
        sql`select ${submissions.teamId} as team_id from ${submissions} where ${submissions.challengeId} = ${id}
          union select ${flagSolves.teamId} from ${flagSolves} where ${flagSolves.challengeId} = ${id}
          union select ${predictionSubmissions.teamId} from ${predictionSubmissions} where ${predictionSubmissions.challengeId} = ${id}
          union select ${codeRuns.teamId} from ${codeRuns} where ${codeRuns.challengeId} = ${id}
          union select ${hintUnlocks.teamId} from ${hintUnlocks} inner join ${challengeHints} on ${challengeHints.id} = ${hintUnlocks.hintId} where ${challengeHints.challengeId} = ${id}`,
      );
      teams = rows.map((row) => Number(row.team_id));
      await markStandingsStale(tx, teams);
    }
    return { oldKey: replaceFile ? before.attachmentKey : null, teams };
  });
  if (oldKey) await cleanupObject(oldKey);
  await requestStandingsRecompute(teams);
}

/** Whether any team has answered the challenge (a submission or a flag attempt): how it is checked is then fixed. */
async function hasAnswersFromTeams(tx: Queryable, challengeId: number): Promise<boolean> {
  const [row] = await tx.execute<{ answered: boolean }>(
    sql`select exists (select 1 from ${submissions} where ${submissions.challengeId} = ${challengeId})
      or exists (select 1 from ${flagAttempts} where ${flagAttempts.challengeId} = ${challengeId})
      or exists (select 1 from ${predictionSubmissions} where ${predictionSubmissions.challengeId} = ${challengeId})
      or exists (select 1 from ${codeRuns} where ${codeRuns.challengeId} = ${challengeId}) as answered`,
  );
  return Boolean(row.answered);
}

export async function deleteChallenge(actor: Actor, id: number) {
  const keys = await getDb().transaction(async (tx) => {
    const [row] = await tx.select({ ...auditedColumns, attachmentKey: challenges.attachmentKey }).from(challenges).where(eq(challenges.id, id)).for("update");
    if (!row) throw new DashboardError(m.challengeNotFound, 404);
    const [subs] = await tx.select({ n: count() }).from(submissions).where(eq(submissions.challengeId, id));
    if (subs.n > 0) throw new DashboardError(m.challengeHasSubmissions, 409);
    // Flag answers, paid hints, predictions files and code runs are part of the standings and the audit's story, as submissions are.
    const [answered] = await tx.execute<{ answered: boolean }>(sql`select exists (select 1 from ${flagAttempts} where ${flagAttempts.challengeId} = ${id})
      or exists (select 1 from ${hintUnlocks} inner join ${challengeHints} on ${challengeHints.id} = ${hintUnlocks.hintId} where ${challengeHints.challengeId} = ${id})
      or exists (select 1 from ${predictionSubmissions} where ${predictionSubmissions.challengeId} = ${id})
      or exists (select 1 from ${codeRuns} where ${codeRuns.challengeId} = ${id}) as answered`);
    if (answered?.answered) throw new DashboardError(m.challengeHasAnswers, 409);
    // Its starter files (the integrity signals') go with it: their rows by cascade, their objects after the commit.
    const starterFiles = await tx.select({ key: challengeStarterFiles.fileKey }).from(challengeStarterFiles).where(eq(challengeStarterFiles.challengeId, id));
    await tx.delete(challenges).where(eq(challenges.id, id));
    await recordAudit(tx, actor, { kind: "challenge.deleted", subjectId: id, before: audited(row) });
    return [row.attachmentKey, ...starterFiles.map((file) => file.key)];
  });
  for (const key of keys) if (key) await cleanupObject(key);
}

/** Clicking the status toggles active/inactive. Returns the new status. */
export async function toggleChallengeStatus(actor: Actor, id: number) {
  return changeStatus(actor, id, (current) => (current === "active" ? "inactive" : "active"));
}

/** Sets the status outright (the API's PATCH …/status): idempotent, unlike the screen's toggle (no change, no record). */
export async function setChallengeStatus(actor: Actor, id: number, status: "active" | "inactive") {
  return changeStatus(actor, id, () => status);
}

async function changeStatus(actor: Actor, id: number, next: (current: "active" | "inactive") => "active" | "inactive") {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select({ title: challenges.title, status: challenges.status }).from(challenges).where(eq(challenges.id, id)).for("update");
    if (!row) throw new DashboardError(m.challengeNotFound, 404);
    const status = next(row.status);
    if (status !== row.status) {
      await tx.update(challenges).set({ status }).where(eq(challenges.id, id));
      await recordAudit(tx, actor, { kind: "challenge.status", subjectId: id, before: { title: row.title, status: row.status }, after: { title: row.title, status } });
    }
    return { id, title: row.title, status };
  });
}

export async function challengeAttachment(id: number) {
  const [row] = await getDb()
    .select({ key: challenges.attachmentKey, name: challenges.attachmentName })
    .from(challenges)
    .where(eq(challenges.id, id));
  return row?.key ? { key: row.key, name: row.name ?? "attachment" } : null;
}
