/**
 * The web process's copy of the Redis snapshot (readSnapshotCached) is served only while the
 * snapshot's version has not moved: every writer (a team's job that changes the team, a team's removal, the
 * rebuild, the freeze) moves it, and a Redis that lost everything never matches an old copy.
 */
import { afterAll, describe, expect, it } from "vitest";
import { markStandingsStale, nextStandingsVersion } from "../../app/modules/standings/outbox.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { getScoreboardJson, readLiveSnapshot } from "../../app/modules/standings/scoreboard.server.ts";
import { readSnapshot, readSnapshotCached, removeTeamFromSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getRedis, redisKey } from "../../app/infrastructure/redis.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, actorFor, testAdmin } from "../support/fixtures.ts";


afterAll(() => closeEmitter());

async function expectCachedEqualsRedis() {
  const cached = await readSnapshotCached(getRedis());
  const fresh = await readSnapshot(getRedis());
  expect(cached).toEqual(fresh);
  return cached;
}

describe("scoreboard snapshot cache", () => {
  it("serves the same board until a writer moves the version, then the new one", async () => {
    await ensureEventSettings();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const [first, second] = [await makeTeam(), await makeTeam()];
    const submission = await makeSubmission(second.id, challenge.id, null);
    await rebuildStandings();

    const before = await expectCachedEqualsRedis();
    // Nothing written: the very same object comes back (no re-read, no re-parse).
    expect(await readSnapshotCached(getRedis())).toBe(before);

    // A team's job (the Lua placement) moves the version.
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "80" });
    await recomputeTeamStanding(second.id);
    const afterScore = await expectCachedEqualsRedis();
    expect(afterScore).not.toBe(before);
    expect(afterScore.board[0]).toMatchObject({ id: second.id, totalScore: 80, rank: 1 });

    // The JSON the page gets is made once per version and follows it.
    const viewer = { id: judge.id, role: "judge" as const, teamId: null };
    const json = (await getScoreboardJson(viewer)).teamsJson;
    expect(JSON.parse(json)).toEqual(afterScore.board);
    expect((await getScoreboardJson(viewer)).teamsJson).toBe(json);

    // The freeze (MULTI) moves it.
    await setScoreboardFrozen(testAdmin, true);
    expect((await expectCachedEqualsRedis()).frozen).toBe(true);
    await setScoreboardFrozen(testAdmin, false);
    expect((await expectCachedEqualsRedis()).frozen).toBe(false);

    // A removal (Lua) moves it.
    await removeTeamFromSnapshot(getRedis(), first.id, await nextStandingsVersion(getDb()));
    expect((await expectCachedEqualsRedis()).board.map((team) => team.id)).toEqual([second.id]);

    // Redis loses everything: the first reader rebuilds, and no old copy is served.
    const keys = await getRedis().keys(redisKey("standings", "*"));
    await getRedis().del(...keys);
    const rebuilt = await readLiveSnapshot();
    expect(rebuilt.ready).toBe(true);
    expect(rebuilt.board.map((team) => team.id).sort()).toEqual([first.id, second.id].sort());
    await expectCachedEqualsRedis();

    // A job that changes nothing a reader sees (the team's points stay) does not move it: the same copy is served.
    const settled = await expectCachedEqualsRedis();
    await getDb().transaction((tx) => markStandingsStale(tx, first.id));
    await recomputeTeamStanding(first.id);
    expect(await readSnapshotCached(getRedis())).toBe(settled);
    expect(await expectCachedEqualsRedis()).toBe(settled);

    // And a job after the rebuild that does change the team still moves the (new, random) version.
    const firsts = await makeSubmission(first.id, challenge.id, null);
    await scoreSubmission({ submissionId: firsts.id, judge: actorFor(judge.id), score: "90" });
    await recomputeTeamStanding(first.id);
    expect((await expectCachedEqualsRedis()).board[0]).toMatchObject({ id: first.id, totalScore: 90 });
  });
});
