/**
 * Flag solves' standings recomputed together by their web process (app/modules/standings/batcher.server.ts,
 * docs/decisions/049-standings-in-batches.md): the solves that come while a batch runs go in the next one, one
 * transaction and one `teams:batch` for all of them; a team whose recompute runs elsewhere, or a batch that cannot
 * take its users' locks in time, is the queue's. A real web process's Socket.IO server and a real
 * socket watch what players would see; the solves are made by this process, as a web process's request makes them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standings, standingsOutbox, users } from "../../db/schema.ts";
import { answerFlagCall } from "../../app/glue/flag-answer-api.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getMetrics } from "../../app/infrastructure/metrics.server.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { sendFlag, type FlagVerdict } from "../../app/modules/flags/guess.server.ts";
import { BATCH_LIMITS, teamsWaitingForBatch } from "../../app/modules/standings/batcher.server.ts";
import { markStandingsStale } from "../../app/modules/standings/outbox.server.ts";
import { recomputeTeamsInBatch, recomputeTeamsTogether } from "../../app/modules/standings/recompute.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { actorFor, callerOf, ensureEventSettings, ensureTwoOpenGates, makeFlagChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { collect, connectSocket, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";
import { someoneWaitsForALock, whileBoardHeld, whileTeamsLocked, whileUsersLocked } from "../support/standings.ts";

let socket: TestSocket;

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  const { url } = await startRealtimeServer();
  const watcher = await makeUser("participant", (await makeTeam()).id);
  socket = await connectSocket(url, await sessionCookie(watcher.id));
});

afterAll(() => {
  socket.disconnect();
  stopAll();
});

const flagChallenge = (flag: string, points: number) => makeFlagChallenge(flag, { points });

async function team() {
  const made = await makeTeam();
  const user = await makeUser("participant", made.id);
  return { ...made, userId: user.id, actor: actorFor(user.id, user.name, "participant") };
}

/** The standings jobs waiting in the queue for this team (no worker runs in this file). */
const jobsFor = async (teamId: number) =>
  (await getQueue("standings").getJobs(["waiting", "active", "delayed"])).filter((job) => (job.data as { teamId: number }).teamId === teamId).length;

/** whileUsersLocked, the process's batches waiting for those locks however long the test holds them (not the queue after 2 s). */
async function whileUsersLockedLong(userIds: number[], work: () => Promise<void>) {
  const limits = { ...BATCH_LIMITS };
  Object.assign(BATCH_LIMITS, { withinMs: 60_000, allMs: 60_000 });
  try {
    await whileUsersLocked(userIds, work);
  } finally {
    Object.assign(BATCH_LIMITS, limits);
  }
}

async function solvesBy(path: "batch" | "queued"): Promise<number> {
  const { values } = await getMetrics().scoreStandings().get();
  return values.find((value) => value.labels.path === path)?.value ?? 0;
}

