import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { ownRowMayChange, refreshHeld, refreshOwnRow, windowMayChange } from "./board-window";
import { categoryLeaders } from "./category-leaders";
import { boardForViewer, windowForViewer, type FreezeState, type Viewer } from "./frozen-view";
import { standingOf } from "./standing.fixture";

/** n teams, ranked 1..n by descending points. */
const boardOf = (n: number, first = 1): TeamStanding[] => Array.from({ length: n }, (_, i) => standingOf({ id: first + i, totalScore: 10 * (n - i), rank: i + 1 }));

describe("windowForViewer: a stretch of the board a viewer sees, without the whole board", () => {
  const live = boardOf(12);
  // The freeze kept teams 1..10 (in another order, other points); teams 11 and 12 joined after it.
  const frozenBoard = boardOf(10).reverse().map((team, i) => ({ ...team, totalScore: 5 * (10 - i), rank: i + 1 }));
  const states: Array<[string, FreezeState]> = [
    ["live", { frozen: false, board: live, frozenBoard: null }],
    ["frozen", { frozen: true, board: live, frozenBoard }],
  ];
  const viewers: Viewer[] = [
    { id: 1, role: "judge", teamId: null },
    { id: 2, role: "participant", teamId: 4 },
    { id: 3, role: "participant", teamId: 12 },
    { id: 4, role: "participant", teamId: null },
  ];

  it("is exactly boardForViewer's teams in that stretch, for every viewer, frozen or not, at every offset and limit", () => {
    for (const [label, state] of states) {
      for (const viewer of viewers) {
        const whole = boardForViewer(state, viewer).teams;
        for (let offset = 0; offset <= 13; offset++) {
          for (const limit of [1, 3, 5, 100, null]) {
            const window = windowForViewer(state, viewer, { offset, limit });
            const expected = whole.slice(offset, limit === null ? undefined : offset + limit);
            expect(window.teams, `${label} ${viewer.teamId} ${offset} ${limit}`).toEqual(expected);
            expect(window.total).toBe(whole.length);
            const own = whole.findIndex((team) => team.id === viewer.teamId);
            expect(window.own).toEqual(own < 0 ? null : { team: whole[own], position: own });
          }
        }
      }
    }
  });

  it("gives the shared stretch itself when none of the viewer's own figures is in it (callers share its JSON)", () => {
    const frozen = states[1][1];
    const away = windowForViewer(frozen, viewers[1], { offset: 0, limit: 3 });
    expect(away.teams).toBe(away.base);
    const mine = windowForViewer(frozen, viewers[1], { offset: 5, limit: 3 });
    expect(mine.teams).not.toBe(mine.base);
    expect(mine.teams.find((team) => team.id === 4)?.totalScore).toBe(live.find((team) => team.id === 4)?.totalScore);
  });
});

describe("windowMayChange: when a page of a big board is read again", () => {
  const board = boardOf(1000);
  const page1 = board.slice(0, 100);
  const window = { offset: 0, limit: 100, division: null, aroundCount: 0 };
  const leaders = categoryLeaders(board);

  it("reads again for a team on the page, a team that reaches the page, or one that may enter the category top 3", () => {
    expect(windowMayChange({ ...board[50], totalScore: 1 }, page1, window, leaders)).toBe(true);
    expect(windowMayChange({ ...board[500], rank: 40 }, page1, window, leaders)).toBe(true);
    expect(windowMayChange({ ...board[500], rank: 100 }, page1, window, leaders)).toBe(true);
    expect(windowMayChange({ ...board[500], categories: { ...board[500].categories, CS: 5 }, rank: 450 }, page1, window, leaders)).toBe(true);
  });

  it("leaves the first page alone for a team that stays below it", () => {
    expect(windowMayChange({ ...board[500], rank: 450 }, page1, window, leaders)).toBe(false);
    expect(windowMayChange({ ...board[500], rank: 101 }, page1, window, leaders)).toBe(false);
  });

  it("reads again for any update on a later page or with the own team held apart (a team above may have dropped below)", () => {
    expect(windowMayChange({ ...board[900], rank: 950 }, board.slice(100, 200), { ...window, offset: 100 }, leaders)).toBe(true);
    expect(windowMayChange({ ...board[900], rank: 950 }, page1, { ...window, aroundCount: 5 }, leaders)).toBe(true);
  });

  it("on a division's board: its own teams' updates only", () => {
    const division = { ...window, division: "Student" };
    expect(windowMayChange({ ...board[500], rank: 450, division: "Student" }, page1, division, null)).toBe(true);
    expect(windowMayChange({ ...board[500], rank: 1, division: "Pro" }, page1, division, null)).toBe(false);
  });
});

describe("refreshHeld", () => {
  it("puts a held team's new figures in its row and keeps its place and rank; an older update or another team changes nothing", () => {
    const held = boardOf(3);
    const update = { ...held[2], totalScore: 999, solvedCount: 4, version: 2, rank: 1 };
    const next = refreshHeld(held, update);
    expect(next.map((team) => [team.id, team.rank, team.totalScore])).toEqual([
      [1, 1, 30],
      [2, 2, 20],
      [3, 3, 999],
    ]);
    expect(refreshHeld(next, { ...update, totalScore: 5, version: 1 })).toBe(next);
    expect(refreshHeld(next, standingOf({ id: 77, totalScore: 1 }))).toBe(next);
  });
});

describe("/status's own row on a big board", () => {
  const own = standingOf({ id: 7, totalScore: 40, rank: 50, version: 3 });

  it("takes the own team's update whole (its rank with it), never an older one", () => {
    const newer = { ...own, totalScore: 90, rank: 12, version: 4 };
    expect(refreshOwnRow([own], newer)).toEqual([newer]);
    expect(refreshOwnRow([own], { ...own, totalScore: 1, rank: 99, version: 2 })).toEqual([own]);
    expect(refreshOwnRow([own], standingOf({ id: 8, totalScore: 60, rank: 1 }))).toEqual([own]);
  });

  it("reads again when another team now stands at or above the own team, not when it stands below", () => {
    expect(ownRowMayChange(standingOf({ id: 8, totalScore: 60, rank: 50 }), own)).toBe(true);
    expect(ownRowMayChange(standingOf({ id: 8, totalScore: 60, rank: 3 }), own)).toBe(true);
    expect(ownRowMayChange(standingOf({ id: 8, totalScore: 60, rank: 51 }), own)).toBe(false);
    expect(ownRowMayChange({ ...own, rank: 49 }, own)).toBe(false);
    // Not held yet (new on the board): any ranked update reads it.
    expect(ownRowMayChange(standingOf({ id: 8, totalScore: 60, rank: 900 }), undefined)).toBe(true);
  });
});
