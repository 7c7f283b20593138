/**
 * A team's answer to a flag challenge, checked at once (docs/domain.md "Flag challenges"): the verdict, the
 * attempt row, the solve and the standings mark in one transaction, under a lock per team and challenge, so
 * two members answering at the same instant make one solve and each is told the truth. Every refusal is a
 * FlagError with its 4xx; a flag never leaves this module (records say "answer n").
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { jsonDate, parsedJson } from "../../../db/json.ts";
import { challengeFlags, challenges, eventSettings, flagAttempts, flagSharing, flagSolves, gates, teamFlags, teams } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { answerGateColumns, challengeGateJoin, refusalToAnswer } from "../challenges/visibility.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestBatchRecompute, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { hasControlCharacters } from "./answers.ts";
import { announceFirstBlood, isFirstSolve } from "./first-blood.server.ts";
import { challengeValue } from "./decay.ts";
import { attemptsLeft, nextGuessAt, secondsUntil } from "./limits.ts";
import { answerTooLong, flagDigest, matchAnswer, normalisedAnswer, perTeamFlag, type FlagAnswer } from "./matching.server.ts";

const m = messages.flags;

export type FlagRefusal =
  | "noTeam"
  | "notFound"
  | "inactive"
  | "noGate"
  | "closed"
  | "submissionsClosed"
  | "notFlag"
  | "empty"
  | "tooLong"
  | "controlCharacters"
  | "alreadySolved"
  | "wait"
  | "noAttemptsLeft"
  | "busy"
  | "notReleased"
  | "locked";

const refusalText: Record<Exclude<FlagRefusal, "wait">, string> = {
  noTeam: m.noTeam,
  notFound: messages.participant.challengeNotFound,
  inactive: messages.participant.challengeInactive,
  noGate: messages.participant.challengeNoGate,
  closed: messages.participant.gateClosed,
  submissionsClosed: messages.participant.submissionsClosed,
  notFlag: m.notFlag,
  empty: m.empty,
  tooLong: m.tooLong,
  controlCharacters: m.controlCharacters,
  alreadySolved: m.alreadySolved,
  noAttemptsLeft: m.noAttemptsLeft,
  busy: m.busy,
  notReleased: messages.participant.challengeNotReleased,
  locked: messages.participant.challengeLocked,
};

const refusalStatus: Record<FlagRefusal, number> = {
  noTeam: 403,
  notFound: 404,
  inactive: 403,
  noGate: 403,
  closed: 403,
  submissionsClosed: 403,
  notFlag: 409,
  empty: 400,
  tooLong: 413,
  controlCharacters: 400,
  alreadySolved: 409,
  wait: 429,
  noAttemptsLeft: 403,
  busy: 429,
  notReleased: 403,
  locked: 403,
};

/** A refused answer: its message, its status (429 with `retryAfterSeconds` for a wait), the input to blame. */
export class FlagError extends DomainError {
  constructor(
    public readonly code: FlagRefusal,
    retryAfterSeconds?: number,
  ) {
    super(code === "wait" ? m.wait(retryAfterSeconds ?? 1) : refusalText[code], { status: refusalStatus[code], field: "answer", retryAfterSeconds });
  }
}

export type FlagVerdict =
  | {
      verdict: "correct";
      challengeId: number;
      /** What the solve counts now (a dynamic challenge's value falls with later solves). */
      points: number;
      solvedAt: Date;
      message: string;
      /** The challenge's first solve. */
      firstBlood: boolean;
      /** The teams whose standing the solve changes: the team, or every solver of a dynamic challenge. */
      solvers: number[];
    }
  | {
      verdict: "incorrect";
      challengeId: number;
      /** Wrong answers the team may still send (null: no maximum). */
      attemptsLeft: number | null;
      /** Seconds before the next answer is taken (0: at once). */
      waitSeconds: number;
      message: string;
    };

/** The answer as matched, or the refusal (checked before any lock or read). */
export function checkedAnswer(answer: string): string {
  if (answerTooLong(answer)) throw new FlagError("tooLong");
  const given = normalisedAnswer(answer);
  if (given === "") throw new FlagError("empty");
  if (hasControlCharacters(given)) throw new FlagError("controlCharacters");
  return given;
}

/**
 * The class key of the advisory lock that serialises a team's answers to one challenge (key: the team
 * and the challenge). The standings locks use 4242 and 4243, submissions 4244 (app/modules/...).
 */