/** Resolves once `check` is true, polling; fails after `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("flag solves' standings", () => {
  it("go in one batch when they come while another runs: one transaction, one teams:batch with every team", async () => {
    const challenge = await flagChallenge("GK{together}", 40);
    const first = await team();
    const others = await Promise.all(Array.from({ length: 5 }, team));
    await rebuildStandings();
    const batches = collect(socket, "teams:batch");
    const updates = collect(socket, "teams:update");
    const batched = await solvesBy("batch");

    // The first solve's batch waits for its member's statistics lock (held here); the five solves that come
    // meanwhile wait for it.
    const verdicts: Array<Promise<FlagVerdict>> = [];
    await whileUsersLockedLong([first.userId], async () => {
      verdicts.push(sendFlag({ actor: first.actor, teamId: first.id, challengeId: challenge.id, answer: "GK{together}" }));
      await until(someoneWaitsForALock, "the first batch to wait for its lock");
      verdicts.push(...others.map((other) => sendFlag({ actor: other.actor, teamId: other.id, challengeId: challenge.id, answer: "GK{together}" })));
      await until(async () => teamsWaitingForBatch() === 5, "the five solves to wait for the next batch");
    });
    expect((await Promise.all(verdicts)).map((verdict) => verdict.verdict)).toEqual(Array(6).fill("correct"));
    await until(async () => (await solvesBy("batch")) === batched + 6, "six solves counted as batched");

    // The first alone (a teams:update), then the other five in one event, each team at its new total.
    await until(async () => updates.some(([standing]) => standing.id === first.id) && batches.length > 0, "the two events");
    expect(batches).toHaveLength(1);
    const [[batch]] = batches;
    expect(batch.challengeId).toBeNull();
    expect(batch.teams.map((standing) => standing.id).sort((a, b) => a - b)).toEqual(others.map((other) => other.id).sort((a, b) => a - b));
    expect(batch.teams.every((standing) => standing.totalScore === 40 && standing.solvedCount === 1)).toBe(true);
    expect(updates.filter(([standing]) => others.some((other) => other.id === standing.id))).toEqual([]);
    const rows = await getDb().select().from(standings);
    for (const one of [first, ...others]) expect(rows.find((row) => row.teamId === one.id)).toMatchObject({ totalCenti: 4000, solvedCount: 1 });
    expect(await getDb().select().from(standingsOutbox)).toEqual([]);
    // The operators' histogram of batch sizes counted a batch of one and one of five.
    const sizes = (await getMetrics().standingsBatch().get()).values;
    const bucket = (le: number) => sizes.find((value) => value.metricName === "gatekeeper_standings_batch_teams_bucket" && value.labels.le === le)?.value ?? 0;
    expect(bucket(5) - bucket(2)).toBeGreaterThanOrEqual(1);
    expect(bucket(1)).toBeGreaterThanOrEqual(1);
  });

  it("begin a batch at most once a gap: the solves that come within it after a batch began share the next batch and its one event", async () => {
    const challenge = await flagChallenge("GK{gap}", 25);
    const [first, second, third] = await Promise.all([team(), team(), team()]);
    await rebuildStandings();
    const limits = { ...BATCH_LIMITS };
    // A long gap, so that the two solves below come within it whatever the machine's speed.
    Object.assign(BATCH_LIMITS, { gapMs: 3000 });
    try {
      const batches = collect(socket, "teams:batch");
      const batched = await solvesBy("batch");
      const solve = (one: typeof first) => sendFlag({ actor: one.actor, teamId: one.id, challengeId: challenge.id, answer: "GK{gap}", boardWaitMs: 0 });
      const start = Date.now();
      await solve(first);
      await until(async () => (await solvesBy("batch")) === batched + 1, "the first solve's batch");
      // Right after the first batch: each would begin a batch of its own at once without the gap.
      await solve(second);
      await solve(third);
      await until(async () => (await solvesBy("batch")) === batched + 3, "the next batch", 15_000);
      // It began a gap after the first one began, which began after `start`.
      expect(Date.now() - start).toBeGreaterThanOrEqual(2900);
      const hasEither = ([batch]: (typeof batches)[number]) => batch.teams.some((standing) => standing.id === second.id || standing.id === third.id);
      await until(async () => batches.some(hasEither), "the next batch's event");
      const together = batches.filter(hasEither);
      expect(together).toHaveLength(1);
      expect(together[0][0].teams.map((standing) => standing.id).sort((a, b) => a - b)).toEqual([second.id, third.id].sort((a, b) => a - b));
    } finally {
      Object.assign(BATCH_LIMITS, limits);
    }
  });

  it("go to the queue at once when their team's recompute runs elsewhere (a dynamic challenge's round, a job): no verdict waits for it", async () => {
    const challenge = await flagChallenge("GK{busy}", 30);
    const solver = await team();
    await rebuildStandings();
    const queued = await solvesBy("queued");
    await whileTeamsLocked([solver.id], async () => {
      expect(await sendFlag({ actor: solver.actor, teamId: solver.id, challengeId: challenge.id, answer: "GK{busy}" })).toMatchObject({ verdict: "correct", points: 30 });
      // Handed over, the lock still held.
      await until(async () => (await solvesBy("queued")) === queued + 1, "the team handed to the queue");
    });
    // The team is the queue's now (no worker runs in this file), its outbox row still there.
    expect(await jobsFor(solver.id)).toBeGreaterThan(0);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, solver.id))).toHaveLength(1);
  });

  it("are not waited for by the API's verdict: it answers at once, and the board moves with the batch", async () => {
    const challenge = await flagChallenge("GK{api}", 20);
    const solver = await team();
    await rebuildStandings();
    const batched = await solvesBy("batch");
    const [user] = await getDb().select().from(users).where(eq(users.id, solver.userId));
    // The batch waits for the lock held here for as long as the test holds it.
    await whileUsersLockedLong([solver.userId], async () => {
      const began = Date.now();
      const verdict = await answerFlagCall({ caller: callerOf(user), ip: "127.0.0.1", challengeId: challenge.id, fields: { answer: "GK{api}" }, begunAt: new Date() });
      expect(verdict).toMatchObject({ verdict: "correct", points: 20 });
      // Not the page's wait for the board (1 s at least), and the board has not moved yet.
      expect(Date.now() - began).toBeLessThan(1000);
      expect(await solvesBy("batch")).toBe(batched);
      expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, solver.id))).toHaveLength(1);
    });
    await until(async () => (await solvesBy("batch")) === batched + 1, "the batch");
    const [row] = await getDb().select().from(standings).where(eq(standings.teamId, solver.id));
    expect(row.totalCenti).toBe(2000);
  });

  it("go to the queue when their batch cannot take a member's statistics lock within 2 s; the verdict does not wait for that", async () => {
    const challenge = await flagChallenge("GK{held}", 30);
    const solver = await team();
    await rebuildStandings();
    const queued = await solvesBy("queued");
    await whileUsersLocked([solver.userId], async () => {
      expect(await sendFlag({ actor: solver.actor, teamId: solver.id, challengeId: challenge.id, answer: "GK{held}" })).toMatchObject({ verdict: "correct", points: 30 });
      // Answered after the board's wait (1 s), before the batch gave up on the lock (2 s), the lock still held.
      expect(await solvesBy("queued")).toBe(queued);
      await until(async () => (await solvesBy("queued")) === queued + 1, "the batch to give up", 15_000);
    });
    expect(await jobsFor(solver.id)).toBeGreaterThan(0);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, solver.id))).toHaveLength(1);
  });

  it("leave only the busy teams of a batch to the queue, and every team when a rebuild or a freeze holds the board", async () => {
    const [free, busy] = await Promise.all([team(), team()]);
    await rebuildStandings();
    await getDb().transaction((tx) => markStandingsStale(tx, [free.id, busy.id]));
    // Results come in ascending team id order.
    const ids = [free.id, busy.id].sort((a, b) => a - b);
    const results = await whileTeamsLocked([busy.id], () => recomputeTeamsInBatch(ids, null, { tryLocks: true }));
    expect(new Map(ids.map((id, index) => [id, results[index].status]))).toEqual(new Map([[free.id, "updated"], [busy.id, "busy"]]));
    expect((await getDb().select().from(standingsOutbox)).map((row) => row.teamId)).toEqual([busy.id]);

    await getDb().transaction((tx) => markStandingsStale(tx, [free.id]));
    const whileRebuilt = await whileBoardHeld(() => recomputeTeamsInBatch([free.id, busy.id], null, { tryLocks: true }));
    expect(whileRebuilt.map((result) => result.status)).toEqual(["busy", "busy"]);
    await recomputeTeamsTogether([free.id, busy.id]);
    expect(await getDb().select().from(standingsOutbox)).toEqual([]);
  });

  it("give each team the rank it has once the whole batch is placed, not the one its own placement found", async () => {
    const challenge = await flagChallenge("GK{ranks}", 50);
    const bonus = await flagChallenge("GK{bonus}", 90);
    // `low` (the lower id) is placed first, at 50 points; `high`, placed after it in the same batch at 90, passes it.
    const low = await team();
    const high = await team();
    await rebuildStandings();
    // Both solves handed to the queue (their teams busy): one batch then places the two.
    await whileTeamsLocked([low.id, high.id], async () => {
      await sendFlag({ actor: low.actor, teamId: low.id, challengeId: challenge.id, answer: "GK{ranks}" });
      await sendFlag({ actor: high.actor, teamId: high.id, challengeId: bonus.id, answer: "GK{bonus}" });
    });
    const results = await recomputeTeamsTogether([low.id, high.id]);
    const board = (await readSnapshot(getRedis())).board;
    const rankOf = (id: number) => board.find((row) => row.id === id)!.rank;
    expect(rankOf(high.id)).toBe(rankOf(low.id) - 1);
    expect(results.map((result) => (result.status === "updated" ? [result.team.id, result.team.rank] : null))).toEqual([
      [low.id, rankOf(low.id)],
      [high.id, rankOf(high.id)],
    ]);
  });
});
