import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { categoryLeaders, leadersOfBoard, withOwnPoints } from "./category-leaders";

const team = (id: number, categories: Partial<TeamStanding["categories"]>, reachedAt = "2026-01-01T10:00:00Z"): TeamStanding => {
  const full = { AI: 0, CS: 0, PS: 0, GD: 0, ...categories };
  return {
    id,
    name: `T${id}`,
    totalScore: full.AI + full.CS + full.PS + full.GD,
    categories: full,
    solvedCount: 0,
    rank: 0,
    reachedAt,
    version: 1,
    division: null,
  };
};

const places = (leaders: ReturnType<typeof categoryLeaders>, category: keyof TeamStanding["categories"]) =>
  leaders[category].map((leader) => [leader.place, leader.id, leader.points]);

describe("the top 3 of each category", () => {
  it("ranks each category by its own points, whatever the totals say", () => {
    const board = [team(1, { AI: 500 }), team(2, { CS: 40, PS: 10 }), team(3, { CS: 60, AI: 5 }), team(4, { CS: 50, GD: 7.5 }), team(5, { CS: 45 })];
    const leaders = categoryLeaders(board);
    expect(places(leaders, "CS")).toEqual([
      [1, 3, 60],
      [2, 4, 50],
      [3, 5, 45],
    ]);
    expect(places(leaders, "AI")).toEqual([
      [1, 1, 500],
      [2, 3, 5],
    ]);
    expect(places(leaders, "PS")).toEqual([[1, 2, 10]]);
    expect(places(leaders, "GD")).toEqual([[1, 4, 7.5]]);
    expect(leaders.CS[0]).toEqual({ id: 3, name: "T3", points: 60, place: 1 });
  });

  it("places nobody without points in the category (0, or below after a negative award)", () => {
    const leaders = categoryLeaders([team(1, { PS: 0 }), team(2, { PS: -5, AI: 3 }), team(3, {})]);
    expect(leaders.PS).toEqual([]);
    expect(leaders.CS).toEqual([]);
    expect(places(leaders, "AI")).toEqual([[1, 2, 3]]);
  });

  it("breaks a tie by the overall ranking order: the higher total, then who reached it first, then the lower id", () => {
    const board = [
      team(7, { GD: 20 }, "2026-01-01T10:00:00Z"),
      team(3, { GD: 20 }, "2026-01-01T10:00:00Z"),
      team(5, { GD: 20 }, "2026-01-01T09:00:00Z"),
      team(9, { GD: 20, PS: 1 }, "2026-01-01T11:00:00Z"),
    ];
    expect(places(categoryLeaders(board), "GD")).toEqual([
      [1, 9, 20],
      [2, 5, 20],
      [3, 3, 20],
    ]);
  });

  it("compares points to the hundredth, as they are kept", () => {
    const leaders = categoryLeaders([team(1, { CS: 0.1 + 0.2 }), team(2, { CS: 0.3 })]);
    // 0.1 + 0.2 is 0.30000000000000004: the same 30 hundredths as 0.3, so the lower id leads.
    expect(leaders.CS.map((leader) => leader.id)).toEqual([1, 2]);
  });

  it("does not depend on the board's order, and shows as many as asked", () => {
    const board = Array.from({ length: 40 }, (_, index) => team(index + 1, { AI: (index * 37) % 101 }));
    const expected = [...board].sort((a, b) => b.categories.AI - a.categories.AI || a.id - b.id).slice(0, 5).map((t) => t.id);
    expect(categoryLeaders(board, 5).AI.map((leader) => leader.id)).toEqual(expected);
    expect(categoryLeaders([...board].reverse(), 5).AI.map((leader) => leader.id)).toEqual(expected);
    expect(categoryLeaders(board).AI).toHaveLength(3);
  });
});

describe("the leaders a page shows", () => {
  const board = [team(1, { CS: 90 }), team(2, { CS: 80 }), team(3, { CS: 70 }), team(4, { CS: 10 })];

  it("ranks the live board the page holds", () => {
    expect(leadersOfBoard(board, null, 4)).toEqual(categoryLeaders(board));
  });

  it("keeps a frozen participant's places, their own team's entry with its live points", () => {
    const atFreeze = categoryLeaders(board);
    // Team 3 now has 95 CS points live: it stays third for its members, showing 95; nobody else moves.
    const held = [team(1, { CS: 90 }), team(2, { CS: 80 }), team(3, { CS: 95 })];
    expect(places(leadersOfBoard(held, atFreeze, 3), "CS")).toEqual([
      [1, 1, 90],
      [2, 2, 80],
      [3, 3, 95],
    ]);
    // A team not in the frozen top 3 does not enter it, whatever its live points.
    expect(places(leadersOfBoard([team(4, { CS: 500 })], atFreeze, 4), "CS")).toEqual(places(atFreeze, "CS"));
    expect(withOwnPoints(atFreeze, undefined)).toBe(atFreeze);
  });
});
