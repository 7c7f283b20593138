/**
 * A team's predictions scored against the labels (docs/domain.md "Prediction challenges"): the metric over the
 * public rows and over the private ones (app/modules/predictions/split.server.ts), each turned into points.
 */
import { scoreOf, type Metric } from "./metrics.ts";
import type { Labels, Predictions } from "./parse.server.ts";
import { privateRows, publicRows } from "./split.server.ts";

export interface Split {
  publicMarks: Uint8Array;
  privateMarks: Uint8Array;
}

export function splitOf(rows: number, publicPercent: number, seedHex: string): Split {
  const publicMarks = publicRows(rows, publicPercent, seedHex);
  return { publicMarks, privateMarks: privateRows(publicMarks) };
}

export interface Scored {
  publicScore: number | null;
  privateScore: number | null;
}

/** The metric over the public rows and over the private ones (their points: metrics.ts `pointsCentiOf`). */
export function scorePredictions(labels: Labels, predictions: Predictions, split: Split, metric: Metric = labels.metric): Scored {
  const truth = (labels.codes ?? labels.numbers)!;
  const guess = (predictions.codes ?? predictions.numbers)!;
  const classes = labels.classes.length;
  return { publicScore: scoreOf(metric, truth, guess, split.publicMarks, classes), privateScore: scoreOf(metric, truth, guess, split.privateMarks, classes) };
}

/**
 * Whether every part of the split can be scored: ROC AUC needs both classes among the public rows and among the
 * private ones (else the area is undefined). A labels file whose split fails this is refused at its upload.
 */
export function splitScorable(labels: Labels, split: Split): boolean {
  if (labels.metric !== "roc_auc") return true;
  const codes = labels.codes!;
  const seen = [0, 0, 0, 0];
  for (let i = 0; i < codes.length; i++) seen[(split.publicMarks[i] === 1 ? 0 : 2) + codes[i]] = 1;
  const publicRowsExist = split.publicMarks.some((mark) => mark === 1);
  const privateRowsExist = split.privateMarks.some((mark) => mark === 1);
  return (!publicRowsExist || (seen[0] === 1 && seen[1] === 1)) && (!privateRowsExist || (seen[2] === 1 && seen[3] === 1));
}
