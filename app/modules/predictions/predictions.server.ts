/**
 * Prediction challenges (docs/domain.md "Prediction challenges"; docs/decisions/043-prediction-challenges.md): the
 * admin's settings and hidden labels, a team's predictions files and the one that counts, the reveal of the private
 * scores, and the per-challenge leaderboard. A file is scored by the worker (./scoring.server.ts); its points reach
 * the standings through the team_answers view and the outbox, as every other score does.
 *
 * Nothing of a private score, the labels or the split's seed leaves this module for a participant before the
 * challenge is revealed: the participant's reads below select the public score only until then.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import {
  challenges,
  eventSettings,
  gates,
  predictionChallenges,
  predictionChoiceHistory,
  predictionChoices,
  predictionSubmissions,
  teams,
} from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { enqueue, enqueueMany } from "../../infrastructure/queue.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import type { Role } from "../auth/access.ts";
import { answerGateColumns, challengeGateJoin, refusalToAnswer, type AnswerRefusal } from "../challenges/visibility.server.ts";
import { checkingChallenge } from "../challenges/checking-page.server.ts";
import { inLanguage } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { changeTeamThenRecompute } from "../standings/recompute.server.ts";
import { lowerIsBetter, pointsCentiOf, type Metric } from "./metrics.ts";
import type { Faults } from "./parse.server.ts";

const m = messages.predictions;

/** A predictions file is at most this big (a million rows of an id and a number take about 20 MB). */
export const PREDICTIONS_MAX_BYTES = 64 * 1024 * 1024;
/** A labels file is at most this big. */
export const LABELS_MAX_BYTES = 128 * 1024 * 1024;

export class PredictionError extends DomainError {}

/** A prediction challenge's settings as the admin sets them. */
export interface PredictionSettingsInput {
  metric: Metric;
  publicPercent: number;
  baseline: number;
  target: number;
  dailyLimit: number;
}

export interface PredictionChallenge extends PredictionSettingsInput {
  challengeId: number;
  points: number;
  seed: string;
  labelsKey: string | null;
  labelsName: string | null;
  labelsRows: number | null;
  idColumn: string | null;
  targetColumn: string | null;
  revealedAt: Date | null;
}

const challengeColumns = {
  challengeId: predictionChallenges.challengeId,
  points: challenges.points,
  metric: predictionChallenges.metric,
  publicPercent: predictionChallenges.publicPercent,
  baseline: predictionChallenges.baseline,
  target: predictionChallenges.target,
  dailyLimit: predictionChallenges.dailyLimit,
  seed: predictionChallenges.seed,
  labelsKey: predictionChallenges.labelsKey,
  labelsName: predictionChallenges.labelsName,
  labelsRows: predictionChallenges.labelsRows,
  idColumn: predictionChallenges.idColumn,
  targetColumn: predictionChallenges.targetColumn,
  revealedAt: predictionChallenges.revealedAt,
};

export async function getPredictionChallenge(challengeId: number, db: Queryable = getDb()): Promise<PredictionChallenge | null> {
  const [row] = await db
    .select(challengeColumns)
    .from(predictionChallenges)
    .innerJoin(challenges, eq(challenges.id, predictionChallenges.challengeId))
    .where(eq(predictionChallenges.challengeId, challengeId));
  return row ?? null;
}

/** Settings that change how files are read or split: fixed once a team has sent a file (a baseline or target may move). */
function checkSettings(input: PredictionSettingsInput) {
  if (input.baseline === input.target) throw new PredictionError(m.baselineIsTarget, { status: 400, field: "target" });
  if (lowerIsBetter(input.metric) && input.target > input.baseline) throw new PredictionError(m.errorTargetAbove, { status: 400, field: "target" });
  if (!lowerIsBetter(input.metric) && input.target < input.baseline) throw new PredictionError(m.scoreTargetBelow, { status: 400, field: "target" });
}

