/**
 * 1. Live path: a judge's score, through the real HTTP action (POST /dashboard/submissions), the
 * outbox, a BullMQ job on one of the worker processes, Redis pub/sub, to `teams:update` on every
 * socket.io client, connected across several real web processes (server.ts).
 *
 *   npm run bench:live [-- --smoke] [--clients N] [--webs N] [--workers N] [--scores N] [--rate PER_S] [--runs N]
 *
 * The span measured, per (score, client): from just before the judge's POST is sent to the moment
 * that client's socket delivers the update carrying that score. Every score targets a different
 * team (one submission each) with a value of its own, so no two scores can coalesce into one update:
 * a client that lacks a (team, value) pair truly missed it.
 */
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../app/utils/db.server.ts";
import { closeEmitter } from "../app/utils/emitter.server.ts";
import { closeQueues } from "../app/utils/queue.server.ts";
import { closeRedis } from "../app/utils/redis.server.ts";
import { connectSocket, type TestSocket } from "../tests/support/processes.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { waitForStandingsDrained } from "./lib/exactness.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, sleep, startWebs, startWorkers, stopChildren } from "./lib/servers.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

const args = benchArgs({
  clients: { type: "string" },
  webs: { type: "string" },
  workers: { type: "string" },
  scores: { type: "string" },
  rate: { type: "string" },
});
const profile = args.smoke
  ? { clients: 40, webs: 2, workers: 2, scores: 20, rate: 40, runs: 1 }
  : { clients: 1000, webs: 2, workers: 2, scores: 250, rate: 20, runs: 3 };
const config = {
  clients: numberOption(args.clients, profile.clients),
  webs: numberOption(args.webs, profile.webs),
  workers: numberOption(args.workers, profile.workers),
  scores: numberOption(args.scores, profile.scores),
  ratePerSecond: numberOption(args.rate, profile.rate),
  runs: numberOption(args.runs, profile.runs),
};
const TARGET = { p99Ms: 100, p50Ms: 20 };
/** The one challenge's points: values up to points × 100 hundredths stay distinct across runs. */
const POINTS = 1000;

