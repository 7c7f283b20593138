/**
 * Judging one queued run (the runner's `runs` job, workers/runner.ts; docs/domain.md "Code challenges"): the
 * program compiled and run in the sandbox against the challenge's hidden tests (./judge.server.ts), its state
 * shown live (compiling, running test n of m), then its verdict, per-test results and passed subtasks saved
 * with the team marked stale in the same transaction (the outbox), then recomputed by the standings job.
 *
 * A judge error is the platform's fault, never the program's: the run goes back to queued, its failure kept for
 * the admins, and the job fails so that BullMQ tries it again (the runner logs it).
 *
 * A judgement is recorded only if the challenge's generation is still the one it started with: new tests, a new
 * checker or a rejudge of every run bump it while the run is judged, and the run is then queued again (`outdated`)
 * rather than recorded. The check holds the challenge's row (FOR SHARE) in the saving transaction, so a rejudge
 * either waits for the verdict (then queues the judged run again) or comes first (then the verdict is not saved).
 *
 * Every write a runner makes to a run it took (its progress, a sign of life, a judge error, the verdict) names that
 * taking (`code_runs.claim_token`, new at each): a runner taken over, because it was silent or because BullMQ handed
 * its job to another runner while it was only slow, changes nothing once it wakes; it stops judging at its next test
 * (or before compiling), so its sandbox slot is free again.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { codeChallenges, codeRuns } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { LANGUAGE_IDS, type LanguageId } from "../../infrastructure/sandbox/languages.server.ts";
import type { Program } from "../../infrastructure/sandbox/programs.server.ts";
import type { SandboxHost, Slot } from "../../infrastructure/sandbox/sandbox.server.ts";
import { CHECKER_LIMITS, holdChecker, recordCheckerState, type CheckerLanguage } from "./checker.server.ts";
import { broadcastJudgeError, broadcastRunChanged } from "../realtime/broadcast.server.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { judge, type Judgement, type Verdict } from "./judge.server.ts";
import { pointsCentiOfShares } from "./scoring.ts";
import { runnerSilent } from "./runs.server.ts";
import { getCodeChallenge, loadTestsArchive, OUTPUT_LIMIT_BYTES, type CodeChallenge } from "./settings.server.ts";
import type { TestsArchive } from "./tests-archive.server.ts";

/**
 * The run could not be judged and is queued again: a judge error (`counted`: the platform's fault, a try spent, the
 * admins alerted), or the runner stopping while it judged (not counted: nobody's fault).
 */
export class JudgeFailure extends Error {
  constructor(
    message: string,
    readonly counted = true,
  ) {
    super(message);
  }
}

/** The run was taken over by another runner meanwhile (`ours`): this runner leaves it, with no judge error. */
class TakenOver extends Error {}

export type RunOutcome =
  | { kind: "judged"; verdict: Exclude<Verdict, "judge-error">; language: string; pointsCenti: number; teamId: number }
  | { kind: "skipped" }
  | { kind: "outdated" }
  | { kind: "waiting" };

/** Live progress is written at most this often (a run of 100 fast tests is not 100 writes). */
const PROGRESS_EVERY_MS = 250;

/** One taking of a run by a runner (`claim`). */
interface Taking {
  runId: number;
  token: string;
}

/** The run, still this taking's and not judged: the condition of every write a runner makes to it. */
function ours(taking: Taking) {
  return and(eq(codeRuns.id, taking.runId), eq(codeRuns.claimToken, taking.token), sql`${codeRuns.state} <> 'done'`);
}

/**
 * The run queued again, its failure kept for the admins, who are alerted (their dashboard's banner) and the team's page
 * shows it queued; `logged` is what the runner's log may say of it (no checker's words). Not `counted` (the runner
 * stopping): no try spent, no alert.
 */
async function failed(taking: Taking, failure: string, logged = failure, counted = true): Promise<never> {
  const [row] = await getDb()
    .update(codeRuns)
    .set({ state: "queued", failure: failure.slice(0, 2000), failures: counted ? sql`${codeRuns.failures} + 1` : codeRuns.failures, testIndex: null, testCount: null })
    // A runner taken over, or a copy of the job that failed after another judged the run, leaves the run alone.
    .where(ours(taking))
    .returning({ teamId: codeRuns.teamId, challengeId: codeRuns.challengeId });
  if (!row) throw new TakenOver();
  broadcastRunChanged(row.teamId, row.challengeId);
  if (counted) broadcastJudgeError(row.challengeId);
  throw new JudgeFailure(logged, counted);
}

/**
 * A sign of life between the long steps before the first test (the archive read, the checker compiled): the sweep's.
 * A run taken over meanwhile is left there (TakenOver), before anything is compiled for it.
 */
