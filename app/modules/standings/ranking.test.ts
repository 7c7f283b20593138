import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TeamStanding } from "../realtime/events";
import { compareRank, compareStandings, rankAll, rankOrderMember, rankOrderScore, reachedAt, teamIdOfRankMember, type RankKey } from "./ranking";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

// Few distinct values, so that equal totals and equal times are common.
const key = fc.record({
  teamId: fc.integer({ min: 1, max: 2_000_000 }),
  totalCenti: fc.constantFrom(0, 100, 150, 10_000, 123_456),
  reachedAt: fc.constantFrom(0, 1, 999, 60_000).map(at),
});
const keys = fc.uniqueArray(key, { selector: (row) => row.teamId, maxLength: 40 });

function standingOf(row: RankKey): TeamStanding {
  return { id: row.teamId, name: `t${row.teamId}`, totalScore: row.totalCenti / 100, categories: { AI: 0, CS: 0, PS: 0, GD: 0 }, solvedCount: 0, rank: 0, reachedAt: row.reachedAt.toISOString(), version: 1, division: null };
}

/** The order Redis gives a sorted set read highest first: score descending, then member bytes descending. */
function redisOrder(rows: readonly RankKey[]): number[] {
  return rows
    .map((row) => ({ score: rankOrderScore(row), member: rankOrderMember(row) }))
    .sort((a, b) => b.score - a.score || (a.member < b.member ? 1 : a.member > b.member ? -1 : 0))
    .map((entry) => teamIdOfRankMember(entry.member));
}

describe("the ranking order", () => {
  it("ranks by total, then by who reached it first, then by id", () => {
    const ranked = rankAll([
      { teamId: 1, totalCenti: 100, reachedAt: at(5) },
      { teamId: 2, totalCenti: 300, reachedAt: at(9) },
      { teamId: 4, totalCenti: 100, reachedAt: at(2) },
      { teamId: 3, totalCenti: 100, reachedAt: at(2) },
    ]);
    expect(ranked.map((row) => [row.teamId, row.rank])).toEqual([
      [2, 1],
      [3, 2],
      [4, 3],
      [1, 4],
    ]);
  });

  it("is the same order on the browser's standings and in the Redis encoding", () => {
    fc.assert(
      fc.property(keys, (rows) => {
        const expected = [...rows].sort(compareRank).map((row) => row.teamId);
        expect(rows.map(standingOf).sort(compareStandings).map((team) => team.id)).toEqual(expected);
        expect(redisOrder(rows)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("reads the team back from its member, at the largest ids and times", () => {
    for (const teamId of [1, 2_147_483_647]) {
      expect(teamIdOfRankMember(rankOrderMember({ teamId, reachedAt: at(0) }))).toBe(teamId);
      expect(teamIdOfRankMember(rankOrderMember({ teamId, reachedAt: new Date(Date.UTC(2999, 11, 31)) }))).toBe(teamId);
    }
  });

  it("reaches a total at the latest score or award change, else at the team's creation", () => {
    const createdAt = at(0);
    expect(reachedAt({ lastScoreChange: null, lastAwardChange: null, createdAt })).toEqual(createdAt);
    expect(reachedAt({ lastScoreChange: at(5), lastAwardChange: null, createdAt })).toEqual(at(5));
    expect(reachedAt({ lastScoreChange: null, lastAwardChange: at(7), createdAt })).toEqual(at(7));
    expect(reachedAt({ lastScoreChange: at(5), lastAwardChange: at(7), createdAt })).toEqual(at(7));
    expect(reachedAt({ lastScoreChange: at(9), lastAwardChange: at(7), createdAt })).toEqual(at(9));
  });
});
