/**
 * A standings job that finds the Redis snapshot lost (a restart without persistence, a flush) never places its
 * team into the empty order: the placement's own script refuses, the job's transaction rolls back, and the whole
 * board is rebuilt from Postgres (the team's new score with it), every team at its rank.
 */
import { describe, expect, it } from "vitest";
import { within } from "../../app/infrastructure/deadline.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { readSnapshot, snapshotKeys } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { standingsOutbox } from "../../db/schema.ts";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";
import { someoneWaitsForALock, whileBoardHeld } from "../support/standings.ts";

describe("standings job on a lost snapshot", () => {
  it("rebuilds the whole board instead of placing the team alone", async () => {
    await ensureEventSettings();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const [ahead, scored] = [await makeTeam(), await makeTeam()];
    const [first, second] = [await makeSubmission(ahead.id, challenge.id, null), await makeSubmission(scored.id, challenge.id, null)];
    await scoreSubmission({ submissionId: first.id, judge: actorFor(judge.id), score: "90" });
    await rebuildStandings();

    // Redis loses the snapshot; then a score lands and its job runs.
    await getRedis().del(...Object.values(snapshotKeys).map((key) => key()));
    await scoreSubmission({ submissionId: second.id, judge: actorFor(judge.id), score: "40" });
    const result = await recomputeTeamStanding(scored.id);

    // The rebuild took the new score in and cleared the team's mark: nothing left for the job to place.
    expect(result.status).toBe("skipped");
    const snapshot = await readSnapshot(getRedis());
    expect(snapshot.ready).toBe(true);
    const placed = snapshot.board.find((team) => team.id === scored.id)!;
    expect(placed.totalScore).toBe(40);
    // The team scored 90 before the loss is back on the board, above it.
    expect(snapshot.board.find((team) => team.id === ahead.id)!.rank).toBeLessThan(placed.rank);
    expect(await getDb().select().from(standingsOutbox)).toEqual([]);
  });

  it("lets a freeze that finds the snapshot lost under its lock rebuild it and freeze, instead of waiting for its own lock", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    await rebuildStandings();
    let freezing!: Promise<void>;
    await whileBoardHeld(async () => {
      // The freeze has read the snapshot and waits for the board's lock; Redis loses the snapshot meanwhile.
      freezing = setScoreboardFrozen(testAdmin, true);
      for (const deadline = Date.now() + 10_000; !(await someoneWaitsForALock()); await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > deadline) throw new Error("the freeze never waited for the board's lock");
      }
      await getRedis().del(...Object.values(snapshotKeys).map((key) => key()));
    });
    // A rebuild inside the freeze's transaction would wait for the lock that transaction holds, for ever.
    await within(freezing, 15_000, "the freeze still waiting after 15 s");
    const snapshot = await readSnapshot(getRedis());
    expect(snapshot).toMatchObject({ ready: true, frozen: true });
    expect(snapshot.frozenBoard?.some((row) => row.id === team.id)).toBe(true);
    await setScoreboardFrozen(testAdmin, false);
  });
});