async function stillAlive(taking: Taking) {
  const rows = await getDb().update(codeRuns).set({ aliveAt: sql`now()` }).where(ours(taking)).returning({ id: codeRuns.id });
  if (rows.length === 0) throw new TakenOver();
}

/**
 * The challenge's checker is missing or did not compile: the admins' to fix, no failure of the platform's. The run
 * stays queued without spending a try (nor BullMQ's), and is queued again once a checker compiles
 * (./checker.server.ts `recordCheckerState`) or the settings are saved.
 */
async function waiting(run: typeof codeRuns.$inferSelect, taking: Taking, why: string): Promise<RunOutcome> {
  const row = await getDb()
    .update(codeRuns)
    .set({ state: "queued", failure: why, testIndex: null, testCount: null, aliveAt: null })
    .where(ours(taking))
    .returning({ id: codeRuns.id });
  if (row.length === 0) return { kind: "skipped" };
  broadcastRunChanged(run.teamId, run.challengeId);
  return { kind: "waiting" };
}

/**
 * Takes the run for the queue job `jobId`: while queued, left silent by a runner gone (`runnerSilent`), or taken by
 * this same job before (handed out again by BullMQ after its runner died, or retried after an error). So a second job
 * for it (the sweep's, a leftover retry) skips a run judged or being judged and never sends a verdict back to
 * compiling. `first`: no job had taken it before (the queue-wait metric's). `taking`: what this taking's writes name.
 */
async function claim(runId: number, jobId: string) {
  return getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ claimedBy: codeRuns.claimedBy })
      .from(codeRuns)
      .where(and(eq(codeRuns.id, runId), sql`(${codeRuns.state} = 'queued' or ${runnerSilent()} or (${codeRuns.state} in ('compiling', 'running') and ${codeRuns.claimedBy} = ${jobId}))`))
      .for("update");
    if (!before) return null;
    const token = randomUUID();
    const [run] = await tx.update(codeRuns).set({ state: "compiling", aliveAt: sql`now()`, testIndex: null, testCount: null, claimedBy: jobId, claimToken: token }).where(eq(codeRuns.id, runId)).returning();
    return { run, first: before.claimedBy === null, taking: { runId, token } };
  });
}

/**
 * Judges one run on `slot` for the queue job `jobId` (./runner.server.ts `claim`). `onClaimed` hears the run when this
 * is its first taking (the runner's queue-wait metric). Throws JudgeFailure on a judge error; on any other error (a
 * database or storage failing mid-way) the run goes back to queued for the job's next try, and the error is thrown.
 */
export async function judgeRun(runId: number, host: SandboxHost, slot: Slot, jobId: string, onClaimed?: (run: { createdAt: Date }) => void): Promise<RunOutcome> {
  const claimed = await claim(runId, jobId);
  if (!claimed) return { kind: "skipped" };
  const { run, taking } = claimed;
  if (claimed.first) onClaimed?.(run);
  broadcastRunChanged(run.teamId, run.challengeId);
  try {
    const challenge = await getCodeChallenge(run.challengeId);
    if (!challenge?.testsKey || !challenge.totalShare) return await failed(taking, "the challenge has no tests");
    if (!(LANGUAGE_IDS as readonly string[]).includes(run.language)) return await failed(taking, `unknown language ${run.language}`);
    const archive = await loadTestsArchive(challenge.testsKey).catch((error: unknown) => failed(taking, `tests unreadable: ${(error as Error).message}`));
    await stillAlive(taking);
    const checker = challenge.comparator === "checker" ? await checkerFor(taking, challenge, host, slot) : null;
    if (checker && "missing" in checker) return await waiting(run, taking, checker.missing);
    try {
      // Inside: a run taken over while its checker compiled lets go of the checker too.
      if (checker) await stillAlive(taking);
      return await judgeWith(run, taking, challenge, archive, host, slot, checker);
    } finally {
      checker?.release();
    }
  } catch (error) {
    if (error instanceof TakenOver) return { kind: "skipped" };
    if (!(error instanceof JudgeFailure)) {
      await getDb()
        .update(codeRuns)
        .set({ state: "queued", testIndex: null, testCount: null })
        .where(ours(taking))
        .catch(() => undefined);
    }
    throw error;
  }
}

/** The challenge's checker compiled (its state written back for the admins), why there is none to use, or the run's judge error. */
async function checkerFor(taking: Taking, challenge: CodeChallenge, host: SandboxHost, slot: Slot): Promise<{ program: Program; release: () => void } | { missing: string }> {
  const [row] = await getDb()
    .select({ language: codeChallenges.checkerLanguage, source: codeChallenges.checkerSource, hash: codeChallenges.checkerHash, state: codeChallenges.checkerState })
    .from(codeChallenges)
    .where(eq(codeChallenges.challengeId, challenge.challengeId));
  if (!row?.language || !row.source || !row.hash) return { missing: "the challenge has no checker" };
  // Compiled and failed already: compiling it again waits for the admins' next save (./checker.server.ts).
  if (row.state === "failed") return { missing: "the checker did not compile" };
  const source = { language: row.language as CheckerLanguage, source: row.source, hash: row.hash };
  const held = await holdChecker(host, slot, source).catch((error: unknown) => failed(taking, (error as Error).message));
  await recordCheckerState(challenge.challengeId, row.hash, held.compiled).catch(() => undefined);
  if (!held.compiled.ok) {
    held.release();
    return { missing: "the checker did not compile" };
  }
  return { program: held.compiled.program, release: held.release };
}

