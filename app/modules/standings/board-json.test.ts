import { describe, expect, it } from "vitest";
import { parseBoardJson } from "./board-json";
import { refreshHeld } from "./board-window";
import { applyUpdateForViewer } from "./frozen-view";
import { standingOf } from "./standing.fixture";

const board = (points: number[]) => JSON.stringify(points.map((totalScore, index) => standingOf({ id: index + 1, totalScore, rank: index + 1 })));

describe("a board's JSON decoded once per string", () => {
  it("gives every render of the same string the same teams, as JSON.parse reads them", () => {
    const json = board([90, 80, 70]);
    const first = parseBoardJson(json);
    expect(first).toEqual(JSON.parse(json));
    // Another copy of the same text (another request's loader data) gets the same decoding.
    expect(parseBoardJson(`${json} `.trimEnd())).toBe(first);
  });

  it("gives a viewer whose board differs (their own team live on a frozen board) their own teams", () => {
    const shared = board([90, 80, 70]);
    const ownLive = board([90, 85, 70]);
    expect(parseBoardJson(shared).map((team) => team.totalScore)).toEqual([90, 80, 70]);
    expect(parseBoardJson(ownLive).map((team) => team.totalScore)).toEqual([90, 85, 70]);
    expect(parseBoardJson(shared).map((team) => team.totalScore)).toEqual([90, 80, 70]);
  });

  it("cannot be changed by one render for the next: the array, each team and its categories are frozen", () => {
    const teams = parseBoardJson(board([50, 40])) as ReturnType<typeof JSON.parse>;
    expect(() => teams.push(standingOf({ id: 9, totalScore: 1 }))).toThrow(TypeError);
    expect(() => (teams[0].totalScore = 1000)).toThrow(TypeError);
    expect(() => (teams[0].categories.AI = 1000)).toThrow(TypeError);
    expect(parseBoardJson(board([50, 40]))[0].totalScore).toBe(50);
  });

  it("still takes live updates, which make new teams rather than change the decoded ones", () => {
    const decoded = parseBoardJson(board([30, 20]));
    const update = standingOf({ id: 2, totalScore: 35, version: 2 });
    expect(refreshHeld([...decoded], update).map((team) => team.totalScore)).toEqual([30, 35]);
    const view = { live: true, ownTeamId: 2, division: null };
    expect(applyUpdateForViewer([...decoded], update, view).map((team) => [team.id, team.rank])).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect(decoded.map((team) => team.totalScore)).toEqual([30, 20]);
  });

  it("keeps a board every viewer asks for while boards of one viewer each come and go", () => {
    const shared = board([70, 60]);
    const first = parseBoardJson(shared);
    for (let viewer = 0; viewer < 40; viewer += 1) {
      parseBoardJson(board([viewer + 200, 60]));
      expect(parseBoardJson(shared)).toBe(first);
    }
  });

  it("keeps a bounded number of boards: an old one is decoded again once many others came after it", () => {
    const json = board([11, 10]);
    const first = parseBoardJson(json);
    for (let index = 0; index < 40; index += 1) parseBoardJson(board([index + 100]));
    const again = parseBoardJson(json);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