async function hasSubmissions(db: Queryable, challengeId: number): Promise<boolean> {
  const [row] = await db.select({ id: predictionSubmissions.id }).from(predictionSubmissions).where(eq(predictionSubmissions.challengeId, challengeId)).limit(1);
  return Boolean(row);
}

/** The teams that sent a file to the challenge, whose points a change to it may move. */
async function teamsWithSubmissions(db: Queryable, challengeId: number): Promise<number[]> {
  const rows = await db.selectDistinct({ teamId: predictionSubmissions.teamId }).from(predictionSubmissions).where(eq(predictionSubmissions.challengeId, challengeId));
  return rows.map((row) => row.teamId);
}

/**
 * Saves a prediction challenge's settings (the challenge must be checked by a metric). The metric and the public
 * share are fixed once a team has sent a file; a new baseline, target or daily limit applies to every file at once
 * (the points are made from the scores: every team that sent one is recomputed).
 */
export async function savePredictionSettings(actor: Actor, challengeId: number, input: PredictionSettingsInput): Promise<void> {
  checkSettings(input);
  const teamIds = await getDb().transaction(async (tx) => {
    const [challenge] = await tx.select({ checking: challenges.checking }).from(challenges).where(eq(challenges.id, challengeId)).for("update");
    if (!challenge) throw new PredictionError(messages.dashboard.challengeNotFound, { status: 404 });
    if (challenge.checking !== "metric") throw new PredictionError(m.notMetric, { status: 409 });
    const before = await getPredictionChallenge(challengeId, tx);
    if (before && (before.metric !== input.metric || before.publicPercent !== input.publicPercent) && (await hasSubmissions(tx, challengeId)))
      throw new PredictionError(m.settingsLocked, { status: 409, field: before.metric !== input.metric ? "metric" : "publicPercent" });
    const values = { metric: input.metric, publicPercent: input.publicPercent, baseline: input.baseline, target: input.target, dailyLimit: input.dailyLimit };
    // A new metric reads labels differently: the old file is dropped (the admin uploads it again).
    const keepLabels = !before || before.metric === input.metric;
    await tx
      .insert(predictionChallenges)
      .values({ challengeId, seed: randomBytes(32).toString("hex"), ...values })
      .onConflictDoUpdate({
        target: predictionChallenges.challengeId,
        set: { ...values, ...(keepLabels ? {} : { labelsKey: null, labelsName: null, labelsRows: null, idColumn: null, targetColumn: null }) },
      });
    await recordAudit(tx, actor, {
      kind: "predictions.settings",
      subjectId: challengeId,
      ...(before ? { before: settingsOf(before) } : {}),
      after: values,
    });
    const moved = before && (before.baseline !== input.baseline || before.target !== input.target);
    const teamIds = moved ? await teamsWithSubmissions(tx, challengeId) : [];
    await markStandingsStale(tx, teamIds);
    return teamIds;
  });
  await requestStandingsRecompute(teamIds);
}

const settingsOf = (row: PredictionSettingsInput) => ({
  metric: row.metric,
  publicPercent: row.publicPercent,
  baseline: row.baseline,
  target: row.target,
  dailyLimit: row.dailyLimit,
});

/** What a labels file's upload read (./scoring.server.ts `checkLabels`). */
export interface LabelsRead {
  key: string;
  name: string;
  rows: number;
  idColumn: string;
  targetColumn: string;
}

/** Keeps a checked labels file as the challenge's; the one it replaces is returned (to delete). Refused once a team has sent a file. */
export async function saveLabels(actor: Actor, challengeId: number, labels: LabelsRead): Promise<string | null> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select({ labelsKey: predictionChallenges.labelsKey }).from(predictionChallenges).where(eq(predictionChallenges.challengeId, challengeId)).for("update");
    if (!row) throw new PredictionError(m.settingsFirst, { status: 409 });
    if (await hasSubmissions(tx, challengeId)) throw new PredictionError(m.labelsLocked, { status: 409, field: "labels" });
    await tx
      .update(predictionChallenges)
      .set({ labelsKey: labels.key, labelsName: labels.name, labelsRows: labels.rows, idColumn: labels.idColumn, targetColumn: labels.targetColumn })
      .where(eq(predictionChallenges.challengeId, challengeId));
    await recordAudit(tx, actor, { kind: "predictions.labels", subjectId: challengeId, after: { file: labels.name, rows: labels.rows } });
    return row.labelsKey;
  });
}

