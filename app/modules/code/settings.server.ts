/**
 * A code challenge's settings, as an admin sets them (docs/domain.md "Code challenges"): the languages it takes,
 * its time and memory limits per test, how output is compared, and its hidden tests (a .tar.gz checked entry by
 * entry at its upload by ./tests-archive.server.ts, kept in storage). The tests' contents never leave storage
 * but for the runner; the pages see their subtasks' names, shares and counts only.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Readable } from "node:stream";
import type { Queryable } from "../../../db/client.ts";
import { challenges, codeChallenges, codeRuns } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { enqueueMany } from "../../infrastructure/queue.server.ts";
import { openObject } from "../../infrastructure/s3.server.ts";
import { LANGUAGE_IDS, type LanguageId } from "../../infrastructure/sandbox/languages.server.ts";
import type { CompileProblem } from "../../infrastructure/sandbox/programs.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import type { Comparator } from "./compare.ts";
import { ArchiveError, readTestsArchive, type TestsArchive } from "./tests-archive.server.ts";

const m = messages.code;

/** A tests archive is at most this big, compressed (the reader caps what it unpacks: MAX_TOTAL_BYTES). */
export const TESTS_MAX_BYTES = 64 * 1024 * 1024;
export const TIME_LIMIT_MS = { min: 100, max: 20_000 } as const;
export const MEMORY_LIMIT_MB = { min: 16, max: 1024 } as const;
/** A run's standard output is cut past this (an "output limit" verdict). */
export const OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;

export class CodeError extends DomainError {}

/** A run still queued after this many judge errors is given up (the sweep leaves it; a rejudge or a new checker takes it again). */
export const GIVEN_UP_AFTER_FAILURES = 30;

/**
 * The challenge's runs waiting to be judged (queued, given up or not) get their tries back: a new checker or new
 * settings may be what they waited for. Returns their ids, for `enqueueWaitingRuns` once the transaction is over.
 */
export async function resetWaitingRuns(db: Queryable, challengeId: number): Promise<number[]> {
  const rows = await db
    .update(codeRuns)
    .set({ failures: 0, failure: null })
    .where(and(eq(codeRuns.challengeId, challengeId), eq(codeRuns.state, "queued")))
    .returning({ id: codeRuns.id });
  return rows.map((row) => row.id);
}

/** Queues jobs for runs waiting (a lost job is the sweep's to queue again). */
export async function enqueueWaitingRuns(runIds: readonly number[]): Promise<void> {
  await enqueueMany("runs", runIds.map((runId) => ({ runId }))).catch(() => undefined);
}

export interface CodeSettingsInput {
  languages: LanguageId[];
  timeLimitMs: number;
  memoryLimitMb: number;
  comparator: Comparator;
}

/** What the pages may know of the hidden tests: each subtask's name, share and number of tests. */
export interface SubtaskSummary {
  name: string;
  share: number;
  tests: number;
}

export interface CodeChallenge extends CodeSettingsInput {
  challengeId: number;
  points: number;
  /** The checker's language, file name, content hash, and whether a runner compiled it (./checker.server.ts); its source is the runner's only. */
  checkerLanguage: string | null;
  checkerName: string | null;
  checkerHash: string | null;
  checkerState: "pending" | "compiled" | "failed" | null;
  checkerMessage: string | null;
  /** Why the checker's compile was stopped (a time, memory or output limit), put in words by the admin's page. */
  checkerProblem: CompileProblem | null;
  /** Bumped when a judgement in progress becomes outdated (./runner.server.ts). */
  generation: number;
  testsKey: string | null;
  testsName: string | null;
  subtasks: SubtaskSummary[];
  totalShare: number | null;
}

const isLanguage = (value: string): value is LanguageId => (LANGUAGE_IDS as readonly string[]).includes(value);

export async function getCodeChallenge(challengeId: number, db: Queryable = getDb()): Promise<CodeChallenge | null> {
  const [row] = await db
    .select({
      challengeId: codeChallenges.challengeId,
      points: challenges.points,
      languages: codeChallenges.languages,
      timeLimitMs: codeChallenges.timeLimitMs,
      memoryLimitMb: codeChallenges.memoryLimitMb,
      comparator: codeChallenges.comparator,
      checkerLanguage: codeChallenges.checkerLanguage,
      checkerName: codeChallenges.checkerName,
      checkerHash: codeChallenges.checkerHash,
      checkerState: codeChallenges.checkerState,
      checkerMessage: codeChallenges.checkerMessage,
      checkerProblem: codeChallenges.checkerProblem,
      generation: codeChallenges.generation,
      testsKey: codeChallenges.testsKey,
      testsName: codeChallenges.testsName,
      subtasks: codeChallenges.subtasks,
      totalShare: codeChallenges.totalShare,
    })
    .from(codeChallenges)
    .innerJoin(challenges, eq(challenges.id, codeChallenges.challengeId))
    .where(eq(codeChallenges.challengeId, challengeId));
  if (!row) return null;
  return { ...row, languages: row.languages.filter(isLanguage), subtasks: row.subtasks as SubtaskSummary[] };
}

/** Whether programs can be judged: tests uploaded and, for a checker's comparison, a checker that did not fail to compile. */
export function readyToJudge(challenge: CodeChallenge): "ready" | "noTests" | "noChecker" {
  if (!challenge.testsKey || !challenge.totalShare) return "noTests";
  if (challenge.comparator === "checker" && (!challenge.checkerHash || challenge.checkerState === "failed")) return "noChecker";
  return "ready";
}

