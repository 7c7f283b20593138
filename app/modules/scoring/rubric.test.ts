import { describe, expect, it } from "vitest";
import { formatRubric, parseRubric, rubricScoreCenti } from "./rubric.ts";

const criteria = [
  { id: 1, name: "Clarity", weight: 2, maxPoints: 10 },
  { id: 2, name: "Originality", weight: 1, maxPoints: 5 },
  { id: 3, name: "Craft", weight: 1, maxPoints: 20 },
];

describe("a rubric score", () => {
  it("is the challenge's points times the weighted share of each criterion's maximum", () => {
    // 150 × (2 × 8/10 + 1 × 5/5 + 1 × 10/20) ÷ 4 = 150 × 3.1 ÷ 4 = 116.25
    expect(rubricScoreCenti(150, criteria, new Map([[1, 800], [2, 500], [3, 1000]]))).toBe(11625);
    expect(rubricScoreCenti(150, criteria, new Map([[1, 1000], [2, 500], [3, 2000]]))).toBe(15000);
    expect(rubricScoreCenti(150, criteria, new Map([[1, 0], [2, 0], [3, 0]]))).toBe(0);
  });

  it("rounds half up to the hundredth, exactly", () => {
    // 100 × (1 × 1/3) ÷ 1 = 33.333… → 33.33; 100 × 2/3 = 66.666… → 66.67
    const third = [{ id: 1, name: "Only", weight: 1, maxPoints: 3 }];
    expect(rubricScoreCenti(100, third, new Map([[1, 100]]))).toBe(3333);
    expect(rubricScoreCenti(100, third, new Map([[1, 200]]))).toBe(6667);
    // 1 × 0.125 = 0.125 points = 12.5 hundredths → 13.
    expect(rubricScoreCenti(1, [{ id: 1, name: "Eighth", weight: 1, maxPoints: 8 }], new Map([[1, 100]]))).toBe(13);
  });

  it("stays within 0 and the points for every score a judge can give", () => {
    for (let given = 0; given <= 1000; given += 37) {
      const score = rubricScoreCenti(250, criteria, new Map([[1, given], [2, Math.min(given, 500)], [3, given * 2]]));
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(25000);
    }
  });

  it("needs a score on every criterion", () => {
    expect(() => rubricScoreCenti(100, criteria, new Map([[1, 100]]))).toThrow();
  });
});

describe("a rubric as typed", () => {
  it("reads one criterion a line, and writes it back the same way", () => {
    const parsed = parseRubric("Clarity | 2 | 10\n\n  Originality|1|5  \r\nCraft | 1 | 20\n");
    expect(parsed).toEqual({ criteria: [
      { name: "Clarity", weight: 2, maxPoints: 10 },
      { name: "Originality", weight: 1, maxPoints: 5 },
      { name: "Craft", weight: 1, maxPoints: 20 },
    ] });
    expect(formatRubric("criteria" in parsed ? parsed.criteria : [])).toBe("Clarity | 2 | 10\nOriginality | 1 | 5\nCraft | 1 | 20");
    expect(parseRubric("")).toEqual({ criteria: [] });
  });

  it("says which line is wrong", () => {
    expect(parseRubric("Clarity | 2 | 10\nCraft | 0 | 5")).toEqual({ error: expect.stringContaining("Rubric line 2") });
    expect(parseRubric("Clarity 2 10")).toEqual({ error: expect.stringContaining("Rubric line 1") });
    expect(parseRubric("Clarity | 2 | 10\nclarity | 1 | 5")).toEqual({ error: 'The rubric names "clarity" twice' });
  });
});