/** The teams whose counted submission the view takes: every team with a scored file (a reveal moves them all). */
async function revealInTransaction(tx: Queryable, challengeId: number, at: Date | null): Promise<number[] | null> {
  const [row] = await tx
    .update(predictionChallenges)
    .set({ revealedAt: at ?? sql`now()` })
    .where(and(eq(predictionChallenges.challengeId, challengeId), sql`${predictionChallenges.revealedAt} is null`))
    .returning({ challengeId: predictionChallenges.challengeId });
  if (!row) return null;
  const teamIds = await teamsWithSubmissions(tx, challengeId);
  await markStandingsStale(tx, teamIds);
  return teamIds;
}

/**
 * Reveals a challenge's private scores (an admin's button): from now on each team's chosen file counts at its
 * private score, and every team can read its own and the leaderboard's private scores. Once only; it cannot be undone
 * (the private scores are out). False: already revealed.
 */
export async function revealPredictions(actor: Actor, challengeId: number): Promise<boolean> {
  const teamIds = await getDb().transaction(async (tx) => {
    const teamIds = await revealInTransaction(tx, challengeId, null);
    if (teamIds) await recordAudit(tx, actor, { kind: "predictions.revealed", subjectId: challengeId, after: { teams: teamIds.length } });
    return teamIds;
  });
  if (!teamIds) return false;
  await requestStandingsRecompute(teamIds);
  return true;
}

/**
 * The worker's sweep: reveals, at the event's final instant, every prediction challenge not yet revealed (its
 * revealed_at is the final instant). Returns how many.
 */
export async function revealDueChallenges(): Promise<number> {
  const due = await getDb()
    .select({ challengeId: predictionChallenges.challengeId, finalAt: eventSettings.finalAt })
    .from(predictionChallenges)
    .innerJoin(eventSettings, eq(eventSettings.id, 1))
    .where(and(sql`${predictionChallenges.revealedAt} is null`, sql`${eventSettings.finalAt} <= now()`));
  let revealed = 0;
  for (const { challengeId, finalAt } of due) {
    const teamIds = await getDb().transaction((tx) => revealInTransaction(tx, challengeId, finalAt));
    if (teamIds) {
      revealed++;
      await requestStandingsRecompute(teamIds);
    }
  }
  return revealed;
}

/** Whether the private scores are out: revealed by an admin, or the event's final instant passed. */
export function isRevealed(challenge: { revealedAt: Date | null }, finalAt: Date | null, now: Date): boolean {
  return challenge.revealedAt !== null || (finalAt !== null && finalAt.getTime() <= now.getTime());
}

const refusalMessage: Record<AnswerRefusal, string> = {
  inactive: messages.participant.challengeInactive,
  noGate: messages.participant.challengeNoGate,
  closed: messages.participant.gateClosed,
  notReleased: messages.participant.challengeNotReleased,
  locked: messages.participant.challengeLocked,
  submissionsClosed: messages.participant.submissionsClosed,
};

/**
 * Whether the team may send predictions to the challenge now (the rule every answer follows: gate, release,
 * prerequisites, submissions' close), then this kind's own: labels uploaded, not yet revealed. Throws a
 * PredictionError; returns the challenge. Asked before the file is read, and again when it is recorded.
 */
