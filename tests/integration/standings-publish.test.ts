/**
 * When the standings job publishes `teams:update`: only when what clients are shown of the team changed since
 * the last committed job (standings.shown), decided in Postgres so that a job rolled back after it had already
 * placed the team in Redis still publishes on its retry. Counted by the process's own emit counter
 * (gatekeeper_live_events_emitted_total): the job runs here, in this process.
 */
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { standings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getMetrics } from "../../app/infrastructure/metrics.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { computeAllStandings, rebuildStandings, toBoard } from "../../app/modules/standings/rebuild.server.ts";
import { markStandingsStale } from "../../app/modules/standings/outbox.server.ts";
import { placeTeam, readSnapshot, snapshotKeys } from "../../app/modules/standings/snapshot.server.ts";
import { updateTeam } from "../../app/modules/teams/teams.server.ts";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";

afterAll(() => closeEmitter());

async function teamUpdatesEmitted(): Promise<number> {
  const { values } = await getMetrics().eventsEmitted().get();
  return values.find((value) => value.labels.event === "teams:update")?.value ?? 0;
}

describe("the standings job's teams:update", () => {
  it("is not sent when nothing shown changed, and is sent on the retry of a job rolled back after its Redis placement", async () => {
    await ensureEventSettings();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const team = await makeTeam();
    const submission = await makeSubmission(team.id, challenge.id, null);
    await rebuildStandings();

    // Nothing changed: no event, the board's version where it was.
    const version = await getRedis().get(snapshotKeys.version());
    let emitted = await teamUpdatesEmitted();
    await getDb().transaction((tx) => markStandingsStale(tx, team.id));
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated" });
    expect(await teamUpdatesEmitted()).toBe(emitted);
    expect(await getRedis().get(snapshotKeys.version())).toBe(version);

    // A score, and a first attempt of its job that placed the team in Redis and then rolled back: Redis holds the
    // new figures, Postgres the old. The retry finds Redis already as it would write it, and still publishes.
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "70" });
    const computed = await getDb().transaction((tx) => computeAllStandings(tx));
    const [ahead] = toBoard(computed.standings.filter((row) => row.teamId === team.id), Number.MAX_SAFE_INTEGER);
    await placeTeam(getRedis(), ahead, 7000);
    emitted = await teamUpdatesEmitted();
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 70 } });
    expect(await teamUpdatesEmitted()).toBe(emitted + 1);
    expect((await readSnapshot(getRedis())).board.find((row) => row.id === team.id)).toMatchObject({ totalScore: 70 });

    // A rename changes what is shown (points unchanged): one event.
    emitted = await teamUpdatesEmitted();
    await updateTeam(testAdmin, team.id, { name: `${team.name}-renamed` });
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { name: `${team.name}-renamed` } });
    expect(await teamUpdatesEmitted()).toBe(emitted + 1);
    const [row] = await getDb().select({ shown: standings.shown }).from(standings).where(eq(standings.teamId, team.id));
    expect(JSON.parse(row.shown!)).toMatchObject({ id: team.id, name: `${team.name}-renamed`, totalScore: 70 });
  });
});