/** The teams that sent a run to the challenge, whose points a change of its tests may move. */
async function teamsWithRuns(db: Queryable, challengeId: number): Promise<number[]> {
  const rows = await db.selectDistinct({ teamId: codeRuns.teamId }).from(codeRuns).where(eq(codeRuns.challengeId, challengeId));
  return rows.map((row) => row.teamId);
}

/**
 * Saves a code challenge's languages, limits and comparison (the challenge must be checked by tests). A change of
 * any of them outdates the judgements in progress (the generation bumped: ./runner.server.ts), and gives the runs
 * waiting their tries back.
 */
export async function saveCodeSettings(actor: Actor, challengeId: number, input: CodeSettingsInput): Promise<void> {
  if (input.languages.length === 0) throw new CodeError(m.languagesRequired, { status: 400, field: "languages" });
  const waiting = await getDb().transaction(async (tx) => {
    const [challenge] = await tx.select({ checking: challenges.checking }).from(challenges).where(eq(challenges.id, challengeId)).for("update");
    if (!challenge) throw new CodeError(messages.dashboard.challengeNotFound, { status: 404 });
    if (challenge.checking !== "tests") throw new CodeError(m.notTests, { status: 409 });
    const before = await getCodeChallenge(challengeId, tx);
    // A checker's comparison needs a checker: one is saved on this page once the settings are (./checker.server.ts).
    if (input.comparator === "checker" && !before?.checkerHash) throw new CodeError(m.checkerFirst, { status: 400, field: "comparator" });
    const values = { languages: [...new Set(input.languages)], timeLimitMs: input.timeLimitMs, memoryLimitMb: input.memoryLimitMb, comparator: input.comparator };
    const changed =
      !before ||
      before.comparator !== values.comparator ||
      before.timeLimitMs !== values.timeLimitMs ||
      before.memoryLimitMb !== values.memoryLimitMb ||
      before.languages.length !== values.languages.length ||
      before.languages.some((language) => !values.languages.includes(language));
    await tx
      .insert(codeChallenges)
      .values({ challengeId, ...values })
      .onConflictDoUpdate({ target: codeChallenges.challengeId, set: { ...values, ...(changed ? { generation: sql`${codeChallenges.generation} + 1` } : {}) } });
    await recordAudit(tx, actor, {
      kind: "code.settings",
      subjectId: challengeId,
      ...(before ? { before: { languages: before.languages, timeLimitMs: before.timeLimitMs, memoryLimitMb: before.memoryLimitMb, comparator: before.comparator } } : {}),
      after: values,
    });
    return resetWaitingRuns(tx, challengeId);
  });
  await enqueueWaitingRuns(waiting);
}

const openStored = async (key: string) => (await openObject(key)).body;

/** Reads an uploaded archive: its subtasks' summary, or the reason it is refused (ArchiveError's sentence). */
export async function checkTestsArchive(key: string, open: (key: string) => Promise<Readable> = openStored): Promise<{ ok: true; subtasks: SubtaskSummary[]; totalShare: number } | { ok: false; reason: string }> {
  try {
    const archive = await readTestsArchive(await open(key));
    return { ok: true, subtasks: archive.subtasks.map((subtask) => ({ name: subtask.name, share: subtask.share, tests: subtask.tests.length })), totalShare: archive.totalShare };
  } catch (error) {
    if (error instanceof ArchiveError) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Keeps a checked archive as the challenge's tests; the one it replaces is returned (to delete). The teams that
 * sent runs are recomputed: a subtask's share may have moved, or a subtask gone (its passes then count nothing).
 * Runs already judged keep their verdicts (no rejudge).
 */
export async function saveTests(actor: Actor, challengeId: number, tests: { key: string; name: string; subtasks: SubtaskSummary[]; totalShare: number }): Promise<string | null> {
  const { previous, teamIds } = await getDb().transaction(async (tx) => {
    const [row] = await tx.select({ testsKey: codeChallenges.testsKey }).from(codeChallenges).where(eq(codeChallenges.challengeId, challengeId)).for("update");
    if (!row) throw new CodeError(m.settingsFirst, { status: 409 });
    await tx
      .update(codeChallenges)
      // Runs being judged against the old tests are judged again against these (./runner.server.ts).
      .set({ testsKey: tests.key, testsName: tests.name, subtasks: tests.subtasks, totalShare: tests.totalShare, generation: sql`${codeChallenges.generation} + 1`, updatedAt: sql`now()` })
      .where(eq(codeChallenges.challengeId, challengeId));
    await recordAudit(tx, actor, {
      kind: "code.tests",
      subjectId: challengeId,
      after: { file: tests.name, subtasks: tests.subtasks.map((subtask) => `${subtask.name}: ${subtask.share} (${subtask.tests})`) },
    });
    const teamIds = await teamsWithRuns(tx, challengeId);
    await markStandingsStale(tx, teamIds);
    return { previous: row.testsKey, teamIds };
  });
  await requestStandingsRecompute(teamIds);
  return previous;
}

/** The archives this process last read (a runner judges a challenge's runs in a row): two, by storage key (each up to MAX_TOTAL_BYTES unpacked). */
const archives = new Map<string, Promise<TestsArchive>>();
const ARCHIVES_KEPT = 2;

/** A challenge's hidden tests, read from storage (or this process's copy: a key is never reused). */
export function loadTestsArchive(key: string, open: (key: string) => Promise<Readable> = openStored): Promise<TestsArchive> {
  const kept = archives.get(key);
  if (kept) return kept;
  const reading = open(key).then((body) => readTestsArchive(body));
  reading.catch(() => archives.delete(key));
  archives.set(key, reading);
  while (archives.size > ARCHIVES_KEPT) archives.delete(archives.keys().next().value!);
  return reading;
}
