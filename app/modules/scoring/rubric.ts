/**
 * A challenge's rubric (docs/domain.md "Judging"): named criteria, each with a weight and a maximum. A judge
 * gives each criterion 0 to its maximum; their score on the submission is
 *   points × Σ weight × (given ÷ maximum) ÷ Σ weight,
 * rounded half up to the hundredth: always between 0 and the challenge's points, and then the usual rules
 * (one score per judge, mean of judges, 65 % solved) apply to it. Pure: shared by the form, the scoring
 * action and the tests.
 */
import { messages } from "../messages.ts";

export interface Criterion {
  id: number;
  name: string;
  weight: number;
  maxPoints: number;
}

/** A judge's score from their criterion scores (hundredths, keyed by criterion id); every criterion must have one. */
export function rubricScoreCenti(points: number, criteria: readonly Criterion[], givenCenti: ReadonlyMap<number, number>): number {
  const totalWeight = criteria.reduce((sum, criterion) => sum + criterion.weight, 0);
  if (criteria.length === 0 || totalWeight <= 0) throw new Error("a rubric needs criteria with weights");
  // In hundredths: points × Σ w·g/m ÷ Σ w, with g in hundredths already. Exact (BigInt over the product of the
  // maxima), then rounded half up, so equal rubric scores never differ by a floating-point hair.
  let product = 1n;
  for (const criterion of criteria) product *= BigInt(criterion.maxPoints);
  let numerator = 0n;
  for (const criterion of criteria) {
    const given = givenCenti.get(criterion.id);
    if (given === undefined) throw new Error(`criterion ${criterion.id} has no score`);
    numerator += (BigInt(criterion.weight) * BigInt(given) * product) / BigInt(criterion.maxPoints);
  }
  numerator *= BigInt(points);
  const denominator = BigInt(totalWeight) * product;
  return Number((2n * numerator + denominator) / (2n * denominator));
}

export interface RubricLine {
  name: string;
  weight: number;
  maxPoints: number;
}

const LINE = /^(.+?)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*$/;

/**
 * The rubric as an admin types it: one criterion a line, "name | weight | maximum" (e.g. "Clarity | 2 | 10").
 * Empty: no rubric (a single score box). Returns the criteria, or the message for the first bad line.
 */
export function parseRubric(text: string | undefined): { criteria: RubricLine[] } | { error: string } {
  const lines = (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 20) return { error: messages.rubric.tooMany };
  const criteria: RubricLine[] = [];
  for (const [index, line] of lines.entries()) {
    const match = LINE.exec(line);
    const weight = match ? Number(match[2]) : 0;
    const maxPoints = match ? Number(match[3]) : 0;
    if (!match || weight < 1 || weight > 100 || maxPoints < 1 || maxPoints > 1000 || match[1].length > 100) {
      return { error: messages.rubric.badLine(index + 1) };
    }
    if (criteria.some((criterion) => criterion.name.toLowerCase() === match[1].toLowerCase())) return { error: messages.rubric.duplicate(match[1]) };
    criteria.push({ name: match[1], weight, maxPoints });
  }
  return { criteria };
}

/** The rubric written back as the admin types it. */
export function formatRubric(criteria: readonly RubricLine[]): string {
  return criteria.map((criterion) => `${criterion.name} | ${criterion.weight} | ${criterion.maxPoints}`).join("\n");
}