const FLAG_LOCK = 4245;

/** Holds the team's answers to the challenge until the transaction ends (a reset takes it too). */
export async function lockTeamAnswers(tx: Queryable, teamId: number, challengeId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${FLAG_LOCK}, ${teamId} # (${challengeId} << 16))`);
}

/** The challenge as an answer to it reads it, with the event's settings (one row). */
async function readChallenge(tx: Queryable, challengeId: number) {
  const [row] = await tx
    .select({
      ...answerGateColumns,
      checking: challenges.checking,
      points: challenges.points,
      secret: challenges.flagSecret,
      maxAttempts: challenges.maxAttempts,
      scoring: challenges.scoring,
      minimumPoints: challenges.minimumPoints,
      decay: challenges.decay,
      wrongPerMinute: sql<number>`coalesce(${challenges.wrongPerMinute}, ${eventSettings.flagWrongPerMinute}, 5)`.mapWith(Number),
    })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, challengeId))
    .limit(1);
  return row ?? null;
}

/** A challenge's accepted answers, in order. */
export async function readFlagAnswers(tx: Queryable, challengeId: number): Promise<FlagAnswer[]> {
  return tx.select({ kind: challengeFlags.kind, value: challengeFlags.value }).from(challengeFlags).where(eq(challengeFlags.challengeId, challengeId)).orderBy(asc(challengeFlags.position));
}

/** The team's standing on a challenge: its solve, and its counted wrong answers (the latest `limit` times). */
async function readTeamState(tx: Queryable, teamId: number, challengeId: number, limit: number) {
  const [row] = await tx.execute<{ solved_at: string | null; wrong: number; recent: unknown }>(sql`select
      (select ${flagSolves.solvedAt} from ${flagSolves} where ${flagSolves.teamId} = ${teamId} and ${flagSolves.challengeId} = ${challengeId}) as solved_at,
      (select count(*)::int from ${flagAttempts} where ${flagAttempts.teamId} = ${teamId} and ${flagAttempts.challengeId} = ${challengeId}
        and ${flagAttempts.verdict} = 'incorrect' and ${flagAttempts.counted}) as wrong,
      (select coalesce(json_agg(recent.at order by recent.at desc), '[]'::json) from (select ${flagAttempts.at} as at from ${flagAttempts}
        where ${flagAttempts.teamId} = ${teamId} and ${flagAttempts.challengeId} = ${challengeId} and ${flagAttempts.verdict} = 'incorrect' and ${flagAttempts.counted}
        order by ${flagAttempts.at} desc limit ${limit}) recent) as recent`);
  return {
    solvedAt: row.solved_at === null ? null : new Date(row.solved_at),
    wrong: Number(row.wrong),
    recent: (parsedJson(row.recent) as string[]).map((at) => jsonDate(at)),
  };
}

/** What a team's page shows of a flag challenge: solved, attempts left, how long to wait. */
export interface TeamFlagState {
  solvedAt: Date | null;
  wrongCount: number;
  attemptsLeft: number | null;
  /** The challenge's maximum of wrong answers (null: none). */
  maxAttempts: number | null;
  waitSeconds: number;
}

export async function teamFlagState(teamId: number, challengeId: number, now = new Date(), db: Queryable = getDb()): Promise<TeamFlagState | null> {
  const challenge = await readChallenge(db, challengeId);
  if (!challenge || challenge.checking !== "flag") return null;
  const state = await readTeamState(db, teamId, challengeId, challenge.wrongPerMinute);
  return {
    solvedAt: state.solvedAt,
    wrongCount: state.wrong,
    attemptsLeft: attemptsLeft(challenge.maxAttempts, state.wrong),
    maxAttempts: challenge.maxAttempts,
    waitSeconds: secondsUntil(nextGuessAt(state.recent, state.wrong, challenge.wrongPerMinute), now),
  };
}

/**
 * A member's answer: checked, recorded, and (when right) the team's solve. Throws a FlagError for a
 * refusal (nothing recorded); a wrong answer is recorded and answered "incorrect" (never thrown). `begunAt`:
 * when the request arrived (an answer begun before submissions close is taken).
 */