export async function assertCanSendPredictions(
  db: Queryable,
  input: { teamId: number | null; challengeId: number; now?: Date; begunAt?: Date },
): Promise<PredictionChallenge & { finalAt: Date; timeZone: string }> {
  if (input.teamId === null) throw new PredictionError(messages.participant.noTeam, { status: 403 });
  const now = input.now ?? new Date();
  const [row] = await db
    .select({ ...answerGateColumns, checking: challenges.checking, finalAt: eventSettings.finalAt, timeZone: eventSettings.timeZone })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, input.challengeId))
    .limit(1);
  if (!row) throw new PredictionError(messages.participant.challengeNotFound, { status: 404 });
  const refused = await refusalToAnswer(db, row, { teamId: input.teamId, challengeId: input.challengeId }, now, input.begunAt ?? now);
  if (refused) throw new PredictionError(refusalMessage[refused], { status: refused === "locked" ? 400 : 403 });
  const challenge = row.checking === "metric" ? await getPredictionChallenge(input.challengeId, db) : null;
  if (!challenge) throw new PredictionError(m.notMetric, { status: 409 });
  if (!challenge.labelsKey) throw new PredictionError(m.notReady, { status: 409 });
  if (isRevealed(challenge, row.finalAt, now)) throw new PredictionError(m.revealed, { status: 403 });
  return { ...challenge, finalAt: row.finalAt!, timeZone: row.timeZone ?? "UTC" };
}

/** Queues again the files still queued a minute after they were sent (their job lost with Redis): the worker's sweep. */
export async function requeueStalePredictions(): Promise<number> {
  const rows = await getDb()
    .select({ id: predictionSubmissions.id })
    .from(predictionSubmissions)
    .where(and(eq(predictionSubmissions.status, "queued"), sql`${predictionSubmissions.createdAt} < now() - interval '1 minute'`))
    .limit(500);
  // One job a file each ten minutes at most, however often the sweep runs while it waits.
  const bucket = Math.floor(Date.now() / 600_000);
  if (rows.length) await enqueueMany("predictions", rows.map((row) => ({ submissionId: row.id })), (payload) => `predictions-${payload.submissionId}-${bucket}`);
  return rows.length;
}

/**
 * The day's limit (the event's time zone's days): the team's files today, and the sender's own (in any team), so a
 * member who leaves, forms a team of their own and sends from it does not get the day's files again (docs/domain.md
 * "Prediction challenges"). Throws a 429 at the limit; returns today's date as SQL.
 */
async function assertUnderDailyLimit(db: Queryable, caller: { id: number; teamId: number | null }, challengeId: number, challenge: { timeZone: string; dailyLimit: number }) {
  const today = sql`(now() at time zone ${challenge.timeZone})::date`;
  const [count] = await db
    .select({
      team: sql<number>`count(*) filter (where ${predictionSubmissions.teamId} = ${caller.teamId ?? 0})::int`,
      sender: sql<number>`count(*) filter (where ${predictionSubmissions.userId} = ${caller.id})::int`,
    })
    .from(predictionSubmissions)
    .where(and(eq(predictionSubmissions.challengeId, challengeId), sql`${predictionSubmissions.day} = ${today}`));
  if (Math.max(count.team, count.sender) >= challenge.dailyLimit) throw new PredictionError(m.dailyLimit(challenge.dailyLimit), { status: 429 });
  return today;
}

/**
 * Asked before a file's body is read (app/glue/predictions.server.ts): whether the team may send to the challenge
 * now, and has a file left today. A team at its limit is refused before anything is stored; `sendPredictions` asks
 * again under its lock.
 */
export async function assertMaySendPredictions(caller: { id: number; teamId: number | null }, challengeId: number, begunAt = new Date()): Promise<void> {
  const challenge = await assertCanSendPredictions(getDb(), { teamId: caller.teamId, challengeId, begunAt });
  await assertUnderDailyLimit(getDb(), caller, challengeId, challenge);
}

/** A file already streamed to storage. */
export interface StoredPredictions {
  key: string;
  name: string;
  size: number;
}

/**
 * Records a team's predictions file and queues its scoring: refused past the day's limit (the event's time zone's
 * days). One at a time per challenge (its settings row locked), so two files sent at once cannot both be the last
 * one allowed. Returns the new submission's id.
 */