const world = await createBenchWorld("live");
const sockets: TestSocket[] = [];
try {
  // Enough teams that each score of a run has its own; enough members that each client is a user.
  const seeded = await seedWorld({
    teams: config.scores,
    membersPerTeam: Math.ceil(config.clients / config.scores),
    challenges: 1,
    judges: 1,
    submissionsPerTeam: 0,
  });
  const challengeId = seeded.challenges[0].id;
  await getDb().execute(sql`update challenges set points = ${POINTS}, wave = 1 where id = ${challengeId}`);
  const submissionRows = await getDb().execute<{ id: number; team_id: number }>(sql`
    insert into submissions (team_id, challenge_id, user_id, text)
    select t.id, ${challengeId}, (select min(u.id) from users u where u.team_id = t.id), 'an answer' from teams t order by t.id
    returning id, team_id`);
  const targets = submissionRows.map((row) => ({ submissionId: Number(row.id), teamId: Number(row.team_id) }));
  const teamIndex = new Map(targets.map((target, index) => [target.teamId, index]));
  const judgeCookie = (await cookiesFor([seeded.judgeIds[0]])).get(seeded.judgeIds[0])!;
  const viewerCookies = await cookiesFor(seeded.participants.slice(0, config.clients).map((user) => user.id));

  const [webs] = await Promise.all([startWebs(world.env, config.webs, BENCH_PORT_BASE + 10), startWorkers(world.env, config.workers)]);
  const cookies = [...viewerCookies.values()];
  for (let index = 0; index < config.clients; index += 50) {
    const batch = cookies.slice(index, index + 50);
    sockets.push(...(await Promise.all(batch.map((cookie, offset) => connectSocket(webs[(index + offset) % webs.length].url, cookie)))));
  }

  // Per run: which value each team's score carries, when it was sent, and who has seen it.
  let expectedCenti = new Int32Array(targets.length);
  let sentAt = new Float64Array(targets.length);
  let seen = sockets.map(() => new Uint8Array(targets.length));
  let delays: number[] = [];
  sockets.forEach((socket, clientIndex) => {
    socket.on("teams:update", (team) => {
      const at = performance.now();
      const index = teamIndex.get(team.id);
      if (index === undefined || seen[clientIndex][index]) return;
      if (Math.round(team.totalScore * 100) !== expectedCenti[index] || sentAt[index] === 0) return;
      seen[clientIndex][index] = 1;
      delays.push(at - sentAt[index]);
    });
  });

  const runs: Array<ReturnType<typeof summarise> & { missing: number; failedPosts: number; postP50Ms: number }> = [];
  // Run -1 warms up (JIT, pools, Remix route modules) on a few teams and is not recorded.
  for (let run = -1; run < config.runs; run++) {
    const scored = run < 0 ? targets.slice(0, Math.min(20, targets.length)) : targets;
    expectedCenti = new Int32Array(targets.length);
    sentAt = new Float64Array(targets.length);
    seen = sockets.map(() => new Uint8Array(targets.length));
    delays = [];
    const postTimes: number[] = [];
    let failedPosts = 0;
    const posts: Array<Promise<void>> = [];
    const intervalMs = 1000 / config.ratePerSecond;
    const start = performance.now();
    for (const [index, target] of scored.entries()) {
      // Steady rate: each score at its slot, however long the previous POST takes.
      const wait = start + index * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      // A value of its own per (run, team): 1 + (run + 1) × teams + index hundredths.
      const centi = 1 + (run + 1) * targets.length + index;
      expectedCenti[index] = centi;
      const web = webs[index % webs.length];
      sentAt[index] = performance.now();
      posts.push(
        fetch(`${web.url}/dashboard/submissions`, {
          method: "POST",
          headers: { cookie: judgeCookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ submissionId: String(target.submissionId), score: (centi / 100).toFixed(2), comment: "bench" }),
          redirect: "manual",
        }).then(
          async (response) => {
            await response.arrayBuffer();
            postTimes.push(performance.now() - sentAt[index]);
            if (response.status !== 302) failedPosts++;
          },
          () => void failedPosts++,
        ),
      );
    }
    await Promise.all(posts);
    const expected = scored.length * sockets.length;
    const deadline = performance.now() + 10_000;
    while (delays.length < expected && performance.now() < deadline) await sleep(50);
    await waitForStandingsDrained();
    const stats = summarise(delays);
    if (run < 0) continue;
    runs.push({ ...stats, missing: expected - delays.length, failedPosts, postP50Ms: summarise(postTimes).p50 });
    console.info(`run ${run + 1}/${config.runs}: p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms, missing ${expected - delays.length}`);
  }

  const p50 = acrossRuns(runs.map((run) => run.p50));
  const p99 = acrossRuns(runs.map((run) => run.p99));
  const max = acrossRuns(runs.map((run) => run.max));
  const missing = runs.reduce((sum, run) => sum + run.missing, 0);
  const failedPosts = runs.reduce((sum, run) => sum + run.failedPosts, 0);
  report(
    "live-path",
    args.smoke,
    `1. Live path: judge POST → teams:update on every client (ms; median over ${config.runs} run(s), range in brackets)`,
    [
      {
        clients: config.clients,
        webs: config.webs,
        workers: config.workers,
        "scores/run": targets.length,
        "rate/s": config.ratePerSecond,
        p50: showFigure(p50),
        p99: showFigure(p99),
        max: showFigure(max),
        "POST p50": showFigure(acrossRuns(runs.map((run) => run.postP50Ms))),
        missing,
        "failed POSTs": failedPosts,
        "p50 ≤ 20": targetVerdict(p50.median <= TARGET.p50Ms),
        "p99 ≤ 100": targetVerdict(p99.median <= TARGET.p99Ms),
      },
    ],
    { config, target: TARGET, runs, summary: { p50, p99, max, missing, failedPosts } },
    args.out,
  );
  if (missing > 0 || failedPosts > 0) throw new BenchFailure(`${missing} updates missing, ${failedPosts} score POSTs failed`);
} finally {
  for (const socket of sockets) socket.disconnect();
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
