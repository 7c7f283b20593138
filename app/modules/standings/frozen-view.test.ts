import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { boardForViewer, chartCutFor, ownUpdateWhileFrozen, seesLiveBoard, UNRANKED } from "./frozen-view";
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
  });
});
