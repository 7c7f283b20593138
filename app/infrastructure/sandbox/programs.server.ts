/**
 * A submitted program's life in the sandbox (docs/decisions/042-code-sandbox.md): its own box (a directory
 * of the slot's user), a compile that sees the source alone, then one run per test that sees the compiled
 * box read-only and the test's input on its standard input, nothing else; the box removed at the end.
 */
import { chmodSync, chownSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { languages, type Language, type LanguageId } from "./languages.server.ts";
import { runInSandbox, type Limits, type SandboxHost, type SandboxResult, type Slot } from "./sandbox.server.ts";

const MB = 1024 * 1024;

/** Where boxes are made: root's, readable and traversable by the slot users (each box is its user's alone). */
export function sandboxRoot(): string {
  return process.env.GATEKEEPER_SANDBOX_DIR ?? "/var/lib/gatekeeper-sandbox";
}

/** The compile's own limits: a source that includes /dev/zero or expands templates for ever ends here. */
export const COMPILE_LIMITS: Limits = {
  cpuMs: 15_000,
  wallMs: 30_000,
  memoryBytes: 512 * MB,
  processes: 48,
  fileBytes: 64 * MB,
  openFiles: 256,
  stackBytes: 64 * MB,
  addressSpaceBytes: null,
  outputBytes: 64 * 1024,
  errorBytes: 64 * 1024,
  tmpBytes: 128 * MB,
};

/** Compiler messages shown to a team: this many characters at most, control characters gone. */
export const COMPILER_MESSAGE_CHARS = 2000;

/** Control characters (but new lines and tabs) and bidirectional controls removed, cut at a line end below the cap. */
export function cleanCompilerMessage(raw: string, cap = COMPILER_MESSAGE_CHARS): string {
  // Bidirectional controls too (embeddings, overrides, isolates, marks): a message quotes the team's source, and those
  // would reorder what a judge reads of it ("Trojan Source").
  /* eslint-disable no-control-regex -- control characters are what is removed (terminal escapes included) */
  const text = raw
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\/box\//g, "");
  /* eslint-enable no-control-regex */
  if (text.length <= cap) return text.trimEnd();
  const cut = text.slice(0, cap);
  const lineEnd = cut.lastIndexOf("\n");
  return `${(lineEnd > cap / 2 ? cut.slice(0, lineEnd) : cut).trimEnd()}\n…`;
}

export interface RunLimits {
  timeMs: number;
  memoryBytes: number;
  outputBytes: number;
}

/** A test run's limits from the challenge's: the wall clock at twice the CPU time and a second. */
export function runLimits(language: Language, limits: RunLimits): Limits {
  return {
    cpuMs: limits.timeMs,
    wallMs: limits.timeMs * 2 + 1000,
    memoryBytes: limits.memoryBytes,
    processes: language.processes,
    fileBytes: 16 * MB,
    openFiles: 128,
    stackBytes: 64 * MB,
    // Generous: the cgroup gives the memory verdict; this only stops address-space games.
    addressSpaceBytes: language.addressSpaceLimit ? limits.memoryBytes * 2 + 256 * MB : null,
    outputBytes: limits.outputBytes,
    errorBytes: 4096,
    tmpBytes: 16 * MB,
  };
}

export interface Program {
  language: Language;
  slot: Slot;
  box: string;
}

/** A fresh box for one submission, its slot user's own (mode 700). */
export function makeBox(slot: Slot, language: LanguageId, source: Buffer | string, prefix = `box-${slot.index}-`): Program {
  const root = sandboxRoot();
  mkdirSync(root, { recursive: true, mode: 0o711 });
  chmodSync(root, 0o711);
  const box = mkdtempSync(path.join(root, prefix));
  const chosen = languages()[language];
  writeFileSync(path.join(box, chosen.sourceFile), source, { mode: 0o600 });
  chownSync(path.join(box, chosen.sourceFile), slot.uid, slot.gid);
  chownSync(box, slot.uid, slot.gid);
  chmodSync(box, 0o700);
  return { language: chosen, slot, box };
}

export function removeBox(program: Program) {
  rmSync(program.box, { recursive: true, force: true });
}

/** Why a compile was stopped, beside the compiler's own lines: a code the screens put in words (app/locales: code.compileProblems). */
export type CompileProblem = "compile-timeout" | "compile-memory" | "compile-output";

export type CompileOutcome = { ok: true; result: SandboxResult } | { ok: false; message: string; problem: CompileProblem | null; result: SandboxResult };

export async function compileProgram(host: SandboxHost, program: Program): Promise<CompileOutcome> {
  const result = await runInSandbox(host, {
    slot: program.slot,
    command: program.language.compile,
    box: program.box,
    boxWritable: true,
    readOnly: program.language.etc,
    limits: COMPILE_LIMITS,
  });
  if (result.outcome === "exited" && result.exitCode === 0) return { ok: true, result };
  const message = cleanCompilerMessage(`${result.stderr.toString("utf8")}\n${result.stdout.toString("utf8")}`.trim());
  const problem = result.outcome === "time" ? "compile-timeout" : result.outcome === "memory" ? "compile-memory" : result.outcome === "output" ? "compile-output" : null;
  return { ok: false, message, problem, result };
}

/**
 * A compiled box handed over to root and made readable by every slot user (a checker, compiled once and run after
 * any slot's tests): directories 755, files 644 (755 if executable). Links are left as they are, never followed
 * (inside a sandbox they point into its own namespace).
 */
export function sealBox(program: Program) {
  const seal = (target: string) => {
    const stat = lstatSync(target);
    if (stat.isSymbolicLink()) return;
    lchownSync(target, 0, 0);
    if (stat.isDirectory()) {
      chmodSync(target, 0o755);
      for (const entry of readdirSync(target)) seal(path.join(target, entry));
    } else chmodSync(target, stat.mode & 0o100 ? 0o755 : 0o644);
  };
  seal(program.box);
}

/**
 * How a Python checker is run: through this wrapper, since Python exits 1 (a wrong answer, by testlib's codes) on
 * any uncaught exception. The checker's own exit (sys.exit with a number, or none) passes through as it is; an
 * exception escaping it prints its traceback and exits 3, a judge error (docs/decisions/042-code-sandbox.md).
 */
const PYTHON_CHECKER_WRAPPER = `import runpy, sys, traceback
def crashed(error):
    # The exception first (the admins read the first lines), then the checker's own frames.
    sys.stderr.write("".join(traceback.format_exception_only(type(error), error)))
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "main.py"]
    sys.stderr.write("".join(traceback.format_list(frames)))
    sys.exit(3)
sys.argv[0] = "main.py"
try:
    runpy.run_path("main.py", run_name="__main__")
except SystemExit as stop:
    if stop.code is None or isinstance(stop.code, int):
        raise
    crashed(stop)
except BaseException as error:
    crashed(error)
`;

function checkerCommand(checker: Program, limits: RunLimits): string[] {
  const run = checker.language.run(limits.memoryBytes);
  if (checker.language.id !== "python3") return run;
  // The interpreter and its flags, then the wrapper in place of the source's name (the wrapper runs it).
  return [...run.slice(0, -1), "-c", PYTHON_CHECKER_WRAPPER];
}

/**
 * A checker's run (docs/domain.md "Code challenges"): its sealed box read-only at /box, the test's input, the
 * program's output and the expected output as /data/input, /data/output and /data/answer (read-only, the slot
 * user's own files), called as testlib's checkers are: `checker input output answer`.
 */
export async function runChecker(host: SandboxHost, checker: Program, slot: Slot, files: { input: Buffer; output: Buffer; answer: Buffer }, limits: RunLimits): Promise<SandboxResult> {
  const data = mkdtempSync(path.join(sandboxRoot(), `data-${slot.index}-`));
  try {
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(path.join(data, name), content, { mode: 0o400 });
      chownSync(path.join(data, name), slot.uid, slot.gid);
    }
    chownSync(data, slot.uid, slot.gid);
    chmodSync(data, 0o500);
    return await runInSandbox(host, {
      slot,
      command: [...checkerCommand(checker, limits), "/data/input", "/data/output", "/data/answer"],
      box: checker.box,
      boxWritable: false,
      binds: [{ from: data, to: "/data" }],
      readOnly: checker.language.etc,
      limits: runLimits(checker.language, limits),
    });
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/** One test: the input file on standard input (root's file; the sandbox gets the descriptor only). */
export function runProgram(host: SandboxHost, program: Program, inputFile: string, limits: RunLimits): Promise<SandboxResult> {
  return runInSandbox(host, {
    slot: program.slot,
    command: program.language.run(limits.memoryBytes),
    box: program.box,
    boxWritable: false,
    stdinFile: inputFile,
    readOnly: program.language.etc,
    limits: runLimits(program.language, limits),
  });
}
