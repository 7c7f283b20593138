import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { categoryLeaders } from "./category-leaders";
import {
  applyUpdateForViewer,
  boardForViewer,
  categoryLeadersForViewer,
  chartCutFor,
  chartLineEnd,
  frozenRankOf,
  ownUpdateWhileFrozen,
  rolesSeeingLiveBoard,
  seesLiveBoard,
  seesUpdate,
  UNRANKED,
  windowForViewer,
} from "./frozen-view";
import type { Snapshot } from "./snapshot.server";

const team = (id: number, totalScore: number, rank: number): TeamStanding => ({
  id,
  name: `T${id}`,
  totalScore,
  categories: { AI: totalScore, CS: 0, PS: 0, GD: 0 },
  solvedCount: 0,
  rank,
  reachedAt: "2026-01-01T10:00:00Z",
  version: 1,
  division: null,
});

const frozenAt = [team(1, 300, 1), team(2, 200, 2)];
const live = [team(3, 500, 1), team(2, 400, 2), team(1, 300, 3)];
const snapshot: Snapshot = { ready: true, frozen: true, board: live, frozenBoard: frozenAt, divisions: [] };

describe("what a viewer sees of a frozen board", () => {
  it("shows staff the live board", () => {
    expect(boardForViewer(snapshot, { id: 9, role: "judge", teamId: null }).teams).toEqual(live);
  });

  it("shows a participant the frozen board with their own team's live points in its frozen place", () => {
    const seen = boardForViewer(snapshot, { id: 9, role: "participant", teamId: 2 }).teams;
    expect(seen.map((t) => [t.id, t.rank, t.totalScore])).toEqual([
      [1, 1, 300],
      [2, 2, 400],
    ]);
  });

  it("shows a participant their own team's points as its members see them while frozen, where the job kept them", () => {
    const own = new Map([[2, { totalScore: 350, categories: { AI: 350, CS: 0, PS: 0, GD: 0 } }]]);
    const viewer = { id: 9, role: "participant", teamId: 2 } as const;
    const seen = boardForViewer({ ...snapshot, own }, viewer).teams;
    expect(seen.map((t) => [t.id, t.rank, t.totalScore, t.categories.AI])).toEqual([
      [1, 1, 300, 300],
      [2, 2, 350, 350],
    ]);
    expect(windowForViewer({ ...snapshot, own }, viewer, { offset: 0, limit: null }).teams).toEqual(seen);
    // Staff, and another team's members, see no team's own points.
    expect(boardForViewer({ ...snapshot, own }, { id: 9, role: "admin", teamId: null }).teams).toBe(live);
    expect(boardForViewer({ ...snapshot, own }, { id: 9, role: "participant", teamId: 1 }).teams.find((t) => t.id === 2)?.totalScore).toBe(200);
    expect(ownUpdateWhileFrozen(team(2, 400, 1), 2, own.get(2)!)).toMatchObject({ id: 2, totalScore: 350, rank: 2, categories: { AI: 350 } });
  });

  it("lists a team created after the freeze last and unranked, never with its live rank", () => {
    const seen = boardForViewer(snapshot, { id: 9, role: "participant", teamId: 3 }).teams;
    expect(seen.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [2, 2],
      [3, UNRANKED],
    ]);
  });

  it("shows everyone the live board while not frozen, and staff always", () => {
    for (const role of ["admin", "judge", "participant"] as const) {
      const seen = boardForViewer({ ...snapshot, frozen: false }, { id: 9, role, teamId: 2 });
      expect(seen.teams).toBe(live);
      expect(seen.live).toBe(true);
      expect(seesLiveBoard(role, false)).toBe(true);
      expect(chartCutFor({ id: 9, role, teamId: 2 }, false)).toBeNull();
    }
    expect(boardForViewer(snapshot, { id: 9, role: "admin", teamId: null }).live).toBe(true);
    expect(boardForViewer(snapshot, { id: 9, role: "participant", teamId: 2 }).live).toBe(false);
  });

  it("gives a frozen team's members their live points at the frozen rank, and stops the other lines of their chart", () => {
    expect(ownUpdateWhileFrozen(team(2, 400, 1), 2)).toMatchObject({ id: 2, totalScore: 400, rank: 2 });
    expect(ownUpdateWhileFrozen(team(3, 500, 1), null).rank).toBe(UNRANKED);
    expect(chartCutFor({ id: 9, role: "participant", teamId: 2 }, true)).toEqual({ ownTeamId: 2 });
    expect(chartCutFor({ id: 9, role: "judge", teamId: null }, true)).toBeNull();
    expect(frozenRankOf(frozenAt, 2)).toBe(2);
    expect(frozenRankOf(frozenAt, 3)).toBeNull();
    expect(frozenRankOf(null, 2)).toBeNull();
    const ends = { cutAt: 1, nowAt: 2 };
    expect([1, 2].map((id) => chartLineEnd({ ownTeamId: 2 }, id, ends))).toEqual([1, 2]);
    expect([1, 2].map((id) => chartLineEnd(null, id, ends))).toEqual([2, 2]);
  });

  it("sends every team's live update to the roles that see the live board: all of them, or while frozen admins and judges", () => {
    expect(rolesSeeingLiveBoard(false)).toEqual(["admin", "judge", "participant", "mentor"]);
    expect(rolesSeeingLiveBoard(true)).toEqual(["admin", "judge"]);
  });
});

