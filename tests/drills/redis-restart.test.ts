/**
 * Drill: Redis dies (kill -9, no persistence: it comes back empty — queues, standings snapshot, pub/sub
 * subscriptions, rate limits all gone) and restarts while browsers are connected to two real web
 * processes (server.ts) and two judges keep scoring through them, with two workers running.
 * Scores go to Postgres and are never refused; the live channel works again within 5 s of Redis
 * returning; the outbox sweep catches the standings up; every client ends with every team's final
 * total; and the standings equal a full rebuild, in Postgres and in the Redis snapshot.
 * The Redis is the drill's own (free port): the shared one is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standings, submissionScores } from "../../db/schema.ts";
import { getScoreboard } from "../../app/modules/standings/scoreboard.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter, getEmitter } from "../../app/infrastructure/emitter.server.ts";
import { rooms } from "../../app/modules/realtime/rooms.ts";
import { DisposableRedis } from "../support/disposable-redis.ts";
import { makeTeam } from "../support/fixtures.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { expectStandingsMatchRebuild, waitForEmptyOutbox } from "../support/standings.ts";
import { countRows, FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { login, postForm } from "./support/http.ts";
import { LiveClient } from "./support/live-client.ts";
import { fullDrills, recordDrill } from "./support/report.ts";
import { SteadyWriter } from "./support/steady-writer.ts";

const OUTAGE_MS = fullDrills ? 10_000 : 3_000;
const LIVE_AGAIN_LIMIT_MS = 5_000;

let redis: DisposableRedis;
const clients: LiveClient[] = [];

beforeAll(async () => {
  redis = await DisposableRedis.start();
  // Before anything reads the configuration: this file's app code and child processes use this Redis only.
  process.env.REDIS_URL = redis.url;
});

afterAll(async () => {
  for (const client of clients) client.close();
  stopAll();
  await closeEmitter();
  await redis?.destroy();
});

describe("drill: Redis restart", () => {
  it("keeps every score, brings the live channel back within 5 s, and catches the standings up", async () => {
    const teamCount = fullDrills ? 12 : 6;
    const event = await seedDrillEvent({ teams: teamCount, judges: 2, challenges: 4, submittedChallenges: 4 });
    // A team nobody scores: after Redis comes back empty, no job will ever place it again by itself.
    await makeTeam();
    const [web1, web2] = await Promise.all([startWebServer(), startWebServer(), startWorker(), startWorker()]).then(([a, b]) => [a.url, b.url]);
    const webs = [web1, web2];
    const [judge1, judge2] = await Promise.all(event.judges.map((judge, index) => login(webs[index % 2], judge.name, FIXTURE_PASSWORD)));
    const viewers = [...event.teams.map(({ participant }) => participant), event.admin];
    for (const [index, viewer] of viewers.entries()) {
      const cookie = await login(webs[index % 2], viewer.name, FIXTURE_PASSWORD);
      const readBoard = async () => (await getScoreboard({ id: viewer.id, role: viewer.role, teamId: viewer.teamId })).teams;
      clients.push(await LiveClient.connect(`${viewer.role}@web${(index % 2) + 1}`, webs[index % 2], cookie, readBoard));
    }
    const scoresBefore = await countRows(submissionScores);

    // Each judge scores every submission (distinct scores, so totals differ), through its own web process.
    const judgeWriter = (cookie: string, web: string, offset: number) =>
      new SteadyWriter(event.submissions, async (submission) => {
        const started = Date.now();
        const result = await postForm(`${web}/dashboard/submissions`, cookie, {
          submissionId: String(submission.id),
          score: String((submission.id * 7 + offset) % submission.points),
        });
        scoreTimes.push({ at: started, ms: Date.now() - started });
        return result.status === 302 ? { kind: "saved" } : { kind: "unexpected", detail: `HTTP ${result.status}` };
      }, fullDrills ? 300 : 120).start();
    const scoreTimes: Array<{ at: number; ms: number }> = [];
    const writers = [judgeWriter(judge1, web1, 3), judgeWriter(judge2, web2, 11)];

    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.kill();
    const downAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await redis.start();
    const backAt = Date.now();

    // Probe the live channel: a notification every 100 ms through a fresh connection, until every client has one.
    const probing = setInterval(() => {
      getEmitter().to([rooms.participants, rooms.judges, rooms.admins]).emit("notification", { message: `drill probe ${Date.now()}`, timestamp: new Date().toISOString() });
    }, 100);
    const deadline = backAt + 20_000;
    while (clients.some((client) => client.firstProbeAfter(backAt) === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clearInterval(probing);
    const liveAgainMs = clients.map((client) => (client.firstProbeAfter(backAt) ?? Number.POSITIVE_INFINITY) - backAt);

    await Promise.all(writers.map((writer) => writer.finish(60_000)));
    await waitForEmptyOutbox(30_000);
    const caughtUpMs = Date.now() - backAt;
    // Let the last published updates arrive.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const expected = await expectStandingsMatchRebuild();
    const scoresAfter = await countRows(submissionScores);
    const finalTotals = new Map((await getDb().select({ teamId: standings.teamId, totalCenti: standings.totalCenti }).from(standings)).map((row) => [row.teamId, row.totalCenti]));
    const staleViews = clients.flatMap((client) =>
      event.teams
        .map(({ team }) => ({ team: team.id, shown: client.standings.get(team.id)?.totalScore, actual: (finalTotals.get(team.id) ?? 0) / 100 }))
        .filter((view) => view.shown !== view.actual)
        .map((view) => `${client.label} shows team ${view.team} at ${view.shown}, actual ${view.actual}`),
    );
    const duringOutage = scoreTimes.filter((time) => time.at >= downAt && time.at < backAt);
    const saved = writers.reduce((sum, writer) => sum + writer.saved.length, 0);

    recordDrill({
      drill: "redis-restart",
      faults: 1,
      fault: `Redis killed (-9) for ${OUTAGE_MS / 1000} s and restarted empty; ${clients.length} sockets on 2 web processes (server.ts), 2 judges scoring, 2 workers`,
      observations: [
        `${duringOutage.length} scores posted while Redis was down, all saved (slowest ${Math.max(0, ...duringOutage.map((time) => time.ms))} ms)`,
        `socket drops: ${clients.reduce((sum, client) => sum + client.drops.length, 0)}; every client received live events again after Redis returned`,
        `standings caught up (the first job after the restart rebuilt the lost snapshot; outbox drained); Postgres and Redis equal a full rebuild (${expected.length} teams)`,
        `web processes told their ${clients.length} sockets to re-read (resync): ${clients.filter((client) => client.resyncs > 0).length} re-read`,
        `every client's last update per team equals the final total: ${staleViews.length === 0 ? "yes" : `no (${staleViews.length} stale)`}`,
      ],
      items: [{ what: "judge scores (rows)", before: scoresBefore, added: saved, after: scoresAfter }],
      timings: [
        { what: "live events reach every socket after Redis is back (slowest client)", ms: Math.max(...liveAgainMs), limitMs: LIVE_AGAIN_LIMIT_MS },
        { what: "outbox drained after Redis is back", ms: caughtUpMs },
      ],
    });

    expect(writers.flatMap((writer) => writer.unexpected)).toEqual([]);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(saved).toBe(event.submissions.length * 2);
    expect(scoresAfter).toBe(scoresBefore + saved);
    expect(Math.max(...liveAgainMs)).toBeLessThan(LIVE_AGAIN_LIMIT_MS);
    expect(staleViews).toEqual([]);
  });
});
