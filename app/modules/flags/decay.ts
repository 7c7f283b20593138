/**
 * Dynamic points (docs/domain.md "Dynamic points"): a flag challenge's value falls as more teams solve it,
 * on CTFd's curve, value = max(minimum, ⌈initial + (minimum − initial) / decay² × (solves − 1)²⌉), computed in
 * integers so that no rounding of a fraction moves it by a point: initial − ⌊(initial − minimum) × (solves − 1)²
 * / decay²⌋, at least the minimum. `solves` counts teams' solves (an admin's test is none), all divisions
 * together; every solver counts the value as it is now. The same rule in SQL is the `team_answers` view
 * (migration 0019); tests/integration/dynamic-points.test.ts holds the two equal.
 */
export interface DynamicPoints {
  /** The challenge's points: the value of its first solve. */
  initial: number;
  minimum: number;
  /** The number of solves at which the value reaches the minimum. */
  decay: number;
}

export function dynamicValue({ initial, minimum, decay }: DynamicPoints, solves: number): number {
  if (solves <= 1) return initial;
  // In BigInt: (initial − minimum) × (solves − 1)² passes 2^53 with a million points and 100,000 solves.
  const fall = (BigInt(initial - minimum) * BigInt(solves - 1) ** 2n) / BigInt(decay) ** 2n;
  return fall >= BigInt(initial - minimum) ? minimum : initial - Number(fall);
}

/** The value a challenge counts now: its points, or its dynamic value at this many solves. */
export function challengeValue(challenge: { points: number; scoring: "static" | "dynamic"; minimumPoints: number | null; decay: number | null }, solves: number): number {
  if (challenge.scoring !== "dynamic" || challenge.minimumPoints === null || challenge.decay === null) return challenge.points;
  return dynamicValue({ initial: challenge.points, minimum: challenge.minimumPoints, decay: challenge.decay }, solves);
}
