/**
 * A team's code runs (docs/domain.md "Code challenges"): a program sent with its language, queued for a runner
 * (workers/runner.ts), judged against the hidden tests; the team's points for the challenge are the team_answers
 * view's (IOI style: ./scoring.ts). Per team: at most QUEUED_PER_TEAM runs waiting or being judged, and at most
 * RUNS_PER_MINUTE sent in any minute; both checked under the team's own lock, so two sends at once cannot both
 * be the last one allowed.
 *
 * What a participant sees of a run: its state, verdict, each test's verdict, time and memory, the compiler's
 * message; never a test's input or expected output, never the platform's own failure.
 */
import { and, count, desc, eq, gt, not, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { LOCK_CLASS } from "../../../db/advisory-locks.ts";
import type { Queryable } from "../../../db/client.ts";
import { challenges, codeRuns, eventSettings, gates, teams } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { enqueue, enqueueMany, getQueue } from "../../infrastructure/queue.server.ts";
import { languages, type LanguageId } from "../../infrastructure/sandbox/languages.server.ts";
import { reportedLanguageVersions } from "./runner-languages.server.ts";
import type { Role } from "../auth/access.ts";
import { answerGateColumns, challengeGateJoin, refusalToAnswer, type AnswerRefusal } from "../challenges/visibility.server.ts";
import { checkingChallenge } from "../challenges/checking-page.server.ts";
import { inLanguage } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { messages } from "../messages.ts";
import { readListPage } from "../paging.ts";
import { anonymousTeamName, namesShownTo, type NamesView } from "../judging/blind.server.ts";
import { broadcastRunChanged } from "../realtime/broadcast.server.ts";
import { judgingPaused } from "./rejudge.server.ts";
import { teamChallengeScore } from "./scoring.ts";
import { CodeError, getCodeChallenge, GIVEN_UP_AFTER_FAILURES, readyToJudge, type CodeChallenge } from "./settings.server.ts";

const m = messages.code;

/** A program's source is at most this big (UTF-8 bytes), pasted or as a file. */
export const SOURCE_MAX_BYTES = 64 * 1024;
/** Runs of one team waiting for a runner or being judged, at most. */
export const QUEUED_PER_TEAM = 3;
/** Runs one team may send in any minute. */
export const RUNS_PER_MINUTE = 6;

const refusalMessage: Record<AnswerRefusal, string> = {
  inactive: messages.participant.challengeInactive,
  noGate: messages.participant.challengeNoGate,
  closed: messages.participant.gateClosed,
  notReleased: messages.participant.challengeNotReleased,
  locked: messages.participant.challengeLocked,
  submissionsClosed: messages.participant.submissionsClosed,
};

/**
 * Whether the team may send a run to the challenge now: the rule every answer follows (gate, release,
 * prerequisites, submissions' close), then this kind's own: checked by tests, tests uploaded.
 */
export async function assertCanSendRun(db: Queryable, input: { teamId: number | null; challengeId: number; now?: Date; begunAt?: Date }): Promise<CodeChallenge> {
  if (input.teamId === null) throw new CodeError(messages.participant.noTeam, { status: 403 });
  const now = input.now ?? new Date();
  const [row] = await db
    .select({ ...answerGateColumns, checking: challenges.checking })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, input.challengeId))
    .limit(1);
  if (!row) throw new CodeError(messages.participant.challengeNotFound, { status: 404 });
  const refused = await refusalToAnswer(db, row, { teamId: input.teamId, challengeId: input.challengeId }, now, input.begunAt ?? now);
  if (refused) throw new CodeError(refusalMessage[refused], { status: refused === "locked" ? 400 : 403 });
  const challenge = row.checking === "tests" ? await getCodeChallenge(input.challengeId, db) : null;
  if (!challenge) throw new CodeError(m.notTests, { status: 409 });
  const ready = readyToJudge(challenge);
  if (ready !== "ready") throw new CodeError(ready === "noTests" ? m.notReady : m.checkerNotReady, { status: 409 });
  return challenge;
}

export interface RunInput {
  language: string;
  source: string;
}

