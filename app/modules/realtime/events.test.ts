import { describe, expect, it } from "vitest";
import { applyTeamUpdate, applyTeamUpdateIn, type TeamStanding } from "./events";

const team = (id: number, totalScore: number, reachedAt: string, rank = 0, version = 1, division: string | null = null): TeamStanding => ({
  id,
  version,
  name: `T${id}`,
  totalScore,
  categories: { AI: totalScore, CS: 0, PS: 0, GD: 0 },
  solvedCount: 0,
  rank,
  reachedAt,
  division,
});

describe("applying a live update to the board", () => {
  it("moves the team to its new place and renumbers everyone", () => {
    const board = [team(1, 300, "2026-01-01T10:00:00Z", 1), team(2, 200, "2026-01-01T10:00:00Z", 2), team(3, 100, "2026-01-01T10:00:00Z", 3)];
    const next = applyTeamUpdate(board, team(3, 250, "2026-01-01T11:00:00Z"));
    expect(next.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [3, 2],
      [2, 3],
    ]);
  });

  it("breaks a tie in favour of the team that reached the total first", () => {
    const board = [team(1, 100, "2026-01-01T10:00:00Z", 1), team(2, 50, "2026-01-01T09:00:00Z", 2)];
    const next = applyTeamUpdate(board, team(2, 100, "2026-01-01T11:00:00Z"));
    expect(next.map((t) => t.id)).toEqual([1, 2]);
    const earlier = applyTeamUpdate(board, team(2, 100, "2026-01-01T09:30:00Z"));
    expect(earlier.map((t) => t.id)).toEqual([2, 1]);
  });

  it("ignores an update older than the one it holds (two workers may publish out of order)", () => {
    const board = [team(1, 300, "2026-01-01T10:00:00Z", 1, 7), team(2, 200, "2026-01-01T10:00:00Z", 2, 3)];
    expect(applyTeamUpdate(board, team(1, 100, "2026-01-01T09:00:00Z", 0, 6))).toBe(board);
    expect(applyTeamUpdate(board, team(1, 100, "2026-01-01T11:00:00Z", 0, 8)).map((t) => [t.id, t.totalScore])).toEqual([
      [2, 200],
      [1, 100],
    ]);
  });

  it("adds a team it has not seen", () => {
    expect(applyTeamUpdate([], team(7, 10, "2026-01-01T10:00:00Z")).map((t) => [t.id, t.rank])).toEqual([[7, 1]]);
  });
});

describe("applying a live update to a division's board", () => {
  const at = "2026-01-01T10:00:00Z";
  // The Student board holds teams 1 and 3 (ranks 1 and 2 among themselves); team 2 is in Open.
  const board = [team(1, 300, at, 1, 1, "Student"), team(3, 100, at, 2, 1, "Student")];

  it("places a team of the division among the division's teams only, ranked 1..n", () => {
    const next = applyTeamUpdateIn(board, team(3, 400, "2026-01-01T11:00:00Z", 1, 2, "Student"), "Student");
    expect(next.map((t) => [t.id, t.rank])).toEqual([
      [3, 1],
      [1, 2],
    ]);
  });

  it("ignores a team of another division, or of none", () => {
    expect(applyTeamUpdateIn(board, team(2, 900, at, 1, 2, "Open"), "Student")).toBe(board);
    expect(applyTeamUpdateIn(board, team(4, 900, at, 1, 2, null), "Student")).toBe(board);
  });

  it("adds a team that joined the division, and drops one that left it (the teams below move up)", () => {
    const joined = applyTeamUpdateIn(board, team(2, 200, at, 2, 2, "Student"), "Student");
    expect(joined.map((t) => [t.id, t.rank])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    const left = applyTeamUpdateIn(joined, team(1, 300, at, 1, 3, "Open"), "Student");
    expect(left.map((t) => [t.id, t.rank])).toEqual([
      [2, 1],
      [3, 2],
    ]);
    // An older update of a team that since left changes nothing.
    expect(applyTeamUpdateIn(board, team(1, 300, at, 1, 0, "Open"), "Student")).toBe(board);
  });

  it("on the overall board (no division) is the plain update", () => {
    expect(applyTeamUpdateIn(board, team(2, 200, at, 0, 2, "Open"), null).map((t) => t.id)).toEqual([1, 2, 3]);
  });
});
