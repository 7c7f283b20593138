/**
 * Scoring a team's predictions file (the worker's `predictions` job) and checking an admin's labels file, both
 * streamed from storage through ./parse.server.ts (docs/domain.md "Prediction challenges"). A scored file's team is marked
 * stale in the same transaction as its scores (the outbox), then recomputed by the standings job.
 */
import { and, eq } from "drizzle-orm";
import type { Readable } from "node:stream";
import { predictionSubmissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { openObject } from "../../infrastructure/s3.server.ts";
import { broadcastPredictionsChanged } from "../realtime/broadcast.server.ts";
import { isScoreboardFrozen } from "../standings/freeze.server.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import type { Metric } from "./metrics.ts";
import { readLabels, readPredictions, type Faults, type Labels } from "./parse.server.ts";
import { getPredictionChallenge, type LabelsRead } from "./predictions.server.ts";
import { scorePredictions, splitOf, splitScorable, type Split } from "./score.server.ts";

/** The labels and split last read by this process (a challenge's files come in runs): one entry. */
let cached: { key: string; labels: Labels; split: Split } | null = null;

async function labelsAndSplit(labelsKey: string, metric: Metric, publicPercent: number, seed: string, open: (key: string) => Promise<Readable>) {
  const cacheKey = `${labelsKey}\u0000${metric}\u0000${publicPercent}\u0000${seed}`;
  if (cached?.key === cacheKey) return { ok: true as const, labels: cached.labels, split: cached.split };
  cached = null;
  const read = await readLabels(await open(labelsKey), metric);
  if (!read.ok) return { ok: false as const, faults: read.faults };
  const split = splitOf(read.value.rows, publicPercent, seed);
  cached = { key: cacheKey, labels: read.value, split };
  return { ok: true as const, labels: read.value, split };
}

const openStored = async (key: string) => (await openObject(key)).body;

/**
 * Reads an uploaded labels file for the challenge's metric and split: its faults (first lines), or what to keep.
 * ROC AUC's public and private rows must each hold both classes.
 */
export async function checkLabels(
  file: { key: string; name: string },
  settings: { metric: Metric; publicPercent: number; seed: string },
  open: (key: string) => Promise<Readable> = openStored,
): Promise<{ ok: true; value: LabelsRead } | { ok: false; faults: Faults }> {
  const read = await readLabels(await open(file.key), settings.metric);
  if (!read.ok) return read;
  const split = splitOf(read.value.rows, settings.publicPercent, settings.seed);
  if (!splitScorable(read.value, split)) return { ok: false, faults: { count: 1, first: [{ code: "oneClassSplit", line: 0 }] } };
  return { ok: true, value: { key: file.key, name: file.name, rows: read.value.rows, idColumn: read.value.idColumn, targetColumn: read.value.targetColumn } };
}

/**
 * Scores one queued file: reads the labels (or this process's copy), streams the file against them, and saves its two
 * scores, or its faults. A file already scored or failed is left as it is (a job run twice). Returns what happened.
 */
export async function scoreSubmission(submissionId: number, open: (key: string) => Promise<Readable> = openStored): Promise<"scored" | "failed" | "skipped"> {
  const [submission] = await getDb().select().from(predictionSubmissions).where(eq(predictionSubmissions.id, submissionId));
  if (!submission || submission.status !== "queued") return "skipped";
  const challenge = await getPredictionChallenge(submission.challengeId);
  let outcome: { publicScore: number | null; privateScore: number | null } | { faults: Faults };
  if (!challenge?.labelsKey) outcome = { faults: { count: 1, first: [{ code: "noLabels", line: 0 }] } };
  else {
    const truth = await labelsAndSplit(challenge.labelsKey, challenge.metric, challenge.publicPercent, challenge.seed, open);
    if (!truth.ok) outcome = { faults: { count: 1, first: [{ code: "noLabels", line: 0 }] } };
    else {
      const read = await readPredictions(await open(submission.fileKey), truth.labels);
      outcome = read.ok ? scorePredictions(truth.labels, read.value, truth.split) : { faults: read.faults };
    }
  }
  const scored = !("faults" in outcome);
  const result = outcome;
  const saved = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(predictionSubmissions)
      .set(
        "faults" in result
          ? { status: "failed", faults: result.faults, scoredAt: new Date() }
          : { status: "scored", publicScore: result.publicScore, privateScore: result.privateScore, scoredAt: new Date() },
      )
      .where(and(eq(predictionSubmissions.id, submissionId), eq(predictionSubmissions.status, "queued")))
      .returning({ teamId: predictionSubmissions.teamId });
    // A scored file may be the team's counted one: its standings follow (the outbox, then the standings job).
    if (row && scored) await markStandingsStale(tx, row.teamId);
    return row ?? null;
  });
  if (!saved) return "skipped";
  if (scored) await requestStandingsRecompute(saved.teamId);
  // No score in it, and only to whom the change concerns: who may read what is the pages' business (docs/domain.md
  // "Prediction challenges").
  broadcastPredictionsChanged(submission.challengeId, { teamId: saved.teamId, scored, frozen: scored && (await isScoreboardFrozen()) });
  return scored ? "scored" : "failed";
}