export async function sendPredictions(caller: { id: number; teamId: number | null }, challengeId: number, file: StoredPredictions, begunAt = new Date()): Promise<number> {
  const id = await getDb().transaction(async (tx) => {
    const challenge = await assertCanSendPredictions(tx, { teamId: caller.teamId, challengeId, begunAt });
    await tx.select({ id: predictionChallenges.challengeId }).from(predictionChallenges).where(eq(predictionChallenges.challengeId, challengeId)).for("update");
    // Again under the lock: the check before the file was read let two files at once both through.
    const today = await assertUnderDailyLimit(tx, caller, challengeId, challenge);
    const [row] = await tx
      .insert(predictionSubmissions)
      .values({ teamId: caller.teamId!, challengeId, userId: caller.id, fileKey: file.key, fileName: file.name, fileSize: file.size, day: today })
      .returning({ id: predictionSubmissions.id });
    return row.id;
  });
  await enqueue("predictions", { submissionId: id }).catch(() => undefined);
  return id;
}

/**
 * The file that counts for the team: `submissionId` (one of its scored files), or null for its latest scored one.
 * Refused once the private scores are out (a choice then would pick the best private score).
 */
export async function choosePredictions(caller: { teamId: number | null }, challengeId: number, submissionId: number | null): Promise<void> {
  if (caller.teamId === null) throw new PredictionError(messages.participant.noTeam, { status: 403 });
  const teamId = caller.teamId;
  await changeTeamThenRecompute(async (tx) => {
    const [row] = await tx
      .select({ revealedAt: predictionChallenges.revealedAt, finalAt: eventSettings.finalAt })
      .from(predictionChallenges)
      .leftJoin(eventSettings, eq(eventSettings.id, 1))
      .where(eq(predictionChallenges.challengeId, challengeId))
      .for("update", { of: predictionChallenges });
    if (!row) throw new PredictionError(m.notMetric, { status: 404 });
    if (isRevealed(row, row.finalAt, new Date())) throw new PredictionError(m.revealed, { status: 403 });
    if (submissionId === null) {
      await tx.delete(predictionChoices).where(and(eq(predictionChoices.teamId, teamId), eq(predictionChoices.challengeId, challengeId)));
    } else {
      const [mine] = await tx
        .select({ status: predictionSubmissions.status })
        .from(predictionSubmissions)
        .where(and(eq(predictionSubmissions.id, submissionId), eq(predictionSubmissions.teamId, teamId), eq(predictionSubmissions.challengeId, challengeId)));
      if (!mine) throw new PredictionError(m.notYours, { status: 404 });
      if (mine.status !== "scored") throw new PredictionError(m.notScored, { status: 409 });
      await tx
        .insert(predictionChoices)
        .values({ teamId, challengeId, submissionId })
        .onConflictDoUpdate({ target: [predictionChoices.teamId, predictionChoices.challengeId], set: { submissionId } });
    }
    await keepChoice(tx, teamId, challengeId, submissionId);
    return { value: undefined, teamId, finish: [] };
  });
}

/**
 * Kept with its time: while the board is frozen, other teams see the choice as it was at the freeze (`leaderboard`).
 * Only two of a team's choices can ever be read, so the others go: the newest (for any freeze to come) and, while the
 * board is frozen, the last made by the freeze. A team choosing again and again keeps two rows, not one each time.
 */
async function keepChoice(tx: Queryable, teamId: number, challengeId: number, submissionId: number | null) {
  const [kept] = await tx.insert(predictionChoiceHistory).values({ teamId, challengeId, submissionId }).returning({ id: predictionChoiceHistory.id });
  await tx.execute(sql`
    delete from ${predictionChoiceHistory} h
    where h.team_id = ${teamId} and h.challenge_id = ${challengeId} and h.id <> ${kept!.id}
      and h.id is distinct from (
        select at_freeze.id from ${predictionChoiceHistory} at_freeze
        join ${eventSettings} e on e.id = 1 and e.scoreboard_frozen and e.frozen_at is not null
        where at_freeze.team_id = ${teamId} and at_freeze.challenge_id = ${challengeId} and at_freeze.chosen_at <= e.frozen_at
        order by at_freeze.id desc limit 1)`);
}

