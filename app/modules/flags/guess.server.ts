/**
 * A team's answer to a flag challenge, checked at once (docs/domain.md "Flag challenges"): the verdict, the
 * attempt row, the solve and the standings mark in one transaction, under a lock per team and challenge, so
 * two members answering at the same instant make one solve and each is told the truth. Every refusal is a
 * FlagError with its 4xx; a flag never leaves this module (records say "answer n").
 */
import { asc, desc, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { PLANS_TO_SETTLE, prebuilt, rowsOf, sendInOrder, type Prebuilt } from "../../../db/in-order.ts";
import { parsedJson } from "../../../db/json.ts";
import {
  challengeFlags,
  challenges,
  eventSettings,
  flagAttempts,
  flagSharing,
  flagSolveCounts,
  flagSolves,
  flagTries,
  gates,
  standingsOutbox,
  teamFlags,
  teams,
  users,
} from "../../../db/schema.ts";
import { isLockTimeout, isStatementFault } from "../../../db/statement-fault.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { groupCommit } from "../../infrastructure/group-commit.ts";
import { getMetrics } from "../../infrastructure/metrics.server.ts";
import { auditInsertFrom, auditValuesOf, type Actor } from "../audit/audit.server.ts";
import { EVENT_DATA_PREFIX, FLAG_RESET_PREFIX, isHearingChanges as isHearingFlagResets, onNotice, watchCallerChanges } from "../auth/caller-changes.server.ts";
import { challengeGateJoin, hasPrerequisitesSql, missingPrerequisitesSql, refusalToEveryTeam, type AnswerGate } from "../challenges/visibility.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { recomputeWithOthers } from "../standings/batcher.server.ts";
import { requestSolversRecompute } from "./dynamic-solvers.server.ts";
import { submissionsCloseSql } from "../submissions/close.ts";
import { hasControlCharacters } from "./answers.ts";
import { announceFirstBlood } from "./first-blood.server.ts";
import { challengeValue } from "./decay.ts";
import { attemptsLeft, secondsUntil } from "./limits.ts";
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
  | "held"
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
  held: m.held,
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
  held: 429,
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
      /** The team whose standing the solve changes at once (a dynamic challenge's other solvers follow: dynamic-solvers.server.ts). */
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

/** A challenge's accepted answers, in order. */
export async function readFlagAnswers(tx: Queryable, challengeId: number): Promise<FlagAnswer[]> {
  return tx.select({ kind: challengeFlags.kind, value: challengeFlags.value }).from(challengeFlags).where(eq(challengeFlags.challengeId, challengeId)).orderBy(asc(challengeFlags.position));
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

/** A team's row of a challenge (flag_tries) as the rule reads it: its wait by gk_flag_next_guess_at (migration 0024). */
const teamStateStatement = prebuilt(["teamId", "challengeId"], ({ teamId, challengeId }) =>
  sql`select ${challenges.checking} as checking, ${challenges.maxAttempts} as max_attempts, t.wrong as wrong,
      (select s.solved_at from ${flagSolves} s where s.team_id = ${teamId} and s.challenge_id = ${challenges.id}) as solved_at,
      gk_flag_next_guess_at(t.wrong, t.recent, ${wrongPerMinuteSql}) as next_at
    from ${challenges} left join ${eventSettings} on ${eventSettings.id} = 1
      left join ${flagTries} t on t.team_id = ${teamId} and t.challenge_id = ${challenges.id}
    where ${challenges.id} = ${challengeId}`,
);

export async function teamFlagState(teamId: number, challengeId: number, now = new Date(), db: Queryable = getDb()): Promise<TeamFlagState | null> {
  const [result] = await sendInOrder(db, [teamStateStatement({ teamId, challengeId })]);
  const [row] = rowsOf(result);
  if (!row || row.checking !== "flag") return null;
  const wrong = Number(row.wrong ?? 0);
  const maxAttempts = row.max_attempts === null ? null : Number(row.max_attempts);
  return {
    solvedAt: dateOrNull(row.solved_at),
    wrongCount: wrong,
    attemptsLeft: attemptsLeft(maxAttempts, wrong),
    maxAttempts,
    waitSeconds: secondsUntil(dateOrNull(row.next_at), now),
  };
}

function dateOrNull(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(String(value));
}

/**
 * A member's answer: checked, recorded, and (when right) the team's solve. Throws a FlagError for a
 * refusal (nothing recorded); a wrong answer is recorded and answered "incorrect" (never thrown). `begunAt`:
 * when the request arrived (an answer begun before submissions close is taken).
 *
 * The challenge (its gate, answers, limits) comes from what this process remembers (flagChallenge); the team's
 * part is one statement, shared with the other answers of the moment (wrong ones in one group, right ones in
 * another); a right one then has its team's standing recomputed (docs/domain.md "Flag challenges").
 */
export async function sendFlag(input: {
  actor: Actor & { id: number };
  teamId: number | null;
  challengeId: number;
  answer: string;
  now?: Date;
  begunAt?: Date;
  /**
   * How long a right answer's verdict waits for its team's standing to move (BOARD_WAIT_MS by default: a page's
   * post, whose next page then shows the board moved; the API's callers answer at once and hear the board live).
   */
  boardWaitMs?: number;
}): Promise<FlagVerdict> {
  if (input.teamId === null) throw new FlagError("noTeam");
  const teamId = input.teamId;
  const given = checkedAnswer(input.answer);
  // Not awaited: until the process hears admins' resets it remembers no refusal (rememberedRefusal).
  void watchCallerChanges();
  const known = rememberedRefusal(teamId, input.challengeId, input.now ?? new Date());
  if (known) throw known;
  const verdict = await inTurn(`${teamId}:${input.challengeId}`, () => checkAnswer(input, teamId, given));
  if (verdict.verdict === "correct" && verdict.firstBlood) await announceFirstBlood(input.challengeId);
  return verdict;
}

/**
 * A team's answers to one challenge take turns in this process before they take a database connection:
 * a flood of one team's guesses waits here (at most MAX_WAITING_TURNS, the rest refused at once with a
 * 429), never in the pool, where it would hold connections other players' pages need. Across processes
 * the team's row (flag_tries), locked by the verdict's statement, makes the turns.
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

/** The challenge's refusal to every team, its mode, then the match and the team's statement; once more if the challenge changed meanwhile. */
async function checkAnswer(input: Parameters<typeof sendFlag>[0], teamId: number, given: string): Promise<FlagVerdict> {
  const now = input.now ?? new Date();
  // What was forgotten before now is not remembered again from what this answer reads (remember).
  const readIn = generation;
  for (let fresh = false; ; fresh = true) {
    const challenge = await flagChallenge(input.challengeId, { fresh });
    // What the process remembers may be old: a refusal from it is made only on a challenge read afresh.
    const refused = challenge === null ? "notFound" : (refusalToEveryTeam(challenge, now, input.begunAt ?? now) ?? (challenge.checking !== "flag" ? "notFlag" : null));
    if (refused !== null) {
      if (fresh) throw new FlagError(refused);
      continue;
    }
    // Before the match, so that a right answer and a wrong one take the same way until their statement.
    if (challenge!.perTeam && challenge!.secret && Date.now() - challenge!.syncedAt > TEAM_FLAGS_SYNC_MS) {
      await syncTeamFlags(getDb(), challenge!.id, challenge!.secret, challenge!.answers);
      challenge!.syncedAt = Date.now();
    }
    const matched = matchAnswer(challenge!.answers, given, { id: teamId, secret: challenge!.secret });
    const verdict = matched === null ? await recordWrong(input, challenge!, teamId, given, now, readIn) : await recordSolve(input, challenge!, teamId, matched, now, readIn);
    if (verdict !== STALE) return verdict;
    // The challenge, its gate or the event's settings changed since it was read: nothing was recorded.
    if (fresh) throw new FlagError("busy");
  }
}

/** The answer's statement found the challenge changed since the process read it: nothing recorded. */
const STALE = Symbol("stale");

/** The versions a remembered challenge was read under (migration 0016; answers and prerequisites move the challenges'). */
const challengeLabelSql = sql`(select string_agg(version::text, ',' order by table_name) from event_data_versions where table_name in ('challenges', 'event_settings', 'gates'))`;
const wrongPerMinuteSql = sql`coalesce(${challenges.wrongPerMinute}, ${eventSettings.flagWrongPerMinute}, 5)`;

/** A flag challenge as its answers are checked: read once per change of the challenges, the gates or the event's settings. */
export interface FlagChallenge extends AnswerGate {
  id: number;
  checking: "judges" | "flag";
  title: string;
  points: number;
  secret: string | null;
  maxAttempts: number | null;
  scoring: "static" | "dynamic";
  minimumPoints: number | null;
  decay: number | null;
  wrongPerMinute: number;
  hasPrerequisites: boolean;
  answers: FlagAnswer[];
  perTeam: boolean;
  /** The versions it was read under: the answer's statement records only while they are still these. */
  label: string;
  /** When the per-team flags' digests were last completed (epoch ms; per-team challenges only). */
  syncedAt: number;
  /** The freeze's instant while the board is frozen (null: live). A freeze moves the settings' version. */
  frozenAt: Date | null;
}

const flagChallengeStatement = prebuilt(["challengeId"], ({ challengeId }) =>
  sql`select ${challenges.id} as id, ${challenges.status} as status, ${challenges.wave} as wave, ${gates.opensAt} as opens_at,
      ${challenges.releaseAfterMinutes} as release_after_minutes, ${submissionsCloseSql} as closes_at, ${challenges.checking} as checking,
      ${challenges.title} as title, ${challenges.points} as points, ${challenges.flagSecret} as secret, ${challenges.maxAttempts} as max_attempts,
      ${challenges.scoring} as scoring, ${challenges.minimumPoints} as minimum_points, ${challenges.decay} as decay,
      ${wrongPerMinuteSql} as wrong_per_minute, ${hasPrerequisitesSql} as has_prerequisites,
      (select coalesce(json_agg(json_build_object('kind', f.kind, 'value', f.value) order by f.position), '[]'::json)
        from ${challengeFlags} f where f.challenge_id = ${challenges.id}) as answers,
      ${challengeLabelSql} as label, case when ${eventSettings.scoreboardFrozen} then ${eventSettings.frozenAt} end as frozen_at
    from ${challenges} left join ${gates} on ${challengeGateJoin} left join ${eventSettings} on ${eventSettings.id} = 1
    where ${challenges.id} = ${challengeId}`,
);

const remembered = new Map<number, Promise<FlagChallenge | null>>();
const REMEMBERED_MAX = 1000;

/** The challenge as remembered by this process, or read (`fresh`: always read, and remembered). */
export function flagChallenge(challengeId: number, { fresh = false } = {}): Promise<FlagChallenge | null> {
  const hit = remembered.get(challengeId);
  if (hit && !fresh) return hit;
  if (!hit && remembered.size >= REMEMBERED_MAX) remembered.delete(remembered.keys().next().value as number);
  const read = readFlagChallenge(challengeId);
  remembered.set(challengeId, read);
  read.then(
    (challenge) => {
      if (challenge === null && remembered.get(challengeId) === read) remembered.delete(challengeId);
    },
    () => {
      if (remembered.get(challengeId) === read) remembered.delete(challengeId);
    },
  );
  return read;
}

async function readFlagChallenge(challengeId: number): Promise<FlagChallenge | null> {
  const [result] = await sendInOrder(getDb(), [flagChallengeStatement({ challengeId })]);
  const [row] = rowsOf(result);
  if (!row) return null;
  const answers = parsedJson(row.answers) as FlagAnswer[];
  return {
    id: Number(row.id),
    status: row.status as FlagChallenge["status"],
    wave: row.wave === null ? null : Number(row.wave),
    opensAt: dateOrNull(row.opens_at),
    releaseAfterMinutes: row.release_after_minutes === null ? null : Number(row.release_after_minutes),
    closesAt: dateOrNull(row.closes_at),
    checking: row.checking as FlagChallenge["checking"],
    title: String(row.title),
    points: Number(row.points),
    secret: (row.secret as string | null) ?? null,
    maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
    scoring: row.scoring as FlagChallenge["scoring"],
    minimumPoints: row.minimum_points === null ? null : Number(row.minimum_points),
    decay: row.decay === null ? null : Number(row.decay),
    wrongPerMinute: Number(row.wrong_per_minute),
    hasPrerequisites: row.has_prerequisites === true,
    answers,
    perTeam: answers.some((answer) => answer.kind === "per_team"),
    label: String(row.label),
    syncedAt: 0,
    frozenAt: dateOrNull(row.frozen_at),
  };
}

/**
 * Whether the team may answer now, on its row `t` (flag_tries) as last committed, under the row's lock: not solved,
 * attempts left, no wait (gk_flag_next_guess_at). Both answers' statements ask it in their upsert's condition, so
 * two answers of one team take turns, in any web process.
 */
function mayAnswerSql(limit: SQLWrapper, maxAttempts: SQLWrapper, at: SQLWrapper): SQL {
  return sql`t.solved_at is null and (${maxAttempts}::int is null or t.wrong < ${maxAttempts}::int)
        and coalesce(gk_flag_next_guess_at(t.wrong, t.recent, ${limit}::int) <= ${at}::timestamptz, true)`;
}

/** An answer as a batch's statement takes it (one element of its JSON array): what every answer carries. */
interface AnswerRow {
  team_id: number;
  challenge_id: number;
  /** The versions its challenge was read under (`fresh`). */
  label: string;
  lim: number;
  max_attempts: number | null;
  at: string;
  user_id: number;
  /** Its place in the batch that sends it (answerGroup). */
  ord?: number;
}

function answerRowOf(challenge: FlagChallenge, teamId: number, userId: number, now: Date): AnswerRow {
  return { team_id: teamId, challenge_id: challenge.id, label: challenge.label, lim: challenge.wrongPerMinute, max_attempts: challenge.maxAttempts, at: now.toISOString(), user_id: userId };
}

/** A wrong answer as the batch's statement takes it. */
interface WrongAnswerRow extends AnswerRow {
  /** What was typed (null where flags are per team: it may be another team's flag). */
  answer: string | null;
  /** Per-team challenges: the answer's digest, looked up among the other teams' flags (a sharing signal). */
  digest: string | null;
}

/**
 * Wrong answers, any number of teams' and challenges', in one statement (each team and challenge once): for each
 * answer `fresh` (its challenge as remembered), `open` (fresh, and the team has solved the prerequisites), the team's
 * row inserted or updated only if it may answer now (mayAnswerSql; the rows taken in key order, so two batches lock
 * their common rows in the same order), the attempt row, and another team's per-team flag recognised. Its
 * row of the result, by `ord`, says what became of it.
 *
 * `lockWaitMs`: how long the statement waits for any one lock (Postgres's `lock_timeout`, set for this statement's
 * own transaction by `versions`, which every write reads first). A row another transaction holds (the team's solve
 * in another process, an admin's edit of a team or a user) then fails the batch after that wait, instead of holding
 * up every answer of this process behind it (and, the driver pipelining, the statements queued on its connection);
 * each answer goes again alone, and one whose row is still held is refused ("held": send it again).
 *
 * `prerequisites`: the statement for answers to challenges with prerequisites (the team's are checked) or the one for
 * the others. Apart, the others' statement costs a third as much to plan (0.6 ms against 1.8: the check reads the
 * `team_answers` view), and Postgres may plan it again for its values at every run (docs/PERFORMANCE.md).
 */
function wrongBatchStatement(prerequisites: boolean) {
  return prebuilt(["answers", "lockWaitMs"], ({ answers, lockWaitMs }) => {
    const own = (column: string) => sql.raw(`(select a.${column} from allowed a where a.team_id = excluded.team_id and a.challenge_id = excluded.challenge_id)`);
    return sql`with v as materialized (select * from json_to_recordset(${answers}::json) as v(ord int, team_id int, challenge_id int, label text, lim int,
          max_attempts int, at timestamptz, user_id int, answer text, digest text)),
        versions as materialized (select ${challengeLabelSql} as label,
          set_config('lock_timeout', ${lockWaitMs}::int || 'ms', true) as waits),
        allowed as materialized (select v.* from v, versions where v.label = versions.label
          ${prerequisites ? sql`and json_array_length(${missingPrerequisitesSql(sql`v.challenge_id`, sql`v.team_id`)}) = 0` : sql``}),
        tried as (
          insert into ${flagTries} as t (team_id, challenge_id, wrong, recent) select team_id, challenge_id, 1, array[at] from allowed order by team_id, challenge_id
          on conflict (team_id, challenge_id) do update set wrong = t.wrong + 1, recent = (excluded.recent || t.recent)[1:${own("lim")}]
          where ${mayAnswerSql(own("lim"), own("max_attempts"), sql`excluded.recent[1]`)}
          returning t.team_id, t.challenge_id, t.wrong, t.recent),
        attempt as (insert into ${flagAttempts} (team_id, user_id, challenge_id, at, verdict, answer)
          select a.team_id, a.user_id, a.challenge_id, a.at, 'incorrect', a.answer from tried join allowed a using (team_id, challenge_id) order by a.ord),
        sharing as (insert into ${flagSharing} (challenge_id, team_id, owner_team_id, user_id, at)
          select a.challenge_id, a.team_id, owner.team_id, a.user_id, a.at from tried join allowed a using (team_id, challenge_id)
            join ${teamFlags} owner on owner.challenge_id = a.challenge_id and owner.digest = a.digest and owner.team_id <> a.team_id)
        select v.ord, v.label = versions.label as fresh, exists (select 1 from allowed a where a.ord = v.ord) as open, tried.wrong,
          gk_flag_next_guess_at(tried.wrong, tried.recent, v.lim) as next_at
        from v cross join versions left join tried using (team_id, challenge_id) order by v.ord`;
  });
}
const wrongBatchStatements = [wrongBatchStatement(false), wrongBatchStatement(true)];

/** Answers (wrong or right ones) in one batch at most (one statement: its JSON and its rows). */
const ANSWER_BATCH_MAX = 64;
/** How long a wrong answer's statement waits for any one lock: a batch's answers then go again one by one; an answer alone is refused ("held"). */
const WRONG_BATCH_LOCK_WAIT_MS = 200;
/**
 * How long a batch holds up the next one at most: past it the next goes beside it (a batch waits longer only for what
 * `lock_timeout` does not bound: a table's lock a schema change holds, a connection gone quiet).
 */
const WRONG_BATCH_STALL_MS = 1000;

/**
 * A group of answers (wrong or right ones) sent as a database groups commits: `statement` takes a batch's answers as a
 * JSON array, each with its `ord`, and waits `lockWaitMs` at most for any one lock; each team and challenge at most
 * once in flight; a batch that fails on a fault that may be one answer's goes again one by one (isStatementFault).
 */
function answerGroup<T extends AnswerRow>(
  statement: (values: { answers: string; lockWaitMs: number }) => Prebuilt,
  lockWaitMs: number,
  metrics: { onBatch: (size: number) => void; onAlone: (count: number) => void },
) {
  return groupCommit<T, Record<string, unknown>>({
    maxItems: ANSWER_BATCH_MAX,
    stallMs: WRONG_BATCH_STALL_MS,
    keyOf: (answer) => `${answer.team_id}:${answer.challenge_id}`,
    sendBatch: async (answers) => {
      // Each answer's place in the batch set on it as the batch goes (an answer is in one batch at a time): a copy
      // of it with its place added took V8 several µs an answer.
      answers.forEach((answer, ord) => (answer.ord = ord));
      const rows = JSON.stringify(answers);
      const [result] = await sendInOrder(getDb(), [statement({ answers: rows, lockWaitMs })]);
      return rowsOf(result);
    },
    alone: isStatementFault,
    ...metrics,
  });
}

/**
 * This process's wrong answers, sent as a database groups commits (app/infrastructure/group-commit.ts): the
 * answers that arrive while a batch's statement runs go together in the next one. A batch that fails on a fault
 * that may be one answer's (a constraint: its user or team deleted meanwhile; a deadlock; a lock waited for longer
 * than WRONG_BATCH_LOCK_WAIT_MS) has its answers sent again one by one, beside the batches that follow; the database
 * away fails the batch. Two groups, one a statement (wrongBatchStatement): answers to challenges without prerequisites
 * (index 0) and with them (index 1); a challenge's answers go through the one its prerequisites say.
 */
const wrongAnswers = wrongBatchStatements.map((statement) =>
  answerGroup<WrongAnswerRow>(statement, WRONG_BATCH_LOCK_WAIT_MS, {
    onBatch: (size) => getMetrics().flagWrongBatch().observe(size),
    onAlone: (count) => getMetrics().flagWrongAlone().inc(count),
  }),
);
/** The group a challenge's wrong answers go through (and whose turn its right answers wait for). */
const wrongAnswersOf = (challenge: FlagChallenge) => wrongAnswers[challenge.hasPrerequisites ? 1 : 0];

/** A right answer as the solves' batch statement takes it, with its audit record's columns (SOLVE_AUDIT_COLUMNS). */
interface SolveRow extends AnswerRow, Partial<Record<(typeof SOLVE_AUDIT_COLUMNS)[keyof typeof SOLVE_AUDIT_COLUMNS], unknown>> {
  /** Which of the challenge's answers matched (1-based). */
  matched: number;
  /** The solve's time if given (a test's clock); else the database's, once the challenge's count is held. */
  solved_at: string | null;
  dynamic: boolean;
  points: number;
  minimum_points: number | null;
  decay: number | null;
  /** While the board is frozen: the freeze's instant (the solves before it are counted, solves_at_freeze). */
  frozen_at: string | null;
}

/** The audit record's columns a right answer's row carries (auditValuesOf's names → the row's), as the statement reads them. */
const SOLVE_AUDIT_COLUMNS = {
  auditAt: "audit_at",
  auditKind: "audit_kind",
  actorId: "actor_id",
  actorName: "actor_name",
  actorRole: "actor_role",
  via: "via",
  sessionId: "session_id",
  tokenId: "token_id",
  ip: "ip",
  auditTeamId: "audit_team_id",
  auditUserId: "audit_user_id",
  subjectId: "subject_id",
} as const;
const SOLVE_AUDIT_ENTRIES = Object.entries(SOLVE_AUDIT_COLUMNS) as Array<[keyof typeof SOLVE_AUDIT_COLUMNS, (typeof SOLVE_AUDIT_COLUMNS)[keyof typeof SOLVE_AUDIT_COLUMNS]]>;

/**
 * Right answers, any number of teams' and challenges', in one statement (each team and challenge once), as wrong ones
 * are (wrongBatchStatement): for each answer `fresh` and `open` as there; the team's row marked solved only if it may
 * answer now (mayAnswerSql; the rows taken in key order); each challenge's count of solves moved by its solves of the
 * batch (its row lock makes the challenge's solves take turns: the count is each solve's place, 1 the first blood,
 * in the batch's order; the solves' times are read once it is held, in their places' order, so times follow places);
 * the solve, the attempt and the audit record with the value the solve counts (decay.ts's rule, as the
 * `team_answers` view writes it); and each team's standings mark (a dynamic challenge's other solvers are the count's:
 * `recomputed` stays behind, dynamic-solvers.server.ts). Its row of the result, by `ord`, says what became of each.
 * Every other row the batch needs is locked before the counts' rows: the teams', users' and challenges' rows its
 * foreign keys' checks would otherwise lock at the statement's end (`keyed_*`, FOR KEY SHARE, in id order), then the
 * teams' marks (`marked` waits for them, `counted` for `marked`). So the counts' rows, which every solver of a challenge
 * needs, are held only from there to the statement's end, never while another row is waited for.
 *
 * `lockWaitMs`: as wrongBatchStatement's (SOLVE_LOCK_WAIT_MS).
 */
function solveBatchStatement(prerequisites: boolean) {
  return prebuilt(["answers", "lockWaitMs"], ({ answers, lockWaitMs }) => {
    const placeValue = sql`case when p.dynamic then greatest(p.minimum_points::bigint, p.points
      - (p.points - p.minimum_points)::bigint * (p.place - 1) * (p.place - 1) / (p.decay::bigint * p.decay::bigint))
      else p.points end`;
    const own = (column: string) => sql.raw(`(select a.${column} from allowed a where a.team_id = excluded.team_id and a.challenge_id = excluded.challenge_id)`);
    const audit = auditInsertFrom(
      { ...(Object.fromEntries(Object.entries(SOLVE_AUDIT_COLUMNS).map(([name, column]) => [name, sql.raw(`p.${column}`)])) as Record<keyof typeof SOLVE_AUDIT_COLUMNS, SQL>), before: sql`null`, after: sql`null` },
      sql`placed p`,
      sql`jsonb_build_object('challenge', p.challenge_id, 'matched', 'answer ' || p.matched, 'points', ${placeValue})`,
    );
    return sql`with v as materialized (select * from json_to_recordset(${answers}::json) as v(ord int, team_id int, challenge_id int, label text, lim int,
          max_attempts int, at timestamptz, user_id int, matched smallint, solved_at timestamptz, dynamic boolean, points int, minimum_points int, decay int,
          frozen_at timestamptz, audit_at timestamptz, audit_kind text, actor_id int, actor_name text, actor_role text, via text, session_id int, token_id int,
          ip text, audit_team_id int, audit_user_id int, subject_id bigint)),
        versions as materialized (select ${challengeLabelSql} as label,
          set_config('lock_timeout', ${lockWaitMs}::int || 'ms', true) as waits),
        allowed as materialized (select v.* from v, versions where v.label = versions.label
          ${prerequisites ? sql`and json_array_length(${missingPrerequisitesSql(sql`v.challenge_id`, sql`v.team_id`)}) = 0` : sql``}),
        tried as (
          insert into ${flagTries} as t (team_id, challenge_id, solved_at) select team_id, challenge_id, clock_timestamp() from allowed order by team_id, challenge_id
          on conflict (team_id, challenge_id) do update set solved_at = clock_timestamp()
          where ${mayAnswerSql(own("lim"), own("max_attempts"), own("at"))}
          returning t.team_id, t.challenge_id),
        took as materialized (select a.* from tried join allowed a using (team_id, challenge_id)),
        keyed_teams as materialized (select 1 from ${teams} where ${teams.id} in (select team_id from took) order by ${teams.id} for key share),
        keyed_users as materialized (select 1 from ${users} where ${users.id} in (select user_id from took) order by ${users.id} for key share),
        keyed_challenges as materialized (select 1 from ${challenges} where ${challenges.id} in (select challenge_id from took) order by ${challenges.id} for key share),
        marked as (insert into ${standingsOutbox} (team_id) select distinct team_id from took
          where (select count(*) from keyed_teams) + (select count(*) from keyed_users) + (select count(*) from keyed_challenges) >= 0 order by team_id
          on conflict (team_id) do update set version = nextval('standings_outbox_version_seq'), requested_at = now()
          returning team_id),
        per as materialized (select challenge_id, count(*)::int as n, bool_or(dynamic) as dynamic from took group by challenge_id),
        counted as (insert into ${flagSolveCounts} as c (challenge_id, solves, recomputed)
          select challenge_id, n, case when dynamic then 0 else n end from per where (select count(*) from marked) >= 0 order by challenge_id
          on conflict (challenge_id) do update set solves = c.solves + excluded.solves, changed_at = now(),
            recomputed = case when (select per.dynamic from per where per.challenge_id = excluded.challenge_id) then c.recomputed else c.solves + excluded.solves end
          returning c.challenge_id, c.solves),
        placed as materialized (select took.*, (counted.solves - per.n + row_number() over (partition by took.challenge_id order by took.ord))::int as place
          from took join per using (challenge_id) join counted using (challenge_id)),
        solve as (insert into ${flagSolves} (team_id, challenge_id, user_id, solved_at)
          select team_id, challenge_id, user_id, coalesce(solved_at, clock_timestamp()) from placed order by challenge_id, place
          returning team_id, challenge_id, solved_at),
        attempt as (insert into ${flagAttempts} (team_id, user_id, challenge_id, at, verdict, matched)
          select p.team_id, p.user_id, p.challenge_id, solve.solved_at, 'correct', p.matched from solve join placed p using (team_id, challenge_id) order by p.ord),
        audited as (${audit})
        select v.ord, v.label = versions.label as fresh, exists (select 1 from allowed a where a.ord = v.ord) as open, placed.place as solves,
          solve.solved_at as solved_at,
          case when v.frozen_at is not null then (select count(*)::int from ${flagSolves} upto where upto.challenge_id = v.challenge_id and upto.solved_at <= v.frozen_at) end as solves_at_freeze
        from v cross join versions left join placed on placed.ord = v.ord
          left join solve on solve.team_id = v.team_id and solve.challenge_id = v.challenge_id
        order by v.ord`;
  });
}
const solveBatchStatements = [solveBatchStatement(false), solveBatchStatement(true)];

/**
 * How long a right answer's statement waits for any one lock, then its batch's answers go again one by one, each
 * waiting as long again (group-commit.ts), and one whose row is still held is refused ("held": send it again), nothing
 * recorded. Longer than a wrong answers' batch's wait: every solver of a challenge needs its count's row, which
 * another process's batch holds for the end of its statement; a row held past it is an admin's long change or a stuck
 * connection. Bounded, so that the answers sent again one by one behind one are not held up for longer.
 */
const SOLVE_LOCK_WAIT_MS = 1000;

/**
 * This process's right answers, sent as its wrong ones are (wrongAnswers: the answers that arrive while a batch's
 * statement runs go together in the next one; a batch that fails on a fault that may be one answer's has its answers
 * sent again one by one). Two groups, by the challenge's prerequisites, as there. Under a burst of solves of one
 * challenge, its count's row is locked once a batch, not once a solve.
 */
const solveAnswers = solveBatchStatements.map((statement) =>
  answerGroup<SolveRow>(statement, SOLVE_LOCK_WAIT_MS, {
    onBatch: (size) => getMetrics().flagSolveBatch().observe(size),
    onAlone: (count) => getMetrics().flagSolveAlone().inc(count),
  }),
);
/** The group a challenge's right answers go through (and whose turn its wrong answers wait for). */
const solveAnswersOf = (challenge: FlagChallenge) => solveAnswers[challenge.hasPrerequisites ? 1 : 0];

/**
 * The answers' statements as a connection readies them before it takes any (docs/decisions/053-connections-kept-ready.md):
 * each with no answer (it writes nothing), PLANS_TO_SETTLE times, so that Postgres has made the custom plans it makes
 * first and settled on a plan by the time answers come.
 */
export function flagStatementsToReady(): Prebuilt[] {
  return [...wrongBatchStatements, ...solveBatchStatements].flatMap((statement) =>
    Array.from({ length: PLANS_TO_SETTLE }, () => statement({ answers: "[]", lockWaitMs: SOLVE_LOCK_WAIT_MS })),
  );
}

/** Why the team's row took no answer: the challenge changed (STALE), locked, solved, no attempts left, or a wait. */
async function refusalOfTeam(row: Record<string, unknown>, challenge: FlagChallenge, teamId: number, now: Date, readIn: number): Promise<FlagError | typeof STALE> {
  if (row.fresh !== true) return STALE;
  if (row.open !== true) return new FlagError("locked");
  const state = await teamFlagState(teamId, challenge.id, now);
  if (!state) return STALE;
  const refusal = state.solvedAt
    ? new FlagError("alreadySolved")
    : state.attemptsLeft === 0
      ? new FlagError("noAttemptsLeft")
      : state.waitSeconds > 0
        ? new FlagError("wait", state.waitSeconds)
        : // Its row changed between the two statements (another answer of the team): its turn again shortly.
          new FlagError("busy");
  remember(teamId, challenge.id, refusal, state.waitSeconds, now, readIn);
  return refusal;
}

/**
 * An answer's statement failed: a row it needs (its team's on the challenge, its team's, its user's, its challenge's
 * count) held by another transaction past the waits, even alone, is refused (429, send it again in a second), nothing
 * recorded; any other error goes on.
 */
function refusedIfHeld(error: unknown): never {
  throw isLockTimeout(error) ? new FlagError("held", 1) : error;
}

async function recordWrong(input: Parameters<typeof sendFlag>[0], challenge: FlagChallenge, teamId: number, given: string, now: Date, readIn: number): Promise<FlagVerdict | typeof STALE> {
  // First the right answers' batch running now, as a right answer first waits for the wrong answers' (recordSolve):
  // both kinds wait for the same two batches before their own.
  await solveAnswersOf(challenge).turn();
  // A wrong answer keeps what was typed (organisers read typos), except where flags are per team: there it may
  // be another team's flag, which is not kept; it is looked up by digest, and a match is a sharing signal.
  const row = await wrongAnswersOf(challenge).send({
    ...answerRowOf(challenge, teamId, input.actor.id, now),
    answer: challenge.perTeam ? null : given,
    digest: challenge.perTeam ? flagDigest(given) : null,
  }).catch(refusedIfHeld);
  if (row.wrong === null) {
    const refusal = await refusalOfTeam(row, challenge, teamId, now, readIn);
    if (refusal === STALE) return STALE;
    throw refusal;
  }
  const wrong = Number(row.wrong);
  const left = attemptsLeft(challenge.maxAttempts, wrong);
  const waitSeconds = secondsUntil(dateOrNull(row.next_at), now);
  if (waitSeconds > 0 || left === 0) remember(teamId, challenge.id, left === 0 ? new FlagError("noAttemptsLeft") : new FlagError("wait", waitSeconds), waitSeconds, now, readIn);
  const message = waitSeconds > 0 && left !== 0 ? m.incorrectWait(waitSeconds) : left !== null ? m.incorrectAttemptsLeft(left) : m.incorrect;
  return { verdict: "incorrect", challengeId: challenge.id, attemptsLeft: left, waitSeconds, message };
}

/** How often, at most, a per-team challenge's digests are completed for teams made since (a wrong answer's lookup reads them). */
const TEAM_FLAGS_SYNC_MS = 10_000;

/** How long a right answer waits for its team's standing to move before the verdict goes anyway (a page's post). */
const BOARD_WAIT_MS = 1000;

/**
 * A right answer: its batch's statement (solveAnswers: everything the solve writes, its record and its standings
 * mark, or nothing); then the team is recomputed with the other solves of the moment (this process's batch,
 * app/modules/standings/batcher.server.ts), and a dynamic challenge's other solvers by the challenge's job.
 */
async function recordSolve(input: Parameters<typeof sendFlag>[0], challenge: FlagChallenge, teamId: number, matched: number, now: Date, readIn: number): Promise<FlagVerdict | typeof STALE> {
  const dynamic = challenge.scoring === "dynamic";
  // As long as a wrong answer waits before its statement (the batch running now), so that a refusal (a wait, a
  // maximum used, a solve) takes about the same time whether the answer was right (recordWrong waits for the solves').
  await wrongAnswersOf(challenge).turn();
  const audit = auditValuesOf(input.actor, { kind: "flag.solved", teamId, userId: input.actor.id, subjectId: challenge.id });
  // The row's columns set one by one on the answer's row: spread into a literal and then added to, a row of 27
  // columns took V8 about 25 µs (each added property a slow copy), a tenth of a right answer's web CPU; this, 2 µs.
  const answer = answerRowOf(challenge, teamId, input.actor.id, now) as SolveRow;
  answer.matched = matched;
  answer.solved_at = input.now?.toISOString() ?? null;
  // A static challenge's solvers are never behind: its count's `recomputed` follows its solves.
  answer.dynamic = dynamic;
  answer.points = challenge.points;
  answer.minimum_points = challenge.minimumPoints;
  answer.decay = challenge.decay;
  answer.frozen_at = challenge.frozenAt?.toISOString() ?? null;
  for (const [name, column] of SOLVE_AUDIT_ENTRIES) answer[column] = audit[name];
  const row = await solveAnswersOf(challenge).send(answer).catch(refusedIfHeld);
  if (row.solves === null) {
    const refusal = await refusalOfTeam(row, challenge, teamId, now, readIn);
    if (refusal === STALE) return STALE;
    throw refusal;
  }
  const solves = Number(row.solves);
  // While the board is frozen the team reads a dynamic value as of the freeze, as its board and the challenge's
  // card show it (app/modules/standings/frozen-values.server.ts): the verdict must not say how many solved since.
  const points = dynamic && challenge.frozenAt ? challengeValue(challenge, Number(row.solves_at_freeze)) : challengeValue(challenge, solves);
  const solvedAt = dateOrNull(row.solved_at)!;
  // The solve and its mark are committed: the team's standing with the other solves of the moment, in this
  // process's next batch, and the verdict once it has moved (or after the board's wait: the batch still runs, and a
  // failed one hands the team to the queue). The team is told the truth either way: it solved it. Asked first: a
  // dynamic challenge's round, asked next, would otherwise take the team's lock before its batch.
  const board = recomputeWithOthers(teamId, { atMostMs: input.boardWaitMs ?? BOARD_WAIT_MS });
  // A dynamic challenge's other solvers: their values fall in the challenge's next round (a job).
  if (dynamic) await requestSolversRecompute(challenge.id, solves);
  await board;
  return correct(challenge.id, points, solvedAt, solves, [teamId]);
}

function correct(challengeId: number, points: number, solvedAt: Date, solves: number, solvers: number[]): FlagVerdict {
  return { verdict: "correct", challengeId, points, solvedAt, firstBlood: solves === 1, solvers, message: m.correct(points) };
}

/**
 * What this process remembers of a team's refusals (a fast check in front of Postgres, docs/domain.md
 * "Guessing has a price"): a wait until its instant, a solve or a used maximum until an admin's reset is heard.
 * Postgres decides every verdict; this only answers a refusal it already gave without asking again. Forgotten
 * at once when the process hears a reset (resetWrongAnswers notifies every process), and not used while it
 * cannot hear them.
 */
const refusals = new Map<string, { error: FlagError; until: number }>();
const REFUSALS_MAX = 50_000;
/** Moves at every forgetting: a refusal read before a reset was heard is not remembered after it. */
let generation = 0;

function remember(teamId: number, challengeId: number, error: FlagError, waitSeconds: number, now: Date, readIn: number) {
  if (!isHearingFlagResets() || readIn !== generation) return;
  if (error.code !== "wait" && error.code !== "alreadySolved" && error.code !== "noAttemptsLeft") return;
  if (refusals.size >= REFUSALS_MAX) refusals.clear();
  const until = error.code === "wait" ? now.getTime() + waitSeconds * 1000 : Number.POSITIVE_INFINITY;
  refusals.set(`${teamId}:${challengeId}`, { error, until });
}

function rememberedRefusal(teamId: number, challengeId: number, now: Date): FlagError | null {
  const key = `${teamId}:${challengeId}`;
  const hit = refusals.get(key);
  if (!hit) return null;
  if (hit.until <= now.getTime() || !isHearingFlagResets()) {
    refusals.delete(key);
    return null;
  }
  return hit.error.code === "wait" ? new FlagError("wait", Math.max(1, Math.ceil((hit.until - now.getTime()) / 1000))) : hit.error;
}

/** Forget what was remembered of a team on a challenge (a reset), or of everything (null: unheard resets). */
export function forgetFlagRefusals(teamId: number | null = null, challengeId: number | null = null): void {
  generation += 1;
  if (teamId === null || challengeId === null) refusals.clear();
  else refusals.delete(`${teamId}:${challengeId}`);
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

// A reset of a team's count, heard from any web process: what this one remembers of it goes. A change to the
// challenges, the gates or the event's settings: every remembered challenge and refusal goes (a limit or a
// maximum may have changed). Null: notices may have been missed: everything goes.
onNotice(FLAG_RESET_PREFIX, (rest) => {
  const [teamId, challengeId] = rest === null ? [] : rest.split(":").map(Number);
  if (Number.isInteger(teamId) && Number.isInteger(challengeId)) forgetFlagRefusals(teamId, challengeId);
  else forgetFlagRefusals();
});
onNotice(EVENT_DATA_PREFIX, (table) => {
  if (table !== null && table !== "challenges" && table !== "gates" && table !== "event_settings") return;
  forgetFlagRefusals();
  remembered.clear();
});
