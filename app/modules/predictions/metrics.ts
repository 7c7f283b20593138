/**
 * The metrics of prediction challenges (docs/domain.md "Prediction challenges"), pure and over typed arrays, so
 * a million rows are scored in a few tens of milliseconds and a few megabytes. Every function reads the rows whose
 * `subset` byte is 1 (the public rows, or the private ones: app/modules/predictions/split.server.ts) and the labels and
 * predictions in row order: classes as small integer codes (accuracy, macro-F1, ROC AUC's labels), numbers as
 * float64 (RMSE, MAE, ROC AUC's scores).
 */

export const METRICS = ["accuracy", "macro_f1", "rmse", "mae", "roc_auc"] as const;
export type Metric = (typeof METRICS)[number];

/** Metrics whose labels are classes (ROC AUC's are the two classes 0 and 1); the others' are numbers. */
export const classMetric = (metric: Metric) => metric === "accuracy" || metric === "macro_f1" || metric === "roc_auc";
/** Metrics where a team predicts a class (its predictions are codes of the labels' classes); else numbers. */
export const predictsClass = (metric: Metric) => metric === "accuracy" || metric === "macro_f1";
/** Error metrics: lower is better (the target is below the baseline). */
export const lowerIsBetter = (metric: Metric) => metric === "rmse" || metric === "mae";

/** The share of the subset's rows whose predicted class is the label's. Null: no rows. */
export function accuracy(labels: Int32Array, predicted: Int32Array, subset: Uint8Array): number | null {
  let rows = 0;
  let right = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    rows++;
    if (labels[i] === predicted[i]) right++;
  }
  return rows === 0 ? null : right / rows;
}

/**
 * The mean over classes of F1 = 2·TP / (2·TP + FP + FN), the classes being those present in the subset's labels
 * or predictions (as scikit-learn's f1_score(average="macro") with its default labels): a class predicted on these
 * rows that none of their labels has counts with F1 = 0; a class of the labels that appears in neither the
 * subset's labels nor its predictions does not count. `classes`: how many codes there are. Null: no rows.
 */
export function macroF1(labels: Int32Array, predicted: Int32Array, subset: Uint8Array, classes: number): number | null {
  const tp = new Float64Array(classes);
  const fp = new Float64Array(classes);
  const fn = new Float64Array(classes);
  let rows = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    rows++;
    const label = labels[i];
    const guess = predicted[i];
    if (label === guess) tp[label]++;
    else {
      fp[guess]++;
      fn[label]++;
    }
  }
  if (rows === 0) return null;
  let sum = 0;
  let present = 0;
  for (let c = 0; c < classes; c++) {
    const denominator = 2 * tp[c] + fp[c] + fn[c];
    if (denominator === 0) continue;
    present++;
    sum += (2 * tp[c]) / denominator;
  }
  return sum / present;
}

/** Root mean squared error. Null: no rows. */
export function rmse(labels: Float64Array, predicted: Float64Array, subset: Uint8Array): number | null {
  let rows = 0;
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    rows++;
    const d = predicted[i] - labels[i];
    sum += d * d;
  }
  return rows === 0 ? null : Math.sqrt(sum / rows);
}

/** Mean absolute error. Null: no rows. */
export function mae(labels: Float64Array, predicted: Float64Array, subset: Uint8Array): number | null {
  let rows = 0;
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    rows++;
    sum += Math.abs(predicted[i] - labels[i]);
  }
  return rows === 0 ? null : sum / rows;
}

/**
 * The area under the ROC curve of the scores `predicted` for the labels (1: positive, 0: negative): the chance
 * that a positive row scores above a negative one, a tie counting one half (the Mann–Whitney statistic, what
 * scikit-learn's roc_auc_score gives). Both classes' scores sorted natively (typed arrays, no comparator), then
 * walked together. Null: the subset lacks one of the two classes (the area is undefined; the labels' upload
 * refuses a split where that happens).
 */
export function rocAuc(labels: Int32Array, predicted: Float64Array, subset: Uint8Array): number | null {
  let positives = 0;
  let negatives = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    if (labels[i] === 1) positives++;
    else negatives++;
  }
  if (positives === 0 || negatives === 0) return null;
  const pos = new Float64Array(positives);
  const neg = new Float64Array(negatives);
  let p = 0;
  let n = 0;
  for (let i = 0; i < labels.length; i++) {
    if (subset[i] !== 1) continue;
    if (labels[i] === 1) pos[p++] = predicted[i];
    else neg[n++] = predicted[i];
  }
  pos.sort();
  neg.sort();
  // For each positive in order: the negatives below it, and those equal to it (half each).
  let below = 0;
  let wins = 0;
  for (let i = 0; i < positives; ) {
    const score = pos[i];
    let same = 0;
    while (i + same < positives && pos[i + same] === score) same++;
    while (below < negatives && neg[below] < score) below++;
    let equal = 0;
    while (below + equal < negatives && neg[below + equal] === score) equal++;
    wins += same * (below + equal / 2);
    i += same;
  }
  return wins / (positives * negatives);
}

/** The metric over the subset: `labels`/`predicted` as the metric reads them (codes or numbers). */
export function scoreOf(
  metric: Metric,
  labels: Int32Array | Float64Array,
  predicted: Int32Array | Float64Array,
  subset: Uint8Array,
  classes: number,
): number | null {
  switch (metric) {
    case "accuracy":
      return accuracy(labels as Int32Array, predicted as Int32Array, subset);
    case "macro_f1":
      return macroF1(labels as Int32Array, predicted as Int32Array, subset, classes);
    case "rmse":
      return rmse(labels as Float64Array, predicted as Float64Array, subset);
    case "mae":
      return mae(labels as Float64Array, predicted as Float64Array, subset);
    case "roc_auc":
      return rocAuc(labels as Int32Array, predicted as Float64Array, subset);
  }
}

/**
 * A score's points, in hundredths: the challenge's points × clamp((score − baseline) / (target − baseline), 0, 1),
 * rounded half up to the hundredth as every score is (app/modules/scoring/rules.ts). For an error metric the target
 * is below the baseline, and the same formula holds. No score (undefined metric): 0. The team_answers view
 * (db/migrations, "prediction_challenges") computes the same in SQL, operation for operation on float8, floor(x + 0.5)
 * for the rounding (Postgres's round of a float8 breaks ties to even), so the standings and this agree to the hundredth.
 */
export function pointsCentiOf(score: number | null, challenge: { points: number; baseline: number; target: number }): number {
  if (score === null || !Number.isFinite(score) || challenge.target === challenge.baseline) return 0;
  const share = Math.min(1, Math.max(0, (score - challenge.baseline) / (challenge.target - challenge.baseline)));
  return Math.floor(challenge.points * 100 * share + 0.5);
}