async function judgeWith(
  run: typeof codeRuns.$inferSelect,
  taking: Taking,
  challenge: CodeChallenge,
  archive: TestsArchive,
  host: SandboxHost,
  slot: Slot,
  checker: { program: Program } | null,
): Promise<RunOutcome> {
  const runId = run.id;
  let lastProgress = 0;
  let progress: Promise<unknown> = Promise.resolve();
  // A progress write that finds the run no longer this taking's: it was taken over, and the tests stop at the next
  // one rather than hold the slot to the end for a verdict that would not be recorded.
  let takenOver = false;
  const judgement: Judgement = await judge(host, {
    slot,
    language: run.language as LanguageId,
    source: run.source,
    archive,
    limits: { timeMs: challenge.timeLimitMs, memoryBytes: challenge.memoryLimitMb * 1024 * 1024, outputBytes: OUTPUT_LIMIT_BYTES },
    comparator: challenge.comparator,
    ...(checker ? { checker: { program: checker.program, limits: CHECKER_LIMITS } } : {}),
    onTest: (index, count) => {
      if (index > 1 && index < count && Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = Date.now();
      progress = progress
        .then(() => getDb().update(codeRuns).set({ state: "running", testIndex: index, testCount: count, aliveAt: sql`now()` }).where(ours(taking)).returning({ id: codeRuns.id }))
        .then((rows) => {
          if (rows.length === 0) takenOver = true;
          else broadcastRunChanged(run.teamId, run.challengeId);
        })
        .catch(() => undefined);
    },
    shouldStop: () => takenOver,
  });
  await progress;
  if (takenOver) throw new TakenOver();
  // The runner was stopping while it judged: its compiler or program may have been killed with it (SIGTERM to every
  // process of the service), which is no compile error or runtime error of the team's. Queued again, for any runner.
  if (host.stopping) return failed(taking, "the runner stopped while judging it", undefined, false);
  if (judgement.verdict === "judge-error") return failed(taking, judgement.failure ?? "judge error", judgement.failureLogged);
  const passed = judgement.subtasks.filter((subtask) => subtask.passed);
  const earned = passed.reduce((sum, subtask) => sum + subtask.share, 0);
  const pointsCenti = pointsCentiOfShares(challenge.points, earned, archive.totalShare);
  const moves = passed.length > 0 || run.passedSubtasks.length > 0;
  const saved = await getDb().transaction(async (tx) => {
    const [now] = await tx.select({ generation: codeChallenges.generation }).from(codeChallenges).where(eq(codeChallenges.challengeId, run.challengeId)).for("share");
    if (now?.generation !== challenge.generation) return "outdated" as const;
    const [row] = await tx
      .update(codeRuns)
      .set({
        state: "done",
        verdict: judgement.verdict as Exclude<Verdict, "judge-error">,
        tests: judgement.tests,
        passedSubtasks: passed.map((subtask) => subtask.name),
        pointsCenti,
        compileMessage: judgement.compileMessage,
        compileProblem: judgement.compileProblem,
        testIndex: null,
        testCount: null,
        finishedAt: sql`now()`,
      })
      .where(ours(taking))
      .returning({ teamId: codeRuns.teamId });
    // Only a run that passes a subtask, or passed one before (a rejudge), can move the team's points.
    if (row && moves) await markStandingsStale(tx, row.teamId);
    return row ?? null;
  });
  if (saved === "outdated") {
    // Judged against tests (or a checker) replaced meanwhile: queued again, its last verdict kept until the new one.
    const requeued = await getDb()
      .update(codeRuns)
      .set({ state: "queued", testIndex: null, testCount: null, aliveAt: null })
      .where(ours(taking))
      .returning({ id: codeRuns.id });
    if (requeued.length === 0) return { kind: "skipped" };
    await enqueue("runs", { runId }).catch(() => undefined);
    broadcastRunChanged(run.teamId, run.challengeId);
    return { kind: "outdated" };
  }
  if (!saved) return { kind: "skipped" };
  if (moves) await requestStandingsRecompute(saved.teamId);
  broadcastRunChanged(run.teamId, run.challengeId);
  return { kind: "judged", verdict: judgement.verdict, language: run.language, pointsCenti, teamId: saved.teamId };
}
