/**
 * The code sandbox's own cost per run (docs/decisions/042-code-sandbox.md): the same trivial program (a static
 * C binary that reads two numbers and prints their sum) run N times directly, and N times through the whole
 * sandbox (control groups made and removed, prlimit, setpriv, bwrap with its namespaces and seccomp filter),
 * alternating, in one process; the medians and the 90th percentiles of the wall time, and their difference.
 *
 *   npm run bench:runner [-- --runs N]      (as root, after scripts/lib/ensure.sh ensure_sandbox)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { compileProgram, makeBox, removeBox, runProgram } from "../app/infrastructure/sandbox/programs.server.ts";
import { sandboxHost } from "../app/infrastructure/sandbox/sandbox.server.ts";

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 100;

const host = await sandboxHost();
if ("reason" in host) {
  console.error(`bench:runner cannot run here: ${host.reason}`);
  process.exit(1);
}
const program = makeBox(host.slots[0]!, "c", `#include <stdio.h>\nint main(void){ long a, b; if (scanf("%ld %ld", &a, &b) != 2) return 1; printf("%ld\\n", a + b); return 0; }`);
const inputs = mkdtempSync(path.join(tmpdir(), "gk-bench-"));
const input = path.join(inputs, "input");
writeFileSync(input, "2 40\n");

const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

function direct(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(program.box, "main"), [], { stdio: ["pipe", "pipe", "ignore"] });
    child.stdin.end("2 40\n");
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.on("close", (code) => (code === 0 && out.trim() === "42" ? resolve(performance.now() - started) : reject(new Error(`direct run failed: ${code} ${out}`))));
  });
}

try {
  const compiled = await compileProgram(host, program);
  if (!compiled.ok) throw new Error(compiled.message);
  const outside: number[] = [];
  const inside: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    outside.push(await direct());
    const result = await runProgram(host, program, input, { timeMs: 1000, memoryBytes: 64 * 1024 * 1024, outputBytes: 1024 });
    if (result.outcome !== "exited" || result.stdout.toString().trim() !== "42") throw new Error(`sandboxed run failed: ${result.outcome} ${result.stderr.toString()}`);
    inside.push(result.wallMs);
  }
  const row = (what: string, values: number[]) => console.log(`${what.padEnd(24)} median ${percentile(values, 0.5).toFixed(1)} ms   p90 ${percentile(values, 0.9).toFixed(1)} ms`);
  console.log(`${RUNS} runs each, alternating, on ${host.cgroups.version === 1 ? "cgroup v1" : "cgroup v2"}`);
  row("outside (spawn)", outside);
  row("inside the sandbox", inside);
  console.log(`overhead (median)        ${(percentile(inside, 0.5) - percentile(outside, 0.5)).toFixed(1)} ms per run`);
} finally {
  removeBox(program);
  rmSync(inputs, { recursive: true, force: true });
}
