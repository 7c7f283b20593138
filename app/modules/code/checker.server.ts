/**
 * A code challenge's checker program (docs/domain.md "Code challenges", docs/decisions/042-code-sandbox.md): the
 * admin's own comparison, for problems with more than one right answer. Its source is kept in the challenge's row
 * (at most CHECKER_MAX_BYTES); a runner compiles it in the compile sandbox once per content hash (this process
 * keeps the last CHECKERS_KEPT), and runs it in the sandbox after each test the program passed, as testlib's
 * checkers are run: `checker input output answer`, each a read-only file, with its own limits (CHECKER_LIMITS).
 *
 * Exit codes (testlib's): 0 accepted, 1 wrong answer, 2 presentation error (a wrong answer here); anything else, a
 * signal, a time or memory limit is the checker's fault, so the platform's: a judge error (the run queued again,
 * the checker's words kept for the admins), never a verdict against the team.
 *
 * Compiling is not done by the web process (it may have no sandbox): saving a checker marks it *pending* and queues
 * its compile on the runs' queue; the runner that compiles it writes back *compiled* or *failed* with the
 * compiler's message, shown to the admins on the challenge's page. Teams cannot send programs while it failed.
 */
import { createHash } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, eq, lt, sql } from "drizzle-orm";
import { challenges, codeChallenges, codeRuns } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { cleanCompilerMessage, compileProgram, makeBox, removeBox, sandboxRoot, sealBox, type CompileProblem, type Program, type RunLimits } from "../../infrastructure/sandbox/programs.server.ts";
import type { SandboxHost, Slot } from "../../infrastructure/sandbox/sandbox.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { messages } from "../messages.ts";
import { broadcastCheckerChanged } from "../realtime/broadcast.server.ts";
import { CodeError, enqueueWaitingRuns, GIVEN_UP_AFTER_FAILURES, resetWaitingRuns } from "./settings.server.ts";

const m = messages.code;
const MB = 1024 * 1024;

/** The languages a checker may be written in (of the sandbox's: app/infrastructure/sandbox/languages.server.ts). */
export const CHECKER_LANGUAGES = ["cpp", "c", "python3"] as const;
export type CheckerLanguage = (typeof CHECKER_LANGUAGES)[number];
/** A checker's source is at most this big (UTF-8 bytes), as a program's. */
export const CHECKER_MAX_BYTES = 64 * 1024;
/** A checker's own limits per test: CPU time, memory, and what it may write on standard output (read and dropped). */
export const CHECKER_LIMITS: RunLimits = { timeMs: 5000, memoryBytes: 512 * MB, outputBytes: 64 * 1024 };
/** The checker's first lines of standard error kept per test, for admins and judges only. */
export const CHECKER_MESSAGE_CHARS = 300;

export interface CheckerSource {
  language: CheckerLanguage;
  source: string;
  hash: string;
}

export const checkerHash = (language: string, source: string) => createHash("sha256").update(`${language}\n${source}`).digest("hex");

/** What a checker's standard error says, cleaned and cut, for the admins. */
export const checkerWords = (stderr: Buffer) => cleanCompilerMessage(stderr.toString("utf8"), CHECKER_MESSAGE_CHARS);

