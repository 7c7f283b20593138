/**
 * The freeze with dynamic points (docs/domain.md "Freeze", "Dynamic points"): while the board is frozen, a
 * participant sees a dynamic flag challenge's value, solves and first three solvers as of the freeze, and their
 * own team's points with its solves at those values (made before the freeze or after), on every path that shows
 * them: the scoreboard page's board, /status's row, the API feed, the chart's own line, the live update to the
 * team, the team's scores in the API, the challenge's figures; a rebuild keeps them. Other teams' solves after
 * the freeze move nothing a participant sees. Unfreezing reveals the live values; standings exact throughout.
 * Real Postgres and Redis, and a real web process's Socket.IO server for the live updates.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeFlags, challenges, standings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { giveAward } from "../../app/modules/awards/awards.server.ts";
import { dynamicValue } from "../../app/modules/flags/decay.ts";
import { flagFiguresFor } from "../../app/modules/flags/figures.server.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";
import { teamCategoryScores } from "../../app/modules/scoring/category-scores.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { getScoreChart } from "../../app/modules/standings/history.server.ts";
import { computeAllStandings, rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { recomputeChallengeSolvers } from "../../app/modules/flags/dynamic-solvers.server.ts";
import { getScoreboard, getScoreboardFeed, getScoreboardJson, type Viewer } from "../../app/modules/standings/scoreboard.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { collect, connectSocket, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";
import { drained } from "../support/drained.ts";

const FLAG = "GK{frozen-decay}";
const curve = { initial: 500, minimum: 100, decay: 3 };
const sockets: TestSocket[] = [];
let url: string;

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  url = (await startRealtimeServer()).url;
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  await setScoreboardFrozen(testAdmin, false);
});

async function dynamicChallenge() {
  const challenge = await makeChallenge({ points: curve.initial, category: "CS", wave: 1 });
  await getDb().update(challenges).set({ checking: "flag", scoring: "dynamic", minimumPoints: curve.minimum, decay: curve.decay }).where(eq(challenges.id, challenge.id));
  await getDb().insert(challengeFlags).values({ challengeId: challenge.id, position: 1, kind: "exact", value: FLAG });
  return challenge;
}

async function player() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  const viewer: Viewer = { id: user.id, role: "participant", teamId: team.id };
  return { team, user, viewer, actor: actorFor(user.id, user.name, "participant") };
}

/** A solve, then every solver recomputed in one batch, as the challenge's job does after it. The verdict's points. */
async function solve(challengeId: number, who: Awaited<ReturnType<typeof player>>) {
  const verdict = await sendFlag({ actor: who.actor, teamId: who.team.id, challengeId, answer: FLAG });
  if (verdict.verdict !== "correct") throw new Error(`not solved: ${verdict.verdict}`);
  await recomputeChallengeSolvers(challengeId);
  return verdict.points;
}

const totalOf = (teams: readonly TeamStanding[], teamId: number) => teams.find((team) => team.id === teamId)?.totalScore;
const feedTotal = async (viewer: Viewer, teamId: number) => {
  const body = await getScoreboardFeed(viewer);
  return totalOf((JSON.parse(body.head + body.tail) as { teams: TeamStanding[] }).teams, teamId);
};

async function expectStandingsExact() {
  const expected = await computeAllStandings(getDb());
  const stored = await getDb().select({ teamId: standings.teamId, totalCenti: standings.totalCenti }).from(standings);
  expect(new Map(stored.map((row) => [row.teamId, row.totalCenti]))).toEqual(new Map(expected.standings.map((row) => [row.teamId, row.totalCenti])));
  return expected;
}

