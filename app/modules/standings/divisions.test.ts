import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { divisionBoard, divisionFreezeState } from "./divisions";
import { boardForViewer, UNRANKED } from "./frozen-view";
import { rankStandings } from "./ranking";
import { standingOf } from "./standing.fixture";

const team = (id: number, totalScore: number, division: string | null, reachedAt = "2026-01-01T10:00:00.000Z"): TeamStanding =>
  standingOf({ id, totalScore, division, reachedAt });

const ranks = (board: readonly TeamStanding[]) => board.map((t) => [t.id, t.rank]);

describe("a division's board", () => {
  // The overall board, ranked: 5 (Open), 1, 4 (Student), 2 (no division), 3 (Student).
  const overall = rankStandings([team(1, 300, "Student"), team(2, 200, null), team(3, 100, "Student"), team(4, 250, "Student"), team(5, 900, "Open")]);

  it("lists only the division's teams, ranked 1..n among themselves", () => {
    expect(ranks(overall)).toEqual([[5, 1], [1, 2], [4, 3], [2, 4], [3, 5]]);
    expect(ranks(divisionBoard(overall, "Student"))).toEqual([[1, 1], [4, 2], [3, 3]]);
    expect(ranks(divisionBoard(overall, "Open"))).toEqual([[5, 1]]);
  });

  it("never lists a team without a division, nor one of a board frozen before divisions existed", () => {
    const old = { ...team(6, 1000, null), division: undefined } as unknown as TeamStanding;
    expect(divisionBoard([...overall, old], "Student").map((t) => t.id)).not.toContain(6);
    expect(divisionBoard(overall, "Nobody")).toEqual([]);
  });

  it("breaks ties by the overall rule: who reached the total first, then the lower id (an award's points count as any)", () => {
    const tied = [
      team(8, 150, "Student", "2026-01-01T10:00:00.002Z"),
      team(7, 150, "Student", "2026-01-01T10:00:00.001Z"),
      // Same total reached at the same millisecond: the lower id first.
      team(9, 150, "Student", "2026-01-01T10:00:00.001Z"),
      team(3, 150.5, "Student", "2026-01-01T12:00:00.000Z"),
    ];
    expect(ranks(divisionBoard(tied, "Student"))).toEqual([[3, 1], [7, 2], [9, 3], [8, 4]]);
    // The division's order is the overall order with the other teams taken out.
    const overallOrder = rankStandings([...tied, team(1, 151, "Open"), team(2, 150, null, "2026-01-01T10:00:00.000Z")]).map((t) => t.id);
    expect(divisionBoard(tied, "Student").map((t) => t.id)).toEqual(overallOrder.filter((id) => [3, 7, 8, 9].includes(id)));
  });
});

describe("a division's board while frozen", () => {
  const frozenAt = rankStandings([team(1, 300, "Student"), team(2, 200, "Student"), team(3, 250, "Open")]);
  // Since the freeze: team 2 overtook team 1, team 4 joined Student.
  const live = rankStandings([team(2, 500, "Student"), team(1, 300, "Student"), team(3, 250, "Open"), team(4, 50, "Student")]);
  const state = divisionFreezeState({ frozen: true, board: live, frozenBoard: frozenAt }, "Student");

  it("shows a participant the division's frozen figures, ranked within it", () => {
    const seen = boardForViewer(state, { id: 30, role: "participant", teamId: 3 });
    expect(seen.teams.map((t) => [t.id, t.rank, t.totalScore])).toEqual([
      [1, 1, 300],
      [2, 2, 200],
    ]);
  });

  it("shows a team its own live points at its frozen place in the division, and a latecomer last, unranked", () => {
    expect(boardForViewer(state, { id: 20, role: "participant", teamId: 2 }).teams.map((t) => [t.id, t.rank, t.totalScore])).toEqual([
      [1, 1, 300],
      [2, 2, 500],
    ]);
    expect(boardForViewer(state, { id: 40, role: "participant", teamId: 4 }).teams.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [2, 2],
      [4, UNRANKED],
    ]);
  });

  it("shows admins and judges the division's live board", () => {
    expect(ranks(boardForViewer(state, { id: 1, role: "judge", teamId: null }).teams)).toEqual([[2, 1], [1, 2], [4, 3]]);
  });
});