/** One of the team's files as its members see it: the private score only once revealed. */
export interface OwnSubmission {
  id: number;
  fileName: string;
  fileSize: number;
  status: "queued" | "scored" | "failed";
  createdAt: Date;
  scoredAt: Date | null;
  publicScore: number | null;
  publicCenti: number | null;
  /** Null until revealed. */
  privateScore: number | null;
  privateCenti: number | null;
  faults: Faults | null;
  chosen: boolean;
  counts: boolean;
}

/**
 * The team's files for the challenge, newest first, and which one counts. `revealed` decides whether the private
 * score is read at all (it is not selected before).
 */
export async function ownSubmissions(teamId: number, challenge: PredictionChallenge, revealed: boolean, db: Queryable = getDb()): Promise<OwnSubmission[]> {
  const rows = await db
    .select({
      id: predictionSubmissions.id,
      fileName: predictionSubmissions.fileName,
      fileSize: predictionSubmissions.fileSize,
      status: predictionSubmissions.status,
      createdAt: predictionSubmissions.createdAt,
      scoredAt: predictionSubmissions.scoredAt,
      publicScore: predictionSubmissions.publicScore,
      faults: predictionSubmissions.faults,
      ...(revealed ? { privateScore: predictionSubmissions.privateScore } : {}),
      chosen: sql<boolean>`${predictionChoices.submissionId} is not null`,
    })
    .from(predictionSubmissions)
    .leftJoin(predictionChoices, eq(predictionChoices.submissionId, predictionSubmissions.id))
    .where(and(eq(predictionSubmissions.teamId, teamId), eq(predictionSubmissions.challengeId, challenge.challengeId)))
    .orderBy(desc(predictionSubmissions.id))
    .limit(200);
  const chosen = rows.find((row) => row.chosen && row.status === "scored") ?? rows.find((row) => row.status === "scored");
  return rows.map((row) => {
    const privateScore = revealed ? ((row as { privateScore?: number | null }).privateScore ?? null) : null;
    return {
      id: row.id,
      fileName: row.fileName,
      fileSize: row.fileSize,
      status: row.status,
      createdAt: row.createdAt,
      scoredAt: row.scoredAt,
      publicScore: row.publicScore,
      publicCenti: row.status === "scored" ? pointsCentiOf(row.publicScore, challenge) : null,
      privateScore,
      privateCenti: revealed && row.status === "scored" ? pointsCentiOf(privateScore, challenge) : null,
      faults: (row.faults as Faults | null) ?? null,
      chosen: row.chosen,
      counts: row === chosen,
    };
  });
}

/** How many files the team sent today (the event's days) and the limit. */
export async function sentToday(teamId: number, challengeId: number, db: Queryable = getDb()): Promise<number> {
  const [row] = await db
    .select({ sent: sql<number>`count(*)::int` })
    .from(predictionSubmissions)
    .innerJoin(eventSettings, eq(eventSettings.id, 1))
    .where(
      and(
        eq(predictionSubmissions.teamId, teamId),
        eq(predictionSubmissions.challengeId, challengeId),
        sql`${predictionSubmissions.day} = (now() at time zone ${eventSettings.timeZone})::date`,
      ),
    );
  return row?.sent ?? 0;
}

export interface LeaderboardRow {
  rank: number;
  teamId: number;
  teamName: string;
  score: number | null;
  centi: number;
  scoredAt: Date;
  files: number;
}