describe("the freeze with dynamic points", () => {
  it("shows participants the values, solves, marks and their own points as of the freeze, then the rest once lifted", async () => {
    await setScoreboardFrozen(testAdmin, false);
    const challenge = await dynamicChallenge();
    const [a, b, c, d] = [await player(), await player(), await player(), await player()];
    const admin: Viewer = { id: (await makeUser("admin")).id, role: "admin", teamId: null };
    await solve(challenge.id, a);
    await solve(challenge.id, b);
    const atFreeze = dynamicValue(curve, 2);
    expect(atFreeze).toBe(456);

    await setScoreboardFrozen(testAdmin, true);
    const socket = await connectSocket(url, await sessionCookie(a.user.id));
    sockets.push(socket);
    const updates = collect(socket, "teams:update");

    // After the freeze, two more teams solve it: live, its value falls to the minimum for every solver. Each is
    // told the value as of the freeze, as its board shows it: never how many solved since.
    expect(await solve(challenge.id, c)).toBe(atFreeze);
    expect(await solve(challenge.id, d)).toBe(atFreeze);
    // And team A's own change after the freeze stays live for its members (an award of 10 in CS).
    await giveAward(testAdmin, { teamId: a.team.id, points: "10", category: "CS", reason: "Frozen but live" });
    await recomputeTeamStanding(a.team.id);
    const live = dynamicValue(curve, 4);
    expect(live).toBe(100);

    // Admins see the live board.
    expect(totalOf((await getScoreboard(admin)).teams, a.team.id)).toBe(live + 10);
    expect(totalOf((await getScoreboard(admin)).teams, c.team.id)).toBe(live);

    // Team A's members: its solve at the freeze's value, its award live, on every path.
    const ownA = atFreeze + 10;
    expect(totalOf((await getScoreboard(a.viewer)).teams, a.team.id)).toBe(ownA);
    expect((await getScoreboard(a.viewer)).teams.find((team) => team.id === a.team.id)?.categories.CS).toBe(ownA);
    expect(totalOf(JSON.parse((await getScoreboardJson(a.viewer, 10)).teamsJson) as TeamStanding[], a.team.id)).toBe(ownA);
    expect(totalOf(JSON.parse((await getScoreboardJson(a.viewer, 0, null, "own")).teamsJson) as TeamStanding[], a.team.id)).toBe(ownA);
    expect(await feedTotal(a.viewer, a.team.id)).toBe(ownA);
    // Another team on A's board stands as it did at the freeze.
    expect(totalOf((await getScoreboard(a.viewer)).teams, b.team.id)).toBe(atFreeze);
    // Team C solved after the freeze: its own members count it at the value the challenge showed them.
    expect(totalOf((await getScoreboard(c.viewer)).teams, c.team.id)).toBe(atFreeze);
    expect(await feedTotal(c.viewer, c.team.id)).toBe(atFreeze);

    // The challenge's figures: as of the freeze for participants, live for admins.
    expect((await flagFiguresFor([challenge.id], { role: "participant" })).get(challenge.id)).toEqual({
      value: atFreeze,
      solves: 2,
      firsts: [
        { place: 1, team: a.team.name },
        { place: 2, team: b.team.name },
      ],
    });
    expect((await flagFiguresFor([challenge.id], { role: "admin" })).get(challenge.id)).toMatchObject({ value: live, solves: 4 });

    // The team's scores in the API: as of the freeze for its members, live for admins.
    expect((await teamCategoryScores(a.team.id, { role: "participant" })).CS).toEqual([atFreeze]);
    expect((await teamCategoryScores(a.team.id, { role: "admin" })).CS).toEqual([live]);

    // The live updates team A heard: never a fall below the freeze's value.
    await drained(socket);
    const heard = updates.map(([update]) => update).filter((update) => update.id === a.team.id);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.map((update) => update.totalScore).every((total) => total >= atFreeze)).toBe(true);
    expect(heard.at(-1)?.totalScore).toBe(ownA);

    // The chart's own line: no fall after the freeze; it ends at the team's own total.
    const leaders = (await getScoreboardJson(a.viewer, 10)).leaders;
    const { chart } = await getScoreChart({ teams: leaders, frozenFor: { ownTeamId: a.team.id } });
    const line = chart.series.find((series) => series.teamId === a.team.id)!.points.map(([, total]) => total);
    expect(line.at(-1)).toBe(ownA);
    expect(Math.min(...line)).toBe(atFreeze);

    // What the jobs kept of the teams' own points is what a rebuild computes.
    const incremental = (await readSnapshot(getRedis())).own;
    expect(incremental).toEqual((await computeAllStandings(getDb())).own);
    expect(incremental?.get(a.team.id)?.totalScore).toBe(ownA);

    // A rebuild while frozen keeps the teams' own points.
    await rebuildStandings();
    expect(totalOf((await getScoreboard(a.viewer)).teams, a.team.id)).toBe(ownA);
    expect(totalOf((await getScoreboard(c.viewer)).teams, c.team.id)).toBe(atFreeze);
    await expectStandingsExact();

    // Frozen again: the new freeze's values (every solve so far counts as it does live).
    await setScoreboardFrozen(testAdmin, true);
    expect(totalOf((await getScoreboard(a.viewer)).teams, a.team.id)).toBe(live + 10);
    expect(totalOf((await getScoreboard(c.viewer)).teams, c.team.id)).toBe(live);
    expect((await flagFiguresFor([challenge.id], { role: "participant" })).get(challenge.id)).toMatchObject({ value: live, solves: 4 });

    // Unfrozen: everyone sees the live values.
    await setScoreboardFrozen(testAdmin, false);
    expect(totalOf((await getScoreboard(a.viewer)).teams, a.team.id)).toBe(live + 10);
    expect(totalOf((await getScoreboard(a.viewer)).teams, d.team.id)).toBe(live);
    expect(await feedTotal(c.viewer, c.team.id)).toBe(live);
    expect((await flagFiguresFor([challenge.id], { role: "participant" })).get(challenge.id)).toMatchObject({ value: live, solves: 4 });
    expect((await teamCategoryScores(a.team.id, { role: "participant" })).CS).toEqual([live]);
    const expected = await expectStandingsExact();
    expect(expected.own.size).toBe(0);
  });
});