export async function sendFlag(input: {
  actor: Actor & { id: number };
  teamId: number | null;
  challengeId: number;
  answer: string;
  now?: Date;
  begunAt?: Date;
}): Promise<FlagVerdict> {
  if (input.teamId === null) throw new FlagError("noTeam");
  const teamId = input.teamId;
  const given = checkedAnswer(input.answer);
  const verdict = await inTurn(`${teamId}:${input.challengeId}`, () => checkInTransaction(input, teamId, given));
  if (verdict.verdict === "correct") {
    // A dynamic challenge's value fell for every solver: one batch, one event (the outbox rows stand behind it).
    if (verdict.solvers.length > 1) await requestBatchRecompute(verdict.solvers, { challengeId: input.challengeId, value: verdict.points });
    else await requestStandingsRecompute(verdict.solvers);
    if (verdict.firstBlood) await announceFirstBlood(input.challengeId);
  }
  return verdict;
}

/**
 * A team's answers to one challenge take turns in this process before they take a database connection:
 * a flood of one team's guesses waits here (at most MAX_WAITING_TURNS, the rest refused at once with a
 * 429), never in the pool, where it would hold connections other players' pages need. Across processes
 * the advisory lock in the transaction makes the turns.
 */
const turns = new Map<string, { tail: Promise<unknown>; waiting: number }>();
export const MAX_WAITING_TURNS = 4;

async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const turn = turns.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
  if (turn.waiting >= MAX_WAITING_TURNS) throw new FlagError("busy");
  turn.waiting += 1;
  turns.set(key, turn);
  const run = turn.tail.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turn.tail = settled;
  try {
    return await run;
  } finally {
    turn.waiting -= 1;
    if (turn.waiting === 0 && turn.tail === settled) turns.delete(key);
  }
}

async function checkInTransaction(input: Parameters<typeof sendFlag>[0], teamId: number, given: string): Promise<FlagVerdict> {
  return getDb().transaction(async (tx) => {
    await lockTeamAnswers(tx, teamId, input.challengeId);
    const now = input.now ?? new Date();
    const challenge = await readChallenge(tx, input.challengeId);
    if (!challenge) throw new FlagError("notFound");
    const refused = await refusalToAnswer(tx, challenge, { teamId, challengeId: input.challengeId }, now, input.begunAt ?? now);
    if (refused) throw new FlagError(refused);
    if (challenge.checking !== "flag") throw new FlagError("notFlag");
    const limit = challenge.wrongPerMinute;
    const state = await readTeamState(tx, teamId, input.challengeId, limit);
    if (state.solvedAt) throw new FlagError("alreadySolved");
    if (challenge.maxAttempts !== null && state.wrong >= challenge.maxAttempts) throw new FlagError("noAttemptsLeft");
    const waitBefore = secondsUntil(nextGuessAt(state.recent, state.wrong, limit), now);
    if (waitBefore > 0) throw new FlagError("wait", waitBefore);

    const answers = await readFlagAnswers(tx, input.challengeId);
    const perTeam = answers.some((answer) => answer.kind === "per_team");
    const matched = matchAnswer(answers, given, { id: teamId, secret: challenge.secret });
    if (matched !== null) {
      // Solves of a challenge take turns on its row: the order of their times is the order they were made in
      // (the first blood is the first to commit), and only one can be the first.
      await tx.execute(sql`select 1 from ${challenges} where ${challenges.id} = ${input.challengeId} for no key update`);
      // The database's clock, read once the row is held: every web process orders solves by the same clock.
      const [solve] = await tx
        .insert(flagSolves)
        .values({ teamId, challengeId: input.challengeId, userId: input.actor.id, solvedAt: input.now ?? sql`clock_timestamp()` })
        .returning({ solvedAt: flagSolves.solvedAt });
      const solvedAt = solve.solvedAt;
      await tx.insert(flagAttempts).values({ teamId, userId: input.actor.id, challengeId: input.challengeId, at: solvedAt, verdict: "correct", matched });
      const firstBlood = await isFirstSolve(tx, input.challengeId, teamId);
      // Dynamic points: this solve lowers what every solver counts, so every solver's standing is recomputed.
      const solvers =
        challenge.scoring === "dynamic"
          ? (await tx.select({ teamId: flagSolves.teamId }).from(flagSolves).where(eq(flagSolves.challengeId, input.challengeId))).map((row) => row.teamId)
          : [teamId];
      await markStandingsStale(tx, solvers);
      const points = challengeValue(challenge, solvers.length);
      await recordAudit(tx, input.actor, {
        kind: "flag.solved",
        teamId,
        userId: input.actor.id,
        subjectId: input.challengeId,
        after: { challenge: input.challengeId, matched: `answer ${matched}`, points },
      });
      return { verdict: "correct" as const, challengeId: input.challengeId, points, solvedAt, firstBlood, solvers, message: m.correct(points) };
    }
    // A wrong answer keeps what was typed (organisers read typos), except where flags are per team: there
    // it may be another team's flag, which is not kept; it is looked up, and a match is a sharing signal.
    await tx.insert(flagAttempts).values({
      teamId,
      userId: input.actor.id,
      challengeId: input.challengeId,
      at: now,
      verdict: "incorrect",
      answer: perTeam ? null : given,
    });
    if (perTeam && challenge.secret) await recordSharing(tx, { challengeId: input.challengeId, teamId, userId: input.actor.id, given, secret: challenge.secret, answers, at: now });
    const wrong = state.wrong + 1;
    const left = attemptsLeft(challenge.maxAttempts, wrong);
    const waitSeconds = secondsUntil(nextGuessAt([now, ...state.recent], wrong, limit), now);
    const message = waitSeconds > 0 && left !== 0 ? m.incorrectWait(waitSeconds) : left !== null ? m.incorrectAttemptsLeft(left) : m.incorrect;
    return { verdict: "incorrect" as const, challengeId: input.challengeId, attemptsLeft: left, waitSeconds, message };
  });
}