/**
 * The per-challenge leaderboard: each team's counted file (its choice, else its latest scored one, as the standings
 * take it) at its public score, or its private score once `revealed`; best first (an error metric: lowest), ties to
 * the earlier file. `frozenAt`: the scoreboard is frozen and the viewer sees the frozen board (a participant): other
 * teams' files scored after it are left out and each counts the file it had chosen at the freeze (a choice made
 * since moves nothing); the viewer's own team's files and choice are as they are now.
 */
export async function leaderboard(
  challenge: PredictionChallenge,
  options: { revealed: boolean; frozenAt: Date | null; ownTeamId: number | null },
  db: Queryable = getDb(),
): Promise<LeaderboardRow[]> {
  const scoreColumn = options.revealed ? sql`ps.private_score` : sql`ps.public_score`;
  const frozenAt = options.frozenAt?.toISOString() ?? null;
  const ownTeamId = options.ownTeamId ?? 0;
  const frozen = frozenAt ? sql`and (ps.scored_at <= ${frozenAt}::timestamptz or ps.team_id = ${ownTeamId})` : sql``;
  // The file each team chose: now, or (frozen, another team) its last choice made by the freeze, if any (a team's
  // choices are written under the challenge's lock, so their ids are in the order they took effect).
  const atFreeze = frozenAt
    ? sql`left join (
        select distinct on (h.team_id) h.team_id, h.submission_id from ${predictionChoiceHistory} h
        where h.challenge_id = ${challenge.challengeId} and h.chosen_at <= ${frozenAt}::timestamptz
        order by h.team_id, h.id desc
      ) fc on fc.team_id = ps.team_id`
    : sql``;
  const chosen = frozenAt ? sql`case when ps.team_id = ${ownTeamId} then ch.submission_id else fc.submission_id end` : sql`ch.submission_id`;
  const rows = await db.execute<{ team_id: number; team_name: string; score: number | null; scored_at: string | Date; files: number }>(sql`
    select counted.team_id, ${teams.name} as team_name, counted.score, counted.scored_at, counted.files from (
      select distinct on (ps.team_id) ps.team_id, ${scoreColumn} as score, ps.scored_at,
        count(*) over (partition by ps.team_id)::int as files
      from ${predictionSubmissions} ps
      left join ${predictionChoices} ch on ch.team_id = ps.team_id and ch.challenge_id = ps.challenge_id
      ${atFreeze}
      where ps.challenge_id = ${challenge.challengeId} and ps.status = 'scored' ${frozen}
      order by ps.team_id, (ps.id = ${chosen}) desc nulls last, ps.id desc
    ) counted inner join ${teams} on ${teams.id} = counted.team_id`);
  const lower = lowerIsBetter(challenge.metric);
  const list = [...rows].map((row) => ({
    teamId: Number(row.team_id),
    teamName: row.team_name,
    score: row.score === null ? null : Number(row.score),
    centi: pointsCentiOf(row.score === null ? null : Number(row.score), challenge),
    scoredAt: new Date(row.scored_at),
    files: Number(row.files),
  }));
  list.sort((a, b) => {
    if (a.score === null || b.score === null) return a.score === null ? (b.score === null ? a.scoredAt.getTime() - b.scoredAt.getTime() : 1) : -1;
    if (a.score !== b.score) return lower ? a.score - b.score : b.score - a.score;
    return a.scoredAt.getTime() - b.scoredAt.getTime();
  });
  let rank = 0;
  return list.map((row, index) => {
    const previous = list[index - 1];
    if (!previous || previous.score !== row.score) rank = index + 1;
    return { rank, ...row };
  });
}

/** Every file of the challenge, newest first, for the admins (both scores, the faults). */
export async function allSubmissions(challengeId: number, db: Queryable = getDb()) {
  return db
    .select({
      id: predictionSubmissions.id,
      teamName: teams.name,
      fileName: predictionSubmissions.fileName,
      status: predictionSubmissions.status,
      createdAt: predictionSubmissions.createdAt,
      publicScore: predictionSubmissions.publicScore,
      privateScore: predictionSubmissions.privateScore,
      faults: predictionSubmissions.faults,
    })
    .from(predictionSubmissions)
    .innerJoin(teams, eq(teams.id, predictionSubmissions.teamId))
    .where(eq(predictionSubmissions.challengeId, challengeId))
    .orderBy(desc(predictionSubmissions.id))
    .limit(500);
}

