/**
 * Judging one program against a challenge's hidden tests (docs/domain.md "Code challenges"): compile in a
 * sandbox that holds no tests, then each subtask's tests in order, each run seeing only its own input; the
 * first failing test of a subtask stops that subtask. Points: the shares of the subtasks fully passed.
 *
 * The sandbox's own failures are never the program's: the whole run is a judge error (re-queued by the runner).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type LanguageId } from "~/infrastructure/sandbox/languages.server";
import { compileProgram, makeBox, removeBox, runChecker, runProgram, type CompileProblem, type Program, type RunLimits } from "~/infrastructure/sandbox/programs.server";
import { type SandboxHost, type SandboxResult, type Slot } from "~/infrastructure/sandbox/sandbox.server";
import { checkerWords } from "./checker.server";
import { outputMatches, type Comparator } from "./compare";
import { type TestsArchive } from "./tests-archive.server";

export const VERDICTS = ["accepted", "wrong-answer", "time-limit", "memory-limit", "runtime-error", "compilation-error", "output-limit", "judge-error"] as const;
export type Verdict = (typeof VERDICTS)[number];
/** Per test, also: not run (an earlier test of its subtask failed). */
export type TestVerdict = Verdict | "skipped";

export interface TestResult {
  subtask: string;
  test: string;
  verdict: TestVerdict;
  timeMs: number;
  memoryBytes: number;
  /** The checker's first lines of standard error (comparator "checker"): admins and judges only, never the team. */
  checkerMessage?: string;
}

export interface SubtaskResult {
  name: string;
  share: number;
  passed: boolean;
}

export interface Judgement {
  verdict: Verdict;
  /** The compiler's message, cut and cleaned (compilation errors only). */
  compileMessage: string | null;
  /** Why the compile was stopped (a time, memory or output limit), put in words by the screens. */
  compileProblem: CompileProblem | null;
  /** What went wrong on the platform's side (judge errors only; for the admins, never the team). */
  failure: string | null;
  /** The same for the runner's log when it differs: no checker's words there (they may quote a hidden test). */
  failureLogged?: string;
  tests: TestResult[];
  subtasks: SubtaskResult[];
  /** The passed subtasks' shares over the archive's total: 0 to 1. */
  fraction: number;
}

export interface JudgeRequest {
  slot: Slot;
  language: LanguageId;
  source: string;
  archive: TestsArchive;
  limits: RunLimits;
  comparator: Comparator;
  /** The compiled checker and its limits (comparator "checker"; ./checker.server.ts). */
  checker?: { program: Program; limits: RunLimits };
  /** Called before each test (the live "running test n of m"). */
  onTest?: (index: number, count: number) => void;
  /**
   * Asked before each test: true stops the judging there, its sandbox slot free again (the run was taken over by
   * another runner, whose verdict is the one that counts). The judgement is then a judge error nobody records.
   */
  shouldStop?: () => boolean;
  onCompiling?: () => void;
}

/** What the checker's run says (testlib's exit codes): a verdict, or the checker's own failure (a judge error). */
function checkerVerdict(result: SandboxResult): { verdict: "accepted" | "wrong-answer"; message: string } | { failure: string; how: string } {
  const message = checkerWords(result.stderr);
  if (result.outcome === "exited" && result.exitCode === 0) return { verdict: "accepted", message };
  // 2: a presentation error, which is a wrong answer here.
  if (result.outcome === "exited" && (result.exitCode === 1 || result.exitCode === 2)) return { verdict: "wrong-answer", message };
  const how =
    result.outcome === "exited"
      ? `exit code ${result.exitCode}`
      : result.outcome === "signaled"
        ? `signal ${result.signal}`
        : result.outcome === "sandbox-failure"
          ? `sandbox failure ${result.failure ?? ""}`
          : `${result.outcome} limit`;
  return { failure: `${how}${message ? `: ${message}` : ""}`, how };
}

/**
 * A runtime's own words for the two limits it meets before the kernel's do: its heap is sized under the memory limit
 * (Java's -Xmx, Node's old space: ./languages.server.ts), and Python, Java and Node ignore SIGXFSZ, so a file past its
 * size limit is an error they report (EFBIG). Read from what the sandbox keeps of the program's standard error, its
 * first 4 KB (a program that fills them first is a runtime error): a program that prints the words itself only names
 * its own failure differently (either way the test fails, and the subtask with it).
 */
const RUNTIME_OUT_OF_MEMORY = /java\.lang\.OutOfMemoryError|JavaScript heap out of memory|^MemoryError\b/m;
const RUNTIME_FILE_TOO_LARGE = /file too large|\bEFBIG\b/i;

