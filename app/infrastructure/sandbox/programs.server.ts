/**
 * A submitted program's life in the sandbox (docs/decisions/042-code-sandbox.md): its own box (a directory
 * of the slot's user), a compile that sees the source alone, then one run per test that sees the compiled
 * box read-only and the test's input on its standard input, nothing else; the box removed at the end.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

/** Control characters (but new lines and tabs) removed, cut at a line end below the cap. */
export function cleanCompilerMessage(raw: string, cap = COMPILER_MESSAGE_CHARS): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed (terminal escapes included)
  const text = raw.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "").replace(/\/box\//g, "");
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
export function makeBox(slot: Slot, language: LanguageId, source: Buffer | string): Program {
  const root = sandboxRoot();
  mkdirSync(root, { recursive: true, mode: 0o711 });
  chmodSync(root, 0o711);
  const box = mkdtempSync(path.join(root, `box-${slot.index}-`));
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

export type CompileOutcome = { ok: true; result: SandboxResult } | { ok: false; message: string; result: SandboxResult };

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
  const said = cleanCompilerMessage(`${result.stderr.toString("utf8")}\n${result.stdout.toString("utf8")}`.trim());
  const why =
    result.outcome === "time"
      ? "The compilation took too long."
      : result.outcome === "memory"
        ? "The compilation used too much memory."
        : result.outcome === "output"
          ? "The compiler wrote too much."
          : "";
  return { ok: false, message: [why, said].filter(Boolean).join("\n"), result };
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