/** What /predictions/:id shows its viewer: nothing private before the reveal (docs/domain.md "Prediction challenges"). */
export async function predictionsPage(challengeId: number, viewer: { role: Role; teamId: number | null }, language: Language, now = new Date()) {
  const db = getDb();
  const row = await checkingChallenge(challengeId, "metric", viewer, now, db);
  if (!row) return null;
  const challenge = await getPredictionChallenge(challengeId, db);
  const revealed = challenge ? isRevealed(challenge, row.finalAt, now) : false;
  // The frozen board's rule (docs/domain.md "Freeze"): a participant sees other teams' files scored up to the freeze.
  const frozenAt = viewer.role === "participant" && row.frozen && row.frozenAt ? row.frozenAt : null;
  const [own, sent, board] = await Promise.all([
    challenge && viewer.teamId !== null ? ownSubmissions(viewer.teamId, challenge, revealed, db) : Promise.resolve([]),
    challenge && viewer.teamId !== null ? sentToday(viewer.teamId, challengeId, db) : Promise.resolve(0),
    challenge ? leaderboard(challenge, { revealed, frozenAt, ownTeamId: viewer.teamId }, db) : Promise.resolve([]),
  ]);
  return {
    challenge: {
      id: row.id,
      title: inLanguage(language, row.title, row.titleAr),
      points: row.points,
      metric: challenge?.metric ?? null,
      publicPercent: challenge?.publicPercent ?? null,
      dailyLimit: challenge?.dailyLimit ?? null,
      idColumn: challenge?.idColumn ?? null,
      targetColumn: challenge?.targetColumn ?? null,
      ready: Boolean(challenge?.labelsKey),
      lowerIsBetter: challenge ? lowerIsBetter(challenge.metric) : false,
    },
    revealed,
    frozen: frozenAt !== null,
    timeZone: row.timeZone ?? "UTC",
    teamId: viewer.teamId,
    sentToday: sent,
    maxBytes: PREDICTIONS_MAX_BYTES,
    own: own.map((file) => ({ ...file, createdAt: file.createdAt.toISOString(), scoredAt: file.scoredAt?.toISOString() ?? null })),
    board: board.map((line) => ({ ...line, scoredAt: line.scoredAt.toISOString() })),
  };
}

export type PredictionsPageData = NonNullable<Awaited<ReturnType<typeof predictionsPage>>>;

/** What /dashboard/predictions/:id shows an admin: the settings, the labels' summary, the reveal, every file. */
export async function adminPredictionsPage(challengeId: number) {
  const [row] = await getDb()
    .select({ id: challenges.id, title: challenges.title, points: challenges.points, checking: challenges.checking, finalAt: eventSettings.finalAt, timeZone: eventSettings.timeZone })
    .from(challenges)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, challengeId));
  if (!row || row.checking !== "metric") return null;
  const settings = await getPredictionChallenge(challengeId);
  const files = await allSubmissions(challengeId);
  return {
    challenge: { id: row.id, title: row.title, points: row.points },
    settings: settings
      ? {
          metric: settings.metric,
          publicPercent: settings.publicPercent,
          baseline: settings.baseline,
          target: settings.target,
          dailyLimit: settings.dailyLimit,
          labelsName: settings.labelsName,
          labelsRows: settings.labelsRows,
          columns: settings.idColumn && settings.targetColumn ? `${settings.idColumn},${settings.targetColumn}` : null,
        }
      : null,
    revealed: settings ? isRevealed(settings, row.finalAt, new Date()) : false,
    timeZone: row.timeZone ?? "UTC",
    files: files.map((file) => ({ ...file, createdAt: file.createdAt.toISOString(), faults: (file.faults as Faults | null) ?? null })),
  };
}