/** Saves the admin's checker (pending until a runner compiles it), queues its compile, and records the change. */
export async function saveChecker(actor: Actor, challengeId: number, input: { language: string; source: string; name: string }): Promise<void> {
  if (!(CHECKER_LANGUAGES as readonly string[]).includes(input.language)) throw new CodeError(m.checkerLanguageInvalid, { status: 400, field: "checkerLanguage" });
  if (Buffer.byteLength(input.source, "utf8") > CHECKER_MAX_BYTES) throw new CodeError(m.checkerTooLarge(CHECKER_MAX_BYTES / 1024), { status: 413, field: "checker" });
  if (input.source.trim() === "") throw new CodeError(m.checkerRequired, { status: 400, field: "checker" });
  // eslint-disable-next-line no-control-regex -- a NUL is never part of a program's text
  if (/\u0000/.test(input.source) || input.source.includes("\uFFFD")) throw new CodeError(m.checkerBinary, { status: 400, field: "checker" });
  const hash = checkerHash(input.language, input.source);
  const name = input.name.slice(0, 200) || "checker";
  const waiting = await getDb().transaction(async (tx) => {
    const [challenge] = await tx.select({ checking: challenges.checking }).from(challenges).where(eq(challenges.id, challengeId));
    if (!challenge) throw new CodeError(messages.dashboard.challengeNotFound, { status: 404 });
    if (challenge.checking !== "tests") throw new CodeError(m.notTests, { status: 409 });
    const [before] = await tx
      .select({ language: codeChallenges.checkerLanguage, name: codeChallenges.checkerName, hash: codeChallenges.checkerHash })
      .from(codeChallenges)
      .where(eq(codeChallenges.challengeId, challengeId))
      .for("update");
    if (!before) throw new CodeError(m.settingsFirst, { status: 409 });
    await tx
      .update(codeChallenges)
      .set({
        checkerLanguage: input.language,
        checkerSource: input.source,
        checkerName: name,
        checkerHash: hash,
        checkerState: "pending",
        checkerMessage: null,
        checkerProblem: null,
        // Runs being judged with the old checker are judged again with this one.
        generation: sql`${codeChallenges.generation} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(codeChallenges.challengeId, challengeId));
    await recordAudit(tx, actor, {
      kind: "code.checker",
      subjectId: challengeId,
      ...(before.hash ? { before: { language: before.language, file: before.name, sha256: before.hash } } : {}),
      after: { language: input.language, file: name, sha256: hash, bytes: Buffer.byteLength(input.source, "utf8") },
    });
    // The runs waiting (for a checker, or given up on the last one's crashes) get their tries back.
    return resetWaitingRuns(tx, challengeId);
  });
  // A runner compiles it now; were the job lost, the first program judged compiles it.
  await enqueue("runs", { checkerOf: challengeId }).catch(() => undefined);
  await enqueueWaitingRuns(waiting);
}

/** Writes back whether the challenge's checker compiled, for that very source only (a newer one may have been saved since). */
export async function recordCheckerState(challengeId: number, hash: string, compiled: CompiledChecker): Promise<void> {
  const state = compiled.ok ? "compiled" : "failed";
  const changed = await getDb()
    .update(codeChallenges)
    .set({ checkerState: state, checkerMessage: compiled.ok ? null : compiled.message, checkerProblem: compiled.ok ? null : compiled.problem })
    .where(and(eq(codeChallenges.challengeId, challengeId), eq(codeChallenges.checkerHash, hash), sql`${codeChallenges.checkerState} is distinct from ${state}`))
    .returning({ id: codeChallenges.challengeId });
  if (changed.length === 0) return;
  broadcastCheckerChanged(challengeId);
  if (!compiled.ok) return;
  // The runs that waited for a compiled checker (./runner.server.ts leaves them queued) are judged now.
  const waiting = await getDb()
    .select({ id: codeRuns.id })
    .from(codeRuns)
    .where(and(eq(codeRuns.challengeId, challengeId), eq(codeRuns.state, "queued"), lt(codeRuns.failures, GIVEN_UP_AFTER_FAILURES)));
  await enqueueWaitingRuns(waiting.map((row) => row.id));
}

export type CompiledChecker = { ok: true; program: Program } | { ok: false; message: string; problem: CompileProblem | null };

interface Kept {
  compiled: Promise<CompiledChecker>;
  /** Runs using it now: an evicted checker's box is removed once the last lets go. */
  users: number;
  evicted: boolean;
}

/**
 * This process's compiled checkers, by content hash: the few used last (a runner judges a challenge's runs in a
 * row). Only a compile under way or done is kept: a failure is never (it may be the machine's load: a compile out
 * of time), so the same source compiles again when asked (its state "failed" stops the runs from asking meanwhile).
 */
const kept = new Map<string, Kept>();
const CHECKERS_KEPT = 4;

function dispose(entry: Kept) {
  void entry.compiled.then((compiled) => {
    if (compiled.ok) removeBox(compiled.program);
  });
}

function forget(hash: string, entry: Kept) {
  if (kept.get(hash) === entry) kept.delete(hash);
}

/**
 * The checker compiled (once per hash in this process, on the calling run's slot, then sealed: root's and readable
 * by every slot user), held until `release`. A sandbox failure while compiling throws (the platform's fault); it and
 * a compile failure are not kept.
 */
export async function holdChecker(host: SandboxHost, slot: Slot, checker: CheckerSource): Promise<{ compiled: CompiledChecker; release: () => void }> {
  let entry = kept.get(checker.hash);
  if (entry) {
    // Used last: the least recently used is the one evicted.
    kept.delete(checker.hash);
    kept.set(checker.hash, entry);
  } else {
    const created: Kept = { users: 0, evicted: false, compiled: compileChecker(host, slot, checker) };
    entry = created;
    kept.set(checker.hash, created);
    created.compiled.then((compiled) => {
      if (!compiled.ok) forget(checker.hash, created);
    }, () => forget(checker.hash, created));
    for (const [hash, old] of kept) {
      if (kept.size <= CHECKERS_KEPT) break;
      kept.delete(hash);
      old.evicted = true;
      if (old.users === 0) dispose(old);
    }
  }
  const held = entry;
  held.users++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.users--;
    if (held.evicted && held.users === 0) dispose(held);
  };
  try {
    return { compiled: await held.compiled, release };
  } catch (error) {
    release();
    throw error;
  }
}

async function compileChecker(host: SandboxHost, slot: Slot, checker: CheckerSource): Promise<CompiledChecker> {
  // Named after this process: a runner that died leaves it behind, for the next one to remove (removeStaleCheckers).
  const program = makeBox(slot, checker.language, checker.source, `checker-${process.pid}-`);
  try {
    const compiled = await compileProgram(host, program);
    if (!compiled.ok) {
      if (compiled.result.outcome === "sandbox-failure") throw new Error(`the checker's compile sandbox failed: ${compiled.result.failure ?? ""}`);
      removeBox(program);
      return { ok: false, message: compiled.message, problem: compiled.problem };
    }
    sealBox(program);
    return { ok: true, program };
  } catch (error) {
    removeBox(program);
    throw error;
  }
}

/** The runner's job for a saved checker: compile it now, so the admins read the compiler's answer at once. */
export async function compileCheckerOf(challengeId: number, host: SandboxHost, slot: Slot): Promise<void> {
  const [row] = await getDb()
    .select({ language: codeChallenges.checkerLanguage, source: codeChallenges.checkerSource, hash: codeChallenges.checkerHash })
    .from(codeChallenges)
    .where(eq(codeChallenges.challengeId, challengeId));
  if (!row?.language || !row.source || !row.hash) return;
  const held = await holdChecker(host, slot, { language: row.language as CheckerLanguage, source: row.source, hash: row.hash });
  held.release();
  await recordCheckerState(challengeId, row.hash, held.compiled);
}

/** Removes the compiled checkers of runners no longer alive on this machine (a runner's start). */
export function removeStaleCheckers(): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(sandboxRoot());
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const pid = Number(/^checker-(\d+)-/.exec(entry)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") continue;
    }
    rmSync(path.join(sandboxRoot(), entry), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Removes this process's compiled checkers (the runner's shutdown). */
export async function forgetCheckers(): Promise<void> {
  const all = [...kept.values()];
  kept.clear();
  await Promise.allSettled(all.map(async (entry) => {
    const compiled = await entry.compiled;
    if (compiled.ok) removeBox(compiled.program);
  }));
  getLogger().debug({ checkers: all.length }, "compiled checkers removed");
}