describe("a live update on the board a page holds", () => {
  const liveView = { live: true, ownTeamId: 2 };
  const frozenView = { live: false, ownTeamId: 2 };
  const update = (id: number, totalScore: number, version: number, rank = 1): TeamStanding => ({ ...team(id, totalScore, rank), version });

  it("re-sorts a live board: a team that overtakes another moves that one down, though only its own update came", () => {
    const board = [team(1, 300, 1), team(2, 200, 2), team(4, 100, 3)];
    const next = applyUpdateForViewer(board, update(4, 250, 2, 2), liveView);
    expect(next.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [4, 2],
      [2, 3],
    ]);
    expect(seesUpdate(update(4, 250, 2), liveView)).toBe(true);
  });

  it("keeps a frozen participant's board as it stood: another team's update changes nothing", () => {
    const board = boardForViewer(snapshot, { id: 9, role: "participant", teamId: 2 }).teams;
    expect(seesUpdate(update(1, 900, 2), frozenView)).toBe(false);
    expect(applyUpdateForViewer(board, update(1, 900, 2), frozenView)).toBe(board);
  });

  it("gives a frozen participant their own team's new points in its frozen place, never a new rank", () => {
    const board = boardForViewer(snapshot, { id: 9, role: "participant", teamId: 2 }).teams;
    const next = applyUpdateForViewer(board, { ...update(2, 700, 5, 1), categories: { AI: 0, CS: 700, PS: 0, GD: 0 }, solvedCount: 3 }, frozenView);
    expect(next.map((t) => [t.id, t.rank, t.totalScore])).toEqual([
      [1, 1, 300],
      [2, 2, 700],
    ]);
    expect(next[1]).toMatchObject({ categories: { CS: 700 }, solvedCount: 3, version: 5 });
  });

  it("adds a frozen participant's team that was not on the board last, unranked", () => {
    const next = applyUpdateForViewer([team(1, 300, 1)], update(2, 50, 1, 7), frozenView);
    expect(next.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [2, UNRANKED],
    ]);
  });

  it("ignores an update older than what the board holds, live or frozen", () => {
    const board = [team(1, 300, 1), { ...team(2, 200, 2), version: 4 }];
    expect(applyUpdateForViewer(board, update(2, 999, 3), liveView)).toBe(board);
    expect(applyUpdateForViewer(board, update(2, 999, 3), frozenView)).toBe(board);
  });

  it("on a division's board: another division's team changes nothing, a team that left it leaves, and ranks stay the division's", () => {
    const student = (id: number, totalScore: number, rank: number) => ({ ...team(id, totalScore, rank), division: "Student" });
    const board = [student(1, 300, 1), student(2, 200, 2)];
    const view = { ...liveView, division: "Student" };
    expect(applyUpdateForViewer(board, { ...update(7, 900, 2), division: "Open" }, view)).toBe(board);
    const joined = applyUpdateForViewer(board, { ...update(5, 250, 2, 9), division: "Student" }, view);
    expect(joined.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [5, 2],
      [2, 3],
    ]);
    const left = applyUpdateForViewer(board, { ...update(1, 300, 2), division: "Open" }, view);
    expect(left.map((t) => [t.id, t.rank])).toEqual([[2, 1]]);
    // Frozen: a team of another division never joins this board, even the participant's own.
    const frozen = applyUpdateForViewer(board, { ...update(9, 50, 1), division: "Open" }, { live: false, ownTeamId: 9, division: "Student" });
    expect(frozen).toBe(board);
  });
});

describe("the category top 3 a viewer starts from", () => {
  it("is the page's to rank on a live board (null), and the places at the freeze for a frozen participant", () => {
    expect(categoryLeadersForViewer(snapshot, { id: 9, role: "judge", teamId: null })).toBeNull();
    expect(categoryLeadersForViewer({ ...snapshot, frozen: false }, { id: 9, role: "participant", teamId: 2 })).toBeNull();
    // Team 2 has 400 AI points live but 200 at the freeze: its frozen place is second, behind team 1.
    const frozen = categoryLeadersForViewer(snapshot, { id: 9, role: "participant", teamId: 2 });
    expect(frozen).toEqual(categoryLeaders(frozenAt));
    expect(frozen?.AI.map((leader) => [leader.id, leader.place, leader.points])).toEqual([
      [1, 1, 300],
      [2, 2, 200],
    ]);
  });
});