/**
 * Fills team_flags for a challenge's teams that lack a row (a team made since the challenge got its per-team
 * answer), then records a sharing signal if the answer is another team's flag. Looked up by digest: no
 * team's flag is derived to find it.
 */
async function recordSharing(
  tx: Queryable,
  input: { challengeId: number; teamId: number; userId: number; given: string; secret: string; answers: readonly FlagAnswer[]; at: Date },
) {
  await syncTeamFlags(tx, input.challengeId, input.secret, input.answers);
  const [owner] = await tx
    .select({ teamId: teamFlags.teamId })
    .from(teamFlags)
    .where(and(eq(teamFlags.challengeId, input.challengeId), eq(teamFlags.digest, flagDigest(input.given))))
    .limit(1);
  if (owner && owner.teamId !== input.teamId) {
    await tx.insert(flagSharing).values({ challengeId: input.challengeId, teamId: input.teamId, ownerTeamId: owner.teamId, userId: input.userId, at: input.at });
  }
}

/** Every team's per-team flag digest for the challenge's first per-team answer, for the teams without one. */
export async function syncTeamFlags(tx: Queryable, challengeId: number, secret: string, answers: readonly FlagAnswer[]) {
  const wrapper = answers.find((answer) => answer.kind === "per_team")?.value.trim();
  if (wrapper === undefined) return;
  const missing = await tx.execute<{ id: number }>(
    sql`select ${teams.id} as id from ${teams} where not exists (select 1 from ${teamFlags} where ${teamFlags.challengeId} = ${challengeId} and ${teamFlags.teamId} = ${teams.id})`,
  );
  const rows = missing.map((team) => ({ challengeId, teamId: Number(team.id), digest: flagDigest(perTeamFlag(secret, Number(team.id), wrapper)) }));
  for (let start = 0; start < rows.length; start += 1000) {
    await tx.insert(teamFlags).values(rows.slice(start, start + 1000)).onConflictDoNothing();
  }
}

/** An admin's test of an answer: which answer it matches (as team `asTeamId` for per-team ones). Records nothing. */
export async function tryFlag(challengeId: number, answer: string, asTeamId: number | null = null): Promise<{ matched: number | null; message: string }> {
  const given = checkedAnswer(answer);
  const [challenge] = await getDb().select({ secret: challenges.flagSecret }).from(challenges).where(eq(challenges.id, challengeId));
  if (!challenge) throw new FlagError("notFound");
  const matched = matchAnswer(await readFlagAnswers(getDb(), challengeId), given, { id: asTeamId, secret: challenge.secret });
  return { matched, message: matched === null ? m.matchedNothing : m.matchedAnswer(matched) };
}

/** The newest attempts first (for the page and tests): kept here so that the columns read stay with their rule. */
export const attemptOrder = [desc(flagAttempts.at), desc(flagAttempts.id)];
