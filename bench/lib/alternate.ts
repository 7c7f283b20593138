/**
 * A benchmark's before and after in one run: the same benchmark script of this checkout, run again and again
 * as a child process, its servers alternately from this checkout and from another (`--root DIR`, a git
 * worktree at another commit, built, with its own node_modules), ABBA by round (this, other; other, this; …),
 * so both versions meet the machine as it is at the same minutes. The load generator is this checkout's
 * every time: only the servers differ.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./servers.ts";

export interface AlternateRun {
  round: number;
  version: "this" | "versus";
  /** The JSON the benchmark wrote (its `--out`). */
  result: Record<string, unknown>;
}

/** Runs `script` (relative to this checkout) `rounds` × 2 times with `args`, alternating the servers' checkout. */
export async function alternateRuns(script: string, versusRoot: string, rounds: number, args: readonly string[]): Promise<AlternateRun[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gk-versus-"));
  const runs: AlternateRun[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const order: Array<"this" | "versus"> = round % 2 === 1 ? ["this", "versus"] : ["versus", "this"];
      for (const version of order) {
        const out = path.join(dir, `${round}-${version}.json`);
        const rootArgs = version === "versus" ? ["--root", versusRoot] : [];
        console.info(`\n== round ${round} of ${rounds}: ${version === "this" ? "this checkout" : versusRoot}`);
        await runChild([...process.execArgv, script, ...args, ...rootArgs, "--out", out]);
        runs.push({ round, version, result: JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown> });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

function runChild(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited with ${code}`))));
  });
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