/** Records a team's program and queues it for a runner. Returns the run's id. */
export async function sendRun(caller: { id: number; teamId: number | null }, challengeId: number, input: RunInput, begunAt = new Date()): Promise<number> {
  if (Buffer.byteLength(input.source, "utf8") > SOURCE_MAX_BYTES) throw new CodeError(m.sourceTooLarge(SOURCE_MAX_BYTES / 1024), { status: 413, field: "source" });
  if (input.source.trim() === "") throw new CodeError(m.sourceRequired, { status: 400, field: "source" });
  // eslint-disable-next-line no-control-regex -- a NUL is never part of a program's text
  if (/\u0000/.test(input.source)) throw new CodeError(m.sourceBinary, { status: 400, field: "source" });
  const id = await getDb().transaction(async (tx) => {
    const challenge = await assertCanSendRun(tx, { teamId: caller.teamId, challengeId, begunAt });
    if (!(challenge.languages as string[]).includes(input.language)) throw new CodeError(m.languageNotAllowed, { status: 400, field: "language" });
    const teamId = caller.teamId!;
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.codeRuns}, ${teamId})`);
    const [counts] = await tx
      .select({
        // A rejudged run (judged once, its verdict kept until the new one) and a run given up after its judge errors
        // do not hold the team's turn.
        waiting: sql<number>`count(*) filter (where ${codeRuns.state} <> 'done' and ${codeRuns.finishedAt} is null and ${codeRuns.failures} < ${GIVEN_UP_AFTER_FAILURES})::int`,
        lastMinute: sql<number>`count(*) filter (where ${codeRuns.createdAt} > now() - interval '1 minute')::int`,
      })
      .from(codeRuns)
      .where(and(eq(codeRuns.teamId, teamId), sql`(${codeRuns.state} <> 'done' or ${codeRuns.createdAt} > now() - interval '1 minute')`));
    if (counts.waiting >= QUEUED_PER_TEAM) throw new CodeError(m.tooManyQueued(QUEUED_PER_TEAM), { status: 429, retryAfterSeconds: 10 });
    if (counts.lastMinute >= RUNS_PER_MINUTE) throw new CodeError(m.tooManyPerMinute(RUNS_PER_MINUTE), { status: 429, retryAfterSeconds: 60 });
    const [row] = await tx
      .insert(codeRuns)
      .values({ teamId, challengeId, userId: caller.id, language: input.language, source: input.source })
      .returning({ id: codeRuns.id });
    return row.id;
  });
  // A job lost with Redis is queued again by the runner's sweep (requeueStaleRuns).
  await enqueue("runs", { runId: id }).catch(() => undefined);
  broadcastRunChanged(caller.teamId!, challengeId);
  return id;
}

/**
 * The runner's sweep: queues again the runs still queued a minute after they were sent (their job lost with Redis,
 * or its tries spent on judge errors, until GIVEN_UP_AFTER_FAILURES), and those compiling or running whose runner
 * has given no sign of life for three minutes (it writes one as compiling starts and at each test; with the
 * sandbox's allowance for time spent waiting for a CPU, `WALL_WAIT_ALLOWANCE_MS`, a compile and a checker's
 * compile end within 60 s each, a test of the longest limit (20 s) within 71 s and its checker's run within 41 s),
 * so a slow run still being judged is never judged twice. Each at most once every ten
 * minutes, and never while a job for it still waits in the queue, is delayed or is active.
 */
export async function requeueStaleRuns(): Promise<number> {
  // A run whose job still waits (a backlog, judging paused), waits to be tried again or is being taken is not queued a
  // second time: only a job lost with Redis, or spent, is replaced. Read first, so a long backlog hides no lost one.
  const jobs = await getQueue("runs").getJobs(["waiting", "prioritized", "delayed", "active", "waiting-children"]);
  const live = jobs.map((job) => (job?.data as { runId?: unknown } | undefined)?.runId).filter((id): id is number => typeof id === "number");
  const due = await getDb()
    .select({ id: codeRuns.id })
    .from(codeRuns)
    .where(
      and(
        // A run given up after its judge errors waits for the admins; one its runner left, whatever its tries, does not.
        sql`((${codeRuns.failures} < ${GIVEN_UP_AFTER_FAILURES} and ${codeRuns.state} = 'queued' and ${codeRuns.createdAt} < now() - interval '1 minute') or ${runnerSilent()})`,
        live.length ? not(anyOf(codeRuns.id, live)) : undefined,
      ),
    )
    .orderBy(codeRuns.id)
    .limit(500);
  const bucket = Math.floor(Date.now() / 600_000);
  if (due.length) await enqueueMany("runs", due.map((row) => ({ runId: row.id })), (payload) => `runs-${"runId" in payload ? payload.runId : 0}-${bucket}`);
  return due.length;
}

/**
 * A run compiling or running whose runner has given no sign of life for three minutes: its runner is gone (see
 * requeueStaleRuns). The sweep queues it again and a runner may take it over (./runner.server.ts `judgeRun`).
 */
export const runnerSilent = () => sql`(${codeRuns.state} in ('compiling', 'running') and ${codeRuns.aliveAt} < now() - interval '3 minutes')`;

/** One test's result as anyone may see it (app/modules/code/judge.server.ts `TestResult`). */
export interface ShownTest {
  subtask: string;
  test: string;
  verdict: string;
  timeMs: number;
  memoryBytes: number;
  /** The checker's first lines (staff only: they may quote a hidden test). */
  checkerMessage?: string;
}

/**
 * Test names are the archive's file names: the participant sees each test's position in its subtask instead, and
 * never the checker's words (they may quote the hidden test).
 */
function shownTests(raw: unknown, forStaff: boolean): ShownTest[] {
  if (!Array.isArray(raw)) return [];
  const positions = new Map<string, number>();
  return (raw as ShownTest[]).map((test) => {
    const position = (positions.get(test.subtask) ?? 0) + 1;
    positions.set(test.subtask, position);
    const shown: ShownTest = { subtask: test.subtask, test: forStaff ? test.test : String(position), verdict: test.verdict, timeMs: test.timeMs, memoryBytes: test.memoryBytes };
    if (forStaff && typeof test.checkerMessage === "string") shown.checkerMessage = test.checkerMessage;
    return shown;
  });
}

const runColumns = {
  id: codeRuns.id,
  teamId: codeRuns.teamId,
  language: codeRuns.language,
  state: codeRuns.state,
  verdict: codeRuns.verdict,
  tests: codeRuns.tests,
  passedSubtasks: codeRuns.passedSubtasks,
  pointsCenti: codeRuns.pointsCenti,
  compileMessage: codeRuns.compileMessage,
  compileProblem: codeRuns.compileProblem,
  testIndex: codeRuns.testIndex,
  testCount: codeRuns.testCount,
  createdAt: codeRuns.createdAt,
  finishedAt: codeRuns.finishedAt,
};

type RunRow = Pick<typeof codeRuns.$inferSelect, keyof typeof runColumns>;

/** A team's page shows its newest runs with each test's result; older ones their verdict and points (a page stays small). */
const RUNS_WITH_TESTS = 20;
/** Runs a page on the staff's list (/dashboard/code/:id), each with its tests: older runs are on the next pages. */
export const STAFF_RUNS_PAGE_SIZE = 25;

/**
 * A run the platform failed to judge and has not judged since: a judge error (the sandbox, storage, a checker's
 * crash), queued again or given up on after GIVEN_UP_AFTER_FAILURES of them. What the admins' alert counts.
 */
const failingRun = () => and(sql`${codeRuns.state} in ('queued', 'compiling', 'running')`, gt(codeRuns.failures, 0));

function shownRun(row: RunRow, forStaff: boolean, index: number) {
  return {
    id: row.id,
    language: row.language,
    state: row.state,
    verdict: row.verdict,
    tests: index < RUNS_WITH_TESTS ? shownTests(row.tests, forStaff) : [],
    passedSubtasks: row.passedSubtasks,
    pointsCenti: row.pointsCenti,
    compileMessage: row.compileMessage,
    compileProblem: row.compileProblem,
    testIndex: row.testIndex,
    testCount: row.testCount,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export type ShownRun = ReturnType<typeof shownRun>;

/** The team's runs for the challenge, newest first. */
export async function ownRuns(teamId: number, challengeId: number, db: Queryable = getDb()) {
  const rows = await db
    .select(runColumns)
    .from(codeRuns)
    .where(and(eq(codeRuns.teamId, teamId), eq(codeRuns.challengeId, challengeId)))
    .orderBy(desc(codeRuns.id))
    .limit(100);
  return rows;
}

/**
 * One run as its viewer may see it (GET /api/v1/runs/{id}): a participant their own team's, of a code challenge they
 * may see, as /code/:id shows it; an admin or a judge any, as /dashboard/code/:id shows it (its team, the test
 * files' names, the platform's failures). Null when there is nothing to show: another team's run reads as a missing
 * one.
 */
export async function runFor(runId: number, viewer: { role: Role; teamId: number | null }, now = new Date()) {
  const staff = viewer.role === "admin" || viewer.role === "judge";
  if (!staff && viewer.teamId === null) return null;
  const db = getDb();
  const [row] = await db
    .select({ ...runColumns, challengeId: codeRuns.challengeId, teamName: teams.name, failures: codeRuns.failures, failure: codeRuns.failure })
    .from(codeRuns)
    .innerJoin(teams, eq(teams.id, codeRuns.teamId))
    .where(staff ? eq(codeRuns.id, runId) : and(eq(codeRuns.id, runId), eq(codeRuns.teamId, viewer.teamId!)));
  if (!row || !(await checkingChallenge(row.challengeId, "tests", viewer, now, db))) return null;
  const shown = { ...shownRun(row, staff, 0), challengeId: row.challengeId };
  if (!staff) return shown;
  const team = namedFor(await namesShownTo(viewer), row.teamId, row.teamName);
  return { ...shown, team: { id: team.teamId, name: team.teamName }, failures: row.failures, failure: row.failure };
}

/** A run's team as this viewer reads it: under blind judging a judge gets the team's label and no id (0). */
function namedFor(names: NamesView, teamId: number, teamName: string) {
  return names.hidden ? { teamId: 0, teamName: anonymousTeamName(teamId) } : { teamId, teamName };
}

/** The languages a challenge takes, each with the version the runners judge it with (null: none has reported it yet). */
async function languageChoices(ids: readonly LanguageId[]) {
  const all = languages();
  // A failed read shows no versions rather than failing the page (its own reads say whether Postgres is there).
  const versions = await reportedLanguageVersions().catch(() => new Map<LanguageId, string>());
  return ids.map((id) => ({ id, name: all[id].name, version: versions.get(id) ?? null }));
}

/** What /code/:id shows its viewer: the challenge's rules, the team's runs and its points (docs/domain.md "Code challenges"). */
export async function codePage(challengeId: number, viewer: { role: Role; teamId: number | null }, language: Language, now = new Date()) {
  const db = getDb();
  const row = await checkingChallenge(challengeId, "tests", viewer, now, db);
  if (!row) return null;
  const challenge = await getCodeChallenge(challengeId, db);
  const runs = challenge && viewer.teamId !== null ? await ownRuns(viewer.teamId, challengeId, db) : [];
  const subtasks = challenge?.subtasks ?? [];
  // The points from every run that passed something (the list shows the newest 100 only), as the standings count
  // them. A run being rejudged keeps its last judgement until the new one (app/modules/code/rejudge.server.ts).
  const passing =
    challenge && viewer.teamId !== null
      ? await db
          .select({ id: codeRuns.id, createdAt: codeRuns.createdAt, passedSubtasks: codeRuns.passedSubtasks })
          .from(codeRuns)
          .where(and(eq(codeRuns.teamId, viewer.teamId), eq(codeRuns.challengeId, challengeId), sql`cardinality(${codeRuns.passedSubtasks}) > 0`))
      : [];
  const score = teamChallengeScore(row.points, subtasks, passing);
  return {
    challenge: {
      id: row.id,
      title: inLanguage(language, row.title, row.titleAr),
      points: row.points,
      ready: challenge ? readyToJudge(challenge) === "ready" : false,
      timeLimitMs: challenge?.timeLimitMs ?? null,
      memoryLimitMb: challenge?.memoryLimitMb ?? null,
      languages: await languageChoices(challenge?.languages ?? []),
      subtasks: subtasks.map((subtask) => ({ ...subtask, passed: score.passed.some((passed) => passed.name === subtask.name) })),
      totalShare: challenge?.totalShare ?? null,
    },
    teamId: viewer.teamId,
    // Admins and judges: a link to every team's runs (/dashboard/code/:id).
    staff: viewer.role === "admin" || viewer.role === "judge",
    timeZone: row.timeZone ?? "UTC",
    pointsCenti: score.pointsCenti,
    limits: { queued: QUEUED_PER_TEAM, perMinute: RUNS_PER_MINUTE, sourceBytes: SOURCE_MAX_BYTES },
    runs: runs.map((run, index) => shownRun(run, false, index)),
  };
}

export type CodePageData = NonNullable<Awaited<ReturnType<typeof codePage>>>;

/**
 * What /dashboard/code/:id shows an admin or a judge: the settings, the tests' summary, every run (per test: verdict,
 * time, memory), newest first, STAFF_RUNS_PAGE_SIZE a page (`list.page`; `list.failing`: only the runs failing on the
 * platform's side); `admin`: the forms that change them.
 */
export async function adminCodePage(challengeId: number, viewer: { role: Role }, list: { page?: number; failing?: boolean } = {}) {
  const db = getDb();
  const [row] = await db
    .select({ id: challenges.id, title: challenges.title, points: challenges.points, checking: challenges.checking, timeZone: eventSettings.timeZone })
    .from(challenges)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, challengeId));
  if (!row || row.checking !== "tests") return null;
  const settings = await getCodeChallenge(challengeId, db);
  const names = await namesShownTo(viewer);
  const listed = and(eq(codeRuns.challengeId, challengeId), list.failing ? failingRun() : undefined);
  const [{ total }] = await db.select({ total: count() }).from(codeRuns).where(listed);
  const { rows: runs, page } = await readListPage(total, list.page, STAFF_RUNS_PAGE_SIZE, (limit, offset) =>
    db
      .select({ ...runColumns, teamName: teams.name, failures: codeRuns.failures, failure: codeRuns.failure })
      .from(codeRuns)
      .innerJoin(teams, eq(teams.id, codeRuns.teamId))
      .where(listed)
      .orderBy(desc(codeRuns.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    challenge: { id: row.id, title: row.title, points: row.points },
    admin: viewer.role === "admin",
    paused: await judgingPaused().catch(() => null),
    settings,
    available: await languageChoices(Object.keys(languages()) as LanguageId[]),
    timeZone: row.timeZone ?? "UTC",
    // A judge under blind judging reads each team by its label, never its id or name (docs/domain.md "Blind judging").
    failing: list.failing ?? false,
    pages: page,
    // Every run of the page with its tests (index 0: shown as the newest are).
    runs: runs.map((run) => ({ ...shownRun(run, true, 0), ...namedFor(names, run.teamId, run.teamName), failures: run.failures, failure: run.failure })),
  };
}

/**
 * The admins' alert (every dashboard page; docs/domain.md "Code challenges"): the code challenges with runs failing on
 * the platform's side, the most recently sent first, at most `limit` of them, each with how many of its runs fail;
 * `more`: further challenges not listed.
 */
export async function judgeErrorAlert(language: Language, limit = 5) {
  const rows = await getDb()
    .select({ id: challenges.id, title: challenges.title, titleAr: challenges.titleAr, runs: count() })
    .from(codeRuns)
    .innerJoin(challenges, eq(challenges.id, codeRuns.challengeId))
    .where(failingRun())
    .groupBy(challenges.id)
    .orderBy(desc(sql`max(${codeRuns.id})`))
    .limit(limit + 1);
  return {
    challenges: rows.slice(0, limit).map((row) => ({ id: row.id, title: inLanguage(language, row.title, row.titleAr), runs: row.runs })),
    more: rows.length > limit,
  };
}

export type JudgeErrorAlert = Awaited<ReturnType<typeof judgeErrorAlert>>;
