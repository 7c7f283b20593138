import { describe, expect, it } from "vitest";
import { accuracy, macroF1, mae, pointsCentiOf, rmse, rocAuc } from "./metrics.ts";

const ints = (values: number[]) => Int32Array.from(values);
const floats = (values: number[]) => Float64Array.from(values);
const all = (n: number) => new Uint8Array(n).fill(1);

// Each expected value worked by hand (and equal to scikit-learn's for the same input).
describe("the metrics of prediction challenges", () => {
  it("accuracy: the share of rows whose class is right, over the subset only", () => {
    expect(accuracy(ints([0, 1, 1, 0]), ints([0, 1, 0, 0]), all(4))).toBe(0.75);
    // The wrong row left out of the subset: all right.
    expect(accuracy(ints([0, 1, 1, 0]), ints([0, 1, 0, 0]), Uint8Array.from([1, 1, 0, 1]))).toBe(1);
    expect(accuracy(ints([0]), ints([0]), new Uint8Array(1))).toBeNull();
  });

  it("macro-F1: the mean of each class's F1, over the classes present in the subset's labels or predictions", () => {
    // Class 0: TP 1, FP 1, FN 1 → 0.5; class 1: TP 1, FP 1 → 2/3; class 2: FN 1 → 0. Mean 0.3889.
    expect(macroF1(ints([0, 0, 1, 2]), ints([0, 1, 1, 0]), all(4), 3)).toBeCloseTo((0.5 + 2 / 3 + 0) / 3, 12);
    // A fourth class of the labels that neither these labels nor these predictions have: not counted.
    expect(macroF1(ints([0, 0, 1, 2]), ints([0, 1, 1, 0]), all(4), 4)).toBeCloseTo((0.5 + 2 / 3) / 3, 12);
    // A class predicted that the subset's labels lack: its F1 is 0 and it counts (class 0: 2/3, class 1: 0).
    expect(macroF1(ints([0, 0]), ints([0, 1]), all(2), 2)).toBeCloseTo(1 / 3, 12);
    // A single class, all right: 1.
    expect(macroF1(ints([1, 1, 1]), ints([1, 1, 1]), all(3), 2)).toBe(1);
    expect(macroF1(ints([1]), ints([1]), new Uint8Array(1), 2)).toBeNull();
  });

  it("RMSE and MAE: the errors' root mean square and mean", () => {
    // Errors 1, 0, 2: RMSE √(5/3), MAE 1.
    expect(rmse(floats([1, 2, 3]), floats([2, 2, 5]), all(3))).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(mae(floats([1, 2, 3]), floats([2, 2, 5]), all(3))).toBe(1);
    expect(mae(floats([1, 2, 3]), floats([2, 2, 5]), Uint8Array.from([0, 0, 1]))).toBe(2);
    expect(rmse(floats([1]), floats([1]), new Uint8Array(1))).toBeNull();
  });

  it("ROC AUC: the chance a positive scores above a negative, ties counting one half", () => {
    // Pairs (positive, negative): (0.35, 0.1) ✓, (0.35, 0.4) ✗, (0.8, 0.1) ✓, (0.8, 0.4) ✓ → 3/4.
    expect(rocAuc(ints([0, 0, 1, 1]), floats([0.1, 0.4, 0.35, 0.8]), all(4))).toBe(0.75);
    // (0.5, 0.5) a tie → ½, the other three pairs won: 3.5 / 4.
    expect(rocAuc(ints([0, 1, 0, 1]), floats([0.5, 0.5, 0.2, 0.9]), all(4))).toBe(0.875);
    // Every score equal: ½; ranked the wrong way round: 0.
    expect(rocAuc(ints([0, 1, 1, 0]), floats([3, 3, 3, 3]), all(4))).toBe(0.5);
    expect(rocAuc(ints([1, 1, 0, 0]), floats([0.1, 0.2, 0.3, 0.4]), all(4))).toBe(0);
    // Several positives and negatives on one score: 2 positives × 3 negatives tied → 6 halves, plus the top positive's 3 wins.
    expect(rocAuc(ints([1, 1, 0, 0, 0, 1]), floats([2, 2, 2, 2, 2, 5]), all(6))).toBe((6 / 2 + 3) / 9);
  });

  it("ROC AUC of a single class is undefined (null), not a number that would count", () => {
    expect(rocAuc(ints([1, 1, 1]), floats([0.2, 0.5, 0.9]), all(3))).toBeNull();
    expect(rocAuc(ints([0, 0]), floats([0.2, 0.5]), all(2))).toBeNull();
    // Both classes in the file, one in the subset.
    expect(rocAuc(ints([0, 1, 1]), floats([0.2, 0.5, 0.9]), Uint8Array.from([0, 1, 1]))).toBeNull();
  });
});

describe("a score's points", () => {
  const challenge = { points: 100, baseline: 0.5, target: 0.9 };

  it("are the points times the share of the way from the baseline to the target, clamped to [0, 1]", () => {
    expect(pointsCentiOf(0.8, challenge)).toBe(7500);
    expect(pointsCentiOf(0.62, challenge)).toBe(3000);
    expect(pointsCentiOf(0.4, challenge)).toBe(0);
    expect(pointsCentiOf(0.95, challenge)).toBe(10_000);
    expect(pointsCentiOf(null, challenge)).toBe(0);
  });

  it("hold for an error metric, whose target is below its baseline", () => {
    const errors = { points: 100, baseline: 10, target: 2 };
    expect(pointsCentiOf(4, errors)).toBe(7500);
    expect(pointsCentiOf(12, errors)).toBe(0);
    expect(pointsCentiOf(1, errors)).toBe(10_000);
  });

  it("are rounded half up to the hundredth, as every score is", () => {
    // 7 × ⅓ = 2.3333… → 2.33; 1 × ⅛ = 0.125 → 0.13.
    expect(pointsCentiOf(1, { points: 7, baseline: 0, target: 3 })).toBe(233);
    expect(pointsCentiOf(1, { points: 1, baseline: 0, target: 8 })).toBe(13);
  });
});
