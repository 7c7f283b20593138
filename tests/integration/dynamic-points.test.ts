/**
 * Dynamic points (docs/domain.md "Dynamic points"): the `team_answers` view (migration 0019) and
 * app/modules/flags/decay.ts are one rule; a new solve lowers every solver's points, each keeps the time it
 * reached its total, and the chart shows the fall when it happened.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeFlags, challenges, flagSolveCounts, flagSolves, standings, standingsHistory, teamAnswers } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis, redisKey } from "../../app/infrastructure/redis.server.ts";
import { dynamicValue } from "../../app/modules/flags/decay.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { broadcastNotification } from "../../app/modules/realtime/broadcast.server.ts";
import { recomputeChallengeSolvers, sweepBehindChallenges } from "../../app/modules/flags/dynamic-solvers.server.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { collect, connectSocket, nextEvent, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";

let realtimeUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  realtimeUrl = (await startRealtimeServer()).url;
});

afterAll(() => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
});

async function dynamicChallenge(initial: number, minimum: number, decay: number) {
  const challenge = await makeChallenge({ points: initial, category: "CS", wave: 1 });
  await getDb().update(challenges).set({ checking: "flag", scoring: "dynamic", minimumPoints: minimum, decay }).where(eq(challenges.id, challenge.id));
  await getDb().insert(challengeFlags).values({ challengeId: challenge.id, position: 1, kind: "exact", value: "GK{decay}" });
  return challenge;
}

describe("dynamic points", () => {
  it("are the same in Postgres's view and in TypeScript", async () => {
    const teams = await Promise.all(Array.from({ length: 12 }, () => makeTeam()));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 10_000 }).chain((initial) => fc.tuple(fc.constant(initial), fc.integer({ min: 1, max: initial }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }))),
        async ([initial, minimum, decay, solves]) => {
          const challenge = await dynamicChallenge(initial, minimum, decay);
          await getDb()
            .insert(flagSolves)
            .values(teams.slice(0, solves).map((team) => ({ teamId: team.id, challengeId: challenge.id })));
          const rows = await getDb().select({ scoreCenti: teamAnswers.scoreCenti }).from(teamAnswers).where(eq(teamAnswers.challengeId, challenge.id));
          expect(rows.map((row) => row.scoreCenti)).toEqual(Array(solves).fill(dynamicValue({ initial, minimum, decay }, solves) * 100));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("lowers every solver's points on a new solve; each keeps its own reached time, and the chart shows the fall when it came", async () => {
    const challenge = await dynamicChallenge(500, 100, 3);
    const players = await Promise.all(
      [0, 1, 2].map(async () => {
        const team = await makeTeam();
        const user = await makeUser("participant", team.id);
        return { team, actor: actorFor(user.id, user.name, "participant") };
      }),
    );
    const solvedAt: Date[] = [];
    for (const [index, player] of players.entries()) {
      const verdict = await sendFlag({ actor: player.actor, teamId: player.team.id, challengeId: challenge.id, answer: "GK{decay}" });
      if (verdict.verdict !== "correct") throw new Error("not solved");
      expect(verdict.points).toBe([500, 456, 323][index]);
      // The solver's team at once; the others' fall is the challenge's batch (recomputed here by hand, below).
      expect(verdict.solvers).toEqual([player.team.id]);
      solvedAt.push(verdict.solvedAt);
      // What the worker's job does: every solver, together.
      await recomputeChallengeSolvers(challenge.id);
    }
    const rows = await getDb()
      .select({ teamId: standings.teamId, totalCenti: standings.totalCenti, reachedAt: standings.totalReachedAt })
      .from(standings)
      .where(eq(standings.teamId, players[0].team.id));
    expect(rows).toEqual([{ teamId: players[0].team.id, totalCenti: 32_300, reachedAt: solvedAt[0] }]);
    for (const [index, player] of players.entries()) {
      const [row] = await getDb().select().from(standings).where(eq(standings.teamId, player.team.id));
      // Equal totals: the earlier solver ranks first (its reached time is its own solve's).
      expect([row.totalCenti, row.totalReachedAt]).toEqual([32_300, solvedAt[index]]);
    }
    // The first solver's chart: 500 at its solve, then each fall at the moment of the later solve's recompute.
    const history = await getDb()
      .select({ totalCenti: standingsHistory.totalCenti, at: standingsHistory.at })
      .from(standingsHistory)
      .where(and(eq(standingsHistory.teamId, players[0].team.id)))
      .orderBy(desc(standingsHistory.at));
    expect(history.map((point) => point.totalCenti)).toEqual([32_300, 45_600, 50_000]);
    expect(history[2].at).toEqual(solvedAt[0]);
    expect(history[1].at.getTime()).toBeGreaterThanOrEqual(solvedAt[1].getTime());
    expect(history[0].at.getTime()).toBeGreaterThanOrEqual(solvedAt[2].getTime());
  });

  it("recomputes every solver in one batch and tells the boards in one event", async () => {
    const challenge = await dynamicChallenge(300, 50, 4);
    const admin = await makeUser("admin");
    const socket = await connectSocket(realtimeUrl, await sessionCookie(admin.id));
    sockets.push(socket);
    const players = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const team = await makeTeam();
        const user = await makeUser("participant", team.id);
        return { team, actor: actorFor(user.id, user.name, "participant") };
      }),
    );
    const ids = players.map((player) => player.team.id);
    // Each solving team's own update, from its web process's batch at its solve, heard before the round.
    const own = collect(socket, "teams:update");
    let last: Awaited<ReturnType<typeof sendFlag>> | null = null;
    for (const player of players) last = await sendFlag({ actor: player.actor, teamId: player.team.id, challengeId: challenge.id, answer: "GK{decay}" });
    if (last?.verdict !== "correct") throw new Error("not solved");
    const deadline = Date.now() + 10_000;
    while (!ids.every((id) => own.some(([update]) => update.id === id && update.solvedCount === 1))) {
      if (Date.now() > deadline) throw new Error("the solvers' own updates never came");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const singles = collect(socket, "teams:update");
    const batch = nextEvent(socket, "teams:batch", (event) => event.challengeId === challenge.id);
    // The challenge's count says its solvers are behind until the batch has run: the solves' own outbox.
    const [behind] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([behind.solves, behind.recomputed]).toEqual([4, 0]);
    // The worker's sweep finds it (a job per challenge behind; here at once, not 2 s on).
    expect(await sweepBehindChallenges(0)).toBeGreaterThanOrEqual(1);
    const rounds = await recomputeChallengeSolvers(challenge.id);
    expect(rounds.map((round) => round.map((result) => result.status))).toEqual([["updated", "updated", "updated", "updated"]]);
    const [caughtUp] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([caughtUp.solves, caughtUp.recomputed]).toEqual([4, 4]);
    const [event] = await batch;
    expect(event.value).toBe(dynamicValue({ initial: 300, minimum: 50, decay: 4 }, 4));
    // The earlier solvers, whose value fell; the last solver's own batch placed it at this value when it solved.
    const earlier = ids.slice(0, 3).sort((a, b) => a - b);
    expect(event.teams.map((team) => [team.id, team.totalScore]).sort((a, b) => a[0] - b[0])).toEqual(earlier.map((id) => [id, event.value]));
    const [lastStanding] = await getDb().select().from(standings).where(eq(standings.teamId, ids[3]));
    expect(lastStanding.totalCenti).toBe(event.value! * 100);
    // No single update of these teams besides it.
    const marker = `barrier ${challenge.id}`;
    const barrier = nextEvent(socket, "notification", (note) => note.message === marker);
    broadcastNotification({ message: marker, timestamp: new Date().toISOString() });
    await barrier;
    expect(singles.filter(([update]) => ids.includes(update.id))).toEqual([]);
  });

  it("runs one batch for a burst however many jobs run at once, and every solve of the burst is in it", async () => {
    const challenge = await dynamicChallenge(400, 80, 5);
    const players = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async () => {
        const team = await makeTeam();
        const user = await makeUser("participant", team.id);
        return { team, actor: actorFor(user.id, user.name, "participant") };
      }),
    );
    for (const player of players) await sendFlag({ actor: player.actor, teamId: player.team.id, challengeId: challenge.id, answer: "GK{decay}" });
    // A worker runs several jobs at once: eight jobs of the burst together recompute the six solvers once, not
    // once each (each used to wait for the running batch's locks, then redo it).
    const jobs = await Promise.all(Array.from({ length: 8 }, () => recomputeChallengeSolvers(challenge.id)));
    const teamsRecomputed = jobs.flat().reduce((sum, round) => sum + round.length, 0);
    expect(teamsRecomputed).toBe(6);
    const [count] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([count.solves, count.recomputed]).toEqual([6, 6]);
    const value = dynamicValue({ initial: 400, minimum: 80, decay: 5 }, 6);
    const totals = await getDb().select({ teamId: standings.teamId, totalCenti: standings.totalCenti }).from(standings).where(inArray(standings.teamId, players.map((player) => player.team.id)));
    expect(totals.map((row) => row.totalCenti)).toEqual(Array(6).fill(value * 100));
  });

  it("begins a challenge's rounds a gap apart as the worker runs them, whichever job runs them; a job with nothing to do does not wait", async () => {
    const challenge = await dynamicChallenge(400, 80, 5);
    const players = await Promise.all(
      [0, 1].map(async () => {
        const team = await makeTeam();
        const user = await makeUser("participant", team.id);
        return { team, actor: actorFor(user.id, user.name, "participant") };
      }),
    );
    const gapMs = 3000;
    const roundKey = redisKey("flag-solvers", challenge.id, "round");
    await sendFlag({ actor: players[0].actor, teamId: players[0].team.id, challengeId: challenge.id, answer: "GK{decay}" });
    expect(await recomputeChallengeSolvers(challenge.id, { gapMs })).toHaveLength(1);
    // Caught up: a job now has nothing to do and ends without waiting out the gap, leaving the round's key as it was
    // (a job that waited would have set it again, for a whole gap).
    const before = await getRedis().pttl(roundKey);
    expect(await recomputeChallengeSolvers(challenge.id, { gapMs })).toEqual([]);
    const after = await getRedis().pttl(roundKey);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThanOrEqual(before);
    // A solve soon after: its job's round waits until the gap since the first round has passed, then takes it in.
    await sendFlag({ actor: players[1].actor, teamId: players[1].team.id, challengeId: challenge.id, answer: "GK{decay}" });
    const left = await getRedis().pttl(roundKey);
    const began = Date.now();
    const rounds = await recomputeChallengeSolvers(challenge.id, { gapMs });
    // Timers may fire a millisecond early.
    expect(Date.now() - began).toBeGreaterThanOrEqual(left - 5);
    expect(rounds).toHaveLength(1);
    const [count] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([count.solves, count.recomputed]).toEqual([2, 2]);
  });

  it("recomputes the solvers again when a solve is deleted while their batch runs (never marks them done at the old count)", async () => {
    const challenge = await dynamicChallenge(500, 100, 3);
    const players = await Promise.all(
      [0, 1, 2].map(async () => {
        const team = await makeTeam();
        const user = await makeUser("participant", team.id);
        return { team, actor: actorFor(user.id, user.name, "participant") };
      }),
    );
    for (const player of players) await sendFlag({ actor: player.actor, teamId: player.team.id, challengeId: challenge.id, answer: "GK{decay}" });
    // An admin's deletion of the third solve, not yet committed: it holds the count's row, so the batch that read 3
    // solves and recomputed at 3 waits on it to say it caught up.
    let commitDeletion!: () => void;
    const deletionMayCommit = new Promise<void>((resolve) => (commitDeletion = resolve));
    let deleted!: () => void;
    const deletionStarted = new Promise<void>((resolve) => (deleted = resolve));
    const deletion = getDb().transaction(async (tx) => {
      await tx.delete(flagSolves).where(and(eq(flagSolves.teamId, players[2].team.id), eq(flagSolves.challengeId, challenge.id)));
      deleted();
      await deletionMayCommit;
    });
    await deletionStarted;
    const job = recomputeChallengeSolvers(challenge.id);
    await expect
      .poll(async () => {
        const [waiting] = await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%update "flag_solve_counts" set recomputed%'`,
        );
        return Number(waiting.n);
      })
      .toBeGreaterThan(0);
    commitDeletion();
    await deletion;
    await job;
    const value = dynamicValue({ initial: 500, minimum: 100, decay: 3 }, 2);
    const totals = await getDb().select({ totalCenti: standings.totalCenti }).from(standings).where(inArray(standings.teamId, [players[0].team.id, players[1].team.id]));
    expect(totals.map((row) => row.totalCenti)).toEqual([value * 100, value * 100]);
    const [count] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([count.solves, count.recomputed]).toEqual([2, 2]);
  });

  it("counts a solve that goes (deleted in the database) out, and sends the challenge's solvers back to the sweep", async () => {
    const challenge = await dynamicChallenge(500, 100, 3);
    const players = await Promise.all([0, 1].map(async () => {
      const team = await makeTeam();
      const user = await makeUser("participant", team.id);
      return { team, actor: actorFor(user.id, user.name, "participant") };
    }));
    for (const player of players) await sendFlag({ actor: player.actor, teamId: player.team.id, challengeId: challenge.id, answer: "GK{decay}" });
    await recomputeChallengeSolvers(challenge.id);
    await getDb().delete(flagSolves).where(eq(flagSolves.teamId, players[1].team.id));
    const [count] = await getDb().select().from(flagSolveCounts).where(eq(flagSolveCounts.challengeId, challenge.id));
    expect([count.solves, count.recomputed]).toEqual([1, 0]);
    await recomputeChallengeSolvers(challenge.id);
    const [first] = await getDb().select().from(standings).where(eq(standings.teamId, players[0].team.id));
    expect(first.totalCenti).toBe(50_000);
  });
});