/** A test's verdict from its run (exported for its unit test). */
export function testVerdict(result: SandboxResult, matches: () => boolean): Verdict {
  switch (result.outcome) {
    case "sandbox-failure":
      return "judge-error";
    case "time":
      return "time-limit";
    case "memory":
      return "memory-limit";
    case "output":
      return "output-limit";
    case "signaled":
      if (result.signal === 25 /* SIGXFSZ: a file beyond the size limit */) return "output-limit";
      return failedRunVerdict(result);
    case "exited":
      return result.exitCode !== 0 ? failedRunVerdict(result) : matches() ? "accepted" : "wrong-answer";
  }
}

function failedRunVerdict(result: SandboxResult): Verdict {
  const said = result.stderr.toString("utf8");
  if (RUNTIME_OUT_OF_MEMORY.test(said)) return "memory-limit";
  if (RUNTIME_FILE_TOO_LARGE.test(said)) return "output-limit";
  return "runtime-error";
}

export async function judge(host: SandboxHost, request: JudgeRequest): Promise<Judgement> {
  const empty = (verdict: Verdict, extra: Partial<Judgement> = {}): Judgement => ({
    verdict,
    compileMessage: null,
    compileProblem: null,
    failure: null,
    tests: [],
    subtasks: request.archive.subtasks.map((subtask) => ({ name: subtask.name, share: subtask.share, passed: false })),
    fraction: 0,
    ...extra,
  });
  const program = makeBox(request.slot, request.language, request.source);
  // Inputs are root's files outside every box: a run gets its own test's as a descriptor, nothing else.
  const inputs = mkdtempSync(path.join(tmpdir(), "gk-inputs-"));
  try {
    request.onCompiling?.();
    const compiled = await compileProgram(host, program);
    if (!compiled.ok) {
      if (compiled.result.outcome === "sandbox-failure") return empty("judge-error", { failure: compiled.result.failure ?? "compile sandbox failed" });
      return empty("compilation-error", { compileMessage: compiled.message, compileProblem: compiled.problem });
    }
    const count = request.archive.subtasks.reduce((sum, subtask) => sum + subtask.tests.length, 0);
    const tests: TestResult[] = [];
    const subtasks: SubtaskResult[] = [];
    let verdict: Verdict = "accepted";
    let index = 0;
    for (const subtask of request.archive.subtasks) {
      let passed = true;
      for (const test of subtask.tests) {
        index++;
        if (!passed) {
          tests.push({ subtask: subtask.name, test: test.name, verdict: "skipped", timeMs: 0, memoryBytes: 0 });
          continue;
        }
        if (request.shouldStop?.()) return empty("judge-error", { failure: `stopped before test ${index} of ${count}` });
        request.onTest?.(index, count);
        const input = path.join(inputs, "input");
        writeFileSync(input, test.input, { mode: 0o600 });
        const result = await runProgram(host, program, input, request.limits);
        if (result.outcome === "sandbox-failure") return empty("judge-error", { failure: result.failure ?? "run sandbox failed" });
        const comparator = request.comparator;
        let checkerMessage: string | undefined;
        let outcome: Verdict;
        if (comparator !== "checker") outcome = testVerdict(result, () => outputMatches(comparator, result.stdout.toString("utf8"), test.output.toString("utf8")));
        else {
          outcome = testVerdict(result, () => true);
          if (outcome === "accepted") {
            if (!request.checker) return empty("judge-error", { failure: "the challenge's checker is missing" });
            const checked = checkerVerdict(await runChecker(host, request.checker.program, request.slot, { input: test.input, output: result.stdout, answer: test.output }, request.checker.limits));
            if ("failure" in checked) {
              const where = `the checker failed on ${subtask.name}/${test.name}`;
              return empty("judge-error", { failure: `${where}: ${checked.failure}`, failureLogged: `${where}: ${checked.how}` });
            }
            outcome = checked.verdict;
            if (checked.message) checkerMessage = checked.message;
          }
        }
        tests.push({
          subtask: subtask.name,
          test: test.name,
          verdict: outcome,
          timeMs: Math.round(Math.min(result.cpuMs, request.limits.timeMs + 1)),
          memoryBytes: result.memoryBytes,
          ...(checkerMessage ? { checkerMessage } : {}),
        });
        if (outcome !== "accepted") {
          passed = false;
          if (verdict === "accepted") verdict = outcome;
        }
      }
      subtasks.push({ name: subtask.name, share: subtask.share, passed });
    }
    const earned = subtasks.filter((subtask) => subtask.passed).reduce((sum, subtask) => sum + subtask.share, 0);
    return { verdict, compileMessage: null, compileProblem: null, failure: null, tests, subtasks, fraction: earned / request.archive.totalShare };
  } catch (error) {
    return empty("judge-error", { failure: (error as Error).message });
  } finally {
    removeBox(program);
    rmSync(inputs, { recursive: true, force: true });
  }
}
