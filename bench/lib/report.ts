/**
 * What every benchmark shares: its profile (full or --smoke), repeated runs summarised as medians
 * with their spread, a printed table, and a JSON result under bench/results/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { REPO_ROOT } from "./servers.ts";

export const RESULTS_DIR = path.join(REPO_ROOT, "bench", "results");

/**
 * Parses a benchmark's options plus the shared ones: --smoke (a seconds-long run that only proves
 * the benchmark still works), --runs, --out (a JSON path). Unset options fall back to the profile.
 */
export function benchArgs<K extends string>(options: Record<K, { type: "string" }>) {
  const config: ParseArgsConfig = {
    options: { ...options, smoke: { type: "boolean", default: false }, runs: { type: "string" }, out: { type: "string" } },
    strict: true,
  };
  const { values } = parseArgs(config);
  return values as unknown as { [Key in K]?: string } & { smoke: boolean; runs?: string; out?: string };
}

/** An option as a number, else the profile's value. */
export function numberOption(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new Error(`not a number: ${value}`);
  return parsed;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A figure over repeated runs: the median, and the range as the noise. */
export function acrossRuns(values: readonly number[]) {
  const finite = values.filter(Number.isFinite);
  const mid = median(finite);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return { median: mid, min, max, runs: finite.length, spreadPct: mid ? ((max - min) / mid) * 100 : 0 };
}

export type RunFigure = ReturnType<typeof acrossRuns>;

/** "12.3 (11.9–14.0)": median with the range over runs. */
export function showFigure(figure: RunFigure, digits = 1): string {
  if (figure.runs <= 1) return figure.median.toFixed(digits);
  return `${figure.median.toFixed(digits)} (${figure.min.toFixed(digits)}–${figure.max.toFixed(digits)})`;
}

export function targetVerdict(met: boolean): string {
  return met ? "met" : "MISSED";
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadAverage: os.loadavg().map((load) => +load.toFixed(2)),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

/**
 * Prints the table and writes the JSON: a full run to bench/results/<name>.json (committed: the
 * latest figures), a smoke run to <name>.smoke.tmp (ignored by git).
 */
export function report(name: string, smoke: boolean, title: string, rows: Array<Record<string, unknown>>, details: Record<string, unknown>, out?: string) {
  console.info(`\n${title}${smoke ? " [smoke: sizes too small for the targets]" : ""}`);
  console.table(rows);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = out ?? path.join(RESULTS_DIR, smoke ? `${name}.smoke.tmp` : `${name}.json`);
  writeFileSync(file, `${JSON.stringify({ benchmark: name, profile: smoke ? "smoke" : "full", at: new Date().toISOString(), machine: machine(), rows, ...details }, null, 2)}\n`);
  console.info(`results: ${path.relative(process.cwd(), file)}`);
}

/** A correctness failure (not a timing one): the benchmark exits non-zero, smoke or not. */
export class BenchFailure extends Error {}
