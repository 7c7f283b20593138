/**
 * Scoring a predictions file (docs/domain.md "Prediction challenges"; docs/PERFORMANCE.md "Predictions"): a
 * 1,000,000-row labels file and a 1,000,000-row predictions file for each metric, read and scored by the worker's
 * code (app/modules/predictions: its byte-level CSV reader into typed arrays, the split, the metric) in a fresh Node
 * process per run, as a worker's job does with a cold cache: the labels read, then the file. Reported per metric:
 * the wall time of the whole job and of the file alone (labels already read, the worker's cache), the process's
 * peak RSS (the kernel's max RSS) and its peak V8 heap, as medians of the runs. The files are read from the local
 * disk, or with `--storage` as the worker reads them: streamed from S3 (S3_* or the project-local storage), the
 * transfer included.
 *
 *   npm run bench:predictions [-- --rows N] [--runs N] [--metrics rmse,roc_auc,...] [--storage]
 */
import { execFileSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { METRICS, type Metric } from "../app/modules/predictions/metrics.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};

interface RunResult {
  totalMs: number;
  fileMs: number;
  /** CPU time (user + system) of the job: what it costs on a machine that is not shared. */
  cpuMs: number;
  maxRssMb: number;
  heapPeakMb: number;
  publicScore: number | null;
}

/** One run, in this process (started as a child by the parent): prints its result as JSON. */
async function child(metric: Metric, labelsPath: string, predictionsPath: string, fromStorage: boolean) {
  const { readLabels, readPredictions } = await import("../app/modules/predictions/parse.server.ts");
  const { openObject } = await import("../app/infrastructure/s3.server.ts");
  // A stored object's key, or a local file: the worker's stream (app/modules/predictions/scoring.server.ts), or the disk's.
  const open = async (where: string) => (fromStorage ? (await openObject(where)).body : createReadStream(where, { highWaterMark: 256 * 1024 }));
  const { scorePredictions, splitOf } = await import("../app/modules/predictions/score.server.ts");
  let heapPeak = 0;
  const sample = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 20);
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const labels = await readLabels(await open(labelsPath), metric);
  if (!labels.ok) throw new Error(JSON.stringify(labels.faults));
  const split = splitOf(labels.value.rows, 30, "5e".repeat(32));
  const fileStarted = performance.now();
  const read = await readPredictions(await open(predictionsPath), labels.value);
  if (!read.ok) throw new Error(JSON.stringify(read.faults));
  const scored = scorePredictions(labels.value, read.value, split);
  const ended = performance.now();
  const cpu = process.cpuUsage(cpuStart);
  clearInterval(sample);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  const result: RunResult = {
    totalMs: ended - started,
    fileMs: ended - fileStarted,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapPeakMb: heapPeak / 1024 / 1024,
    publicScore: scored.publicScore,
  };
  process.stdout.write(JSON.stringify(result));
}

/** Writes the two files for a metric: ids 1..rows in a shuffled order in the predictions (a team's file need not follow the labels). */
async function writeFiles(dir: string, metric: Metric, rows: number) {
  const labelsPath = path.join(dir, `${metric}-labels.csv`);
  const predictionsPath = path.join(dir, `${metric}-predictions.csv`);
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const classes = ["cat", "dog", "bird", "fish", "frog"];
  const truth = (i: number) => (metric === "roc_auc" ? String(i % 3 === 0 ? 1 : 0) : metric === "accuracy" || metric === "macro_f1" ? classes[i % 5] : (i % 1000) / 10 + "");
  const guess = (i: number) =>
    metric === "roc_auc"
      ? (random() * 0.6 + (i % 3 === 0 ? 0.3 : 0)).toFixed(6)
      : metric === "accuracy" || metric === "macro_f1"
        ? random() < 0.7
          ? classes[i % 5]
          : classes[Math.floor(random() * 5)]
        : ((i % 1000) / 10 + random() * 4 - 2).toFixed(4);
  const write = async (file: string, header: string, line: (i: number) => string, order: Uint32Array | null) => {
    const out = createWriteStream(file);
    let chunk = header;
    for (let k = 0; k < rows; k++) {
      const i = order ? order[k] : k;
      chunk += line(i);
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await once(out, "drain");
        chunk = "";
      }
    }
    out.end(chunk);
    await once(out, "finish");
  };
  const order = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) order[i] = i;
  for (let i = rows - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  await write(labelsPath, "id,target\n", (i) => `${i + 1},${truth(i)}\n`, null);
  await write(predictionsPath, "id,target\n", (i) => `${i + 1},${guess(i)}\n`, order);
  return { labelsPath, predictionsPath };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  if (args[0] === "--child") return child(args[1] as Metric, args[2], args[3], args[4] === "storage");
  const fromStorage = args.includes("--storage");
  const { deleteObject, newObjectKey, uploadStream } = await import("../app/infrastructure/s3.server.ts");
  const rows = Number(option("rows", "1000000"));
  const runs = Number(option("runs", "3"));
  const metrics = option("metrics", METRICS.join(",")).split(",") as Metric[];
  const dir = mkdtempSync(path.join(tmpdir(), "predictions-bench-"));
  const self = fileURLToPath(import.meta.url);
  console.log(`Scoring ${rows.toLocaleString("en")} rows, ${runs} runs a metric, a fresh process each (node ${process.version}), read from ${fromStorage ? "storage (S3)" : "the local disk"}`);
  console.log("metric    | job (labels + file) ms | job CPU ms | file alone ms | max RSS MB | heap peak MB | public score");
  try {
    for (const metric of metrics) {
      const { labelsPath, predictionsPath } = await writeFiles(dir, metric, rows);
      const results: RunResult[] = [];
      // With --storage the children read the two files as stored objects, put there once per metric.
      const stored = fromStorage ? { labels: newObjectKey("bench"), predictions: newObjectKey("bench") } : null;
      if (stored) {
        await uploadStream({ key: stored.labels, body: createReadStream(labelsPath), contentType: "text/csv", limitBytes: 1 << 30 });
        await uploadStream({ key: stored.predictions, body: createReadStream(predictionsPath), contentType: "text/csv", limitBytes: 1 << 30 });
      }
      try {
        for (let run = 0; run < runs; run++) {
          const where = stored ? [stored.labels, stored.predictions, "storage"] : [labelsPath, predictionsPath, "disk"];
          const out = execFileSync(process.execPath, ["--import", "tsx", self, "--child", metric, ...where], { encoding: "utf8", maxBuffer: 1 << 20 });
          results.push(JSON.parse(out) as RunResult);
        }
      } finally {
        if (stored) await Promise.all([deleteObject(stored.labels), deleteObject(stored.predictions)]);
      }
      const line = [
        metric.padEnd(9),
        median(results.map((r) => r.totalMs)).toFixed(0).padStart(22),
        median(results.map((r) => r.cpuMs)).toFixed(0).padStart(10),
        median(results.map((r) => r.fileMs)).toFixed(0).padStart(13),
        median(results.map((r) => r.maxRssMb)).toFixed(0).padStart(10),
        median(results.map((r) => r.heapPeakMb)).toFixed(0).padStart(12),
        String(results[0].publicScore?.toFixed(4)),
      ];
      console.log(line.join(" | "));
      rmSync(labelsPath);
      rmSync(predictionsPath);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
