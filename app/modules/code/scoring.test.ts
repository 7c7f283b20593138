import { describe, expect, it } from "vitest";
import { pointsCentiOfShares, teamChallengeScore } from "./scoring";

const SUBTASKS = [
  { name: "small", share: 30 },
  { name: "medium", share: 30 },
  { name: "large", share: 40 },
];
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));

describe("code challenges' points (IOI style)", () => {
  it("rounds the shares' points half up in hundredths, with integers", () => {
    expect(pointsCentiOfShares(100, 30, 100)).toBe(3000);
    expect(pointsCentiOfShares(100, 1, 3)).toBe(3333);
    expect(pointsCentiOfShares(100, 2, 3)).toBe(6667);
    expect(pointsCentiOfShares(1, 1, 8)).toBe(13); // 12.5 hundredths: half up
    expect(pointsCentiOfShares(100, 0, 3)).toBe(0);
  });

  it("takes the best of each subtask over all runs, not the best single run", () => {
    const score = teamChallengeScore(200, SUBTASKS, [
      { id: 1, createdAt: at(1), passedSubtasks: ["small", "medium"] },
      { id: 2, createdAt: at(2), passedSubtasks: ["large"] },
      { id: 3, createdAt: at(3), passedSubtasks: [] },
    ]);
    expect(score.earnedShare).toBe(100);
    expect(score.pointsCenti).toBe(20000);
    expect(score.reachedAt).toEqual(at(2));
  });

  it("dates each subtask at the run that first passed it: a later run passing it again changes nothing", () => {
    const score = teamChallengeScore(100, SUBTASKS, [
      { id: 5, createdAt: at(9), passedSubtasks: ["small", "medium", "large"] },
      { id: 2, createdAt: at(2), passedSubtasks: ["small"] },
    ]);
    expect(score.passed.map((subtask) => [subtask.name, subtask.runId])).toEqual([
      ["small", 2],
      ["medium", 5],
      ["large", 5],
    ]);
    expect(score.reachedAt).toEqual(at(9));
    const again = teamChallengeScore(100, SUBTASKS, [
      { id: 1, createdAt: at(1), passedSubtasks: ["small", "medium", "large"] },
      { id: 2, createdAt: at(5), passedSubtasks: ["small", "medium", "large"] },
    ]);
    expect(again.reachedAt).toEqual(at(1));
  });

  it("dates nothing by a subtask worth nothing: samples passed later never move the team's time", () => {
    const withSamples = [...SUBTASKS, { name: "samples", share: 0 }];
    const score = teamChallengeScore(100, withSamples, [
      { id: 1, createdAt: at(1), passedSubtasks: ["small"] },
      { id: 2, createdAt: at(7), passedSubtasks: ["samples"] },
    ]);
    expect(score.pointsCenti).toBe(3000);
    expect(score.reachedAt).toEqual(at(1));
    expect(teamChallengeScore(100, withSamples, [{ id: 3, createdAt: at(2), passedSubtasks: ["samples"] }]).reachedAt).toBeNull();
  });

  it("counts nothing for a subtask the archive no longer has, and nothing without runs", () => {
    expect(teamChallengeScore(100, SUBTASKS, [{ id: 1, createdAt: at(1), passedSubtasks: ["gone"] }]).pointsCenti).toBe(0);
    expect(teamChallengeScore(100, SUBTASKS, []).reachedAt).toBeNull();
  });
});
