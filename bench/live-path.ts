/**
 * 1. Live path: a judge's score, through the real HTTP action (POST /dashboard/submissions), the
 * outbox, a BullMQ job on one of the worker processes, Redis pub/sub, to `teams:update` on every
 * socket.io client, connected across several real web processes (server.ts).
 *
 *   npm run bench:live [-- --smoke] [--clients N] [--webs N] [--workers N] [--scores N] [--rate PER_S] [--runs N] [--shards N] [--versus DIR]
 *
 * --versus DIR: another checkout of this repository (a git worktree at another commit, built): every other
 * web process runs from it, and scores alternate between the two versions' webs, so a change's cost on the
 * scoring request is measured side by side, under the same load at the same moments ("POST p50" this
 * checkout, "versus" the other), instead of in two runs minutes apart.
 *
 * The span measured, per (score, client): from just before the judge's POST is sent to the moment
 * that client's socket delivers the update carrying that score. Every score targets a different
 * team (one submission each) with a value of its own, so no two scores can coalesce into one update:
 * a client that lacks a (team, value) pair truly missed it. The clients live in a few child processes
 * (bench/lib/socket-shard.ts), so that one client process's event loop does not inflate the delays.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { once } from "node:events";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { waitForStandingsDrained } from "./lib/exactness.ts";
import { jobTimeline, type Stage } from "./lib/job-timeline.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, REPO_ROOT, sleep, startWebs, startWorkers, stopChildren } from "./lib/servers.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

const args = benchArgs({
  clients: { type: "string" },
  webs: { type: "string" },
  workers: { type: "string" },
  scores: { type: "string" },
  rate: { type: "string" },
  shards: { type: "string" },
  versus: { type: "string" },
});
const profile = args.smoke
  ? { clients: 40, webs: 2, workers: 2, scores: 20, rate: 40, runs: 1, shards: 1 }
  : { clients: 1000, webs: 2, workers: 2, scores: 250, rate: 10, runs: 3, shards: 4 };
const config = {
  clients: numberOption(args.clients, profile.clients),
  webs: numberOption(args.webs, profile.webs),
  workers: numberOption(args.workers, profile.workers),
  scores: numberOption(args.scores, profile.scores),
  ratePerSecond: numberOption(args.rate, profile.rate),
  runs: numberOption(args.runs, profile.runs),
  shards: numberOption(args.shards, profile.shards),
};
const TARGET = { p99Ms: 100, p50Ms: 20 };
/** The one challenge's points: values up to points × 100 hundredths stay distinct across runs. */
const POINTS = 1000;

/** The shard's next message; a shard that exits first (a socket refused, a crash) fails the run instead of hanging it. */
async function nextMessage<T>(child: ChildProcess): Promise<T> {
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`a socket shard exited (code ${code}) before it answered`);
  });
  const [message] = (await Promise.race([once(child, "message"), exited])) as [T];
  return message;
}

/** Client processes (bench/lib/socket-shard.ts), each with an equal share of the sockets. */
async function startShards(count: number, cookies: string[], urls: string[]): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, shard) => {
      const child = fork(fileURLToPath(new URL("./lib/socket-shard.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"] });
      // Client i goes to web i mod webs, as without shards: spread evenly over the web processes.
      const mine = cookies.filter((_, index) => index % count === shard);
      const offset = shard % urls.length;
      child.send({ type: "connect", urls: [...urls.slice(offset), ...urls.slice(0, offset)], cookies: mine });
      const reply = await nextMessage<{ type: string }>(child);
      if (reply.type !== "connected") throw new Error(`socket shard ${shard} did not connect`);
      return child;
    }),
  );
}

/** Every shard's deliveries so far in the current run. */
function collectDeliveries(children: ChildProcess[]) {
  return Promise.all(
    children.map(async (child) => {
      const reply = nextMessage<{ type: string; teams: number[]; at: number[] }>(child);
      child.send({ type: "collect" });
      return reply;
    }),
  );
}

const world = await createBenchWorld("live");
let shards: ChildProcess[] = [];
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
  const judgeCookie = (await cookiesFor([seeded.judgeIds[0]])).get(seeded.judgeIds[0])!;
  const viewerCookies = await cookiesFor(seeded.participants.slice(0, config.clients).map((user) => user.id));

  const versus = args.versus ? path.resolve(args.versus) : null;
  if (versus && config.webs % 2 !== 0) throw new Error("--versus needs an even number of webs (half run each version)");
  const rootOf = (index: number) => (versus && index % 2 === 1 ? versus : REPO_ROOT);
  const [webs] = await Promise.all([startWebs(world.env, config.webs, BENCH_PORT_BASE + 10, rootOf), startWorkers(world.env, config.workers)]);
  const cookies = [...viewerCookies.values()];
  shards = await startShards(config.shards, cookies, webs.map((web) => web.url));

  const runs: Array<
    ReturnType<typeof summarise> & { missing: number; failedPosts: number; postP50Ms: number; versusPostP50Ms: number | null; stages: Stage & { jobs: number; fanOutP50Ms: number } }
  > = [];
  // Every recorded POST of each version (--versus): the difference of their medians over all runs.
  const allPosts = { this: [] as number[], versus: [] as number[] };
  // Run -1 warms up (JIT, pools, Remix route modules) on a few teams and is not recorded.
  for (let run = -1; run < config.runs; run++) {
    const scored = run < 0 ? targets.slice(0, Math.min(20, targets.length)) : targets;
    // A value of its own per (run, team): 1 + (run + 1) × teams + index hundredths.
    const centiOf = (index: number) => 1 + (run + 1) * targets.length + index;
    const expectations: Array<[number, number]> = scored.map((target, index) => [target.teamId, centiOf(index)]);
    for (const shard of shards) shard.send({ type: "expect", values: expectations });
    await sleep(200); // every shard holds its expectations before the first score

    // Absolute times (timeOrigin + now): the shards stamp deliveries on the same clock.
    const sentAt = new Map<number, number>();
    const postTimes: number[] = [];
    const versusPostTimes: number[] = [];
    const failures: string[] = [];
    const posts: Array<Promise<void>> = [];
    const intervalMs = 1000 / config.ratePerSecond;
    const start = performance.now();
    const runStartedAt = performance.timeOrigin + start;
    for (const [index, target] of scored.entries()) {
      // Steady rate: each score at its slot, however long the previous POST takes.
      const wait = start + index * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      const webIndex = index % webs.length;
      const web = webs[webIndex];
      const times = rootOf(webIndex) === REPO_ROOT ? postTimes : versusPostTimes;
      const sent = performance.timeOrigin + performance.now();
      sentAt.set(target.teamId, sent);
      posts.push(
        fetch(`${web.url}/dashboard/submissions`, {
          method: "POST",
          headers: { cookie: judgeCookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ submissionId: String(target.submissionId), score: (centiOf(index) / 100).toFixed(2), comment: "bench" }),
          redirect: "manual",
        }).then(
          async (response) => {
            await response.arrayBuffer();
            times.push(performance.timeOrigin + performance.now() - sent);
            if (response.status !== 302) {
              failures.push(`HTTP ${response.status}`);
              sentAt.delete(target.teamId); // never saved: no client can be missing it
            }
          },
          (error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
            sentAt.delete(target.teamId);
          },
        ),
      );
    }
    await Promise.all(posts);
    // Every saved score must reach every client: wait for the workers, then for the last deliveries.
    await waitForStandingsDrained(120_000);
    const expected = sentAt.size * cookies.length;
    let delays: number[] = [];
    for (const deadline = performance.now() + 30_000; ; await sleep(250)) {
      const deliveries = await collectDeliveries(shards);
      delays = deliveries.flatMap(({ teams, at }) => teams.flatMap((team, index) => (sentAt.has(team) ? [at[index] - sentAt.get(team)!] : [])));
      if (delays.length >= expected || performance.now() > deadline) break;
    }
    const stats = summarise(delays);
    if (run < 0) continue;
    if (failures.length > 0) console.warn(`score POSTs failed: ${[...new Set(failures)].join(", ")}`);
    const timeline = await jobTimeline(sentAt, runStartedAt - 1000);
    // Job finished (event published) → each client has it: Redis pub/sub, the web processes, the sockets.
    const lastDeliveries = await collectDeliveries(shards);
    const fanOut = lastDeliveries.flatMap(({ teams, at }) => teams.flatMap((team, index) => (timeline.jobEndAt.has(team) ? [at[index] - timeline.jobEndAt.get(team)!] : [])));
    const { jobEndAt: _jobEndAt, ...stages } = timeline;
    allPosts.this.push(...postTimes);
    allPosts.versus.push(...versusPostTimes);
    runs.push({ ...stats, missing: expected - delays.length, failedPosts: failures.length, postP50Ms: summarise(postTimes).p50, versusPostP50Ms: versus ? summarise(versusPostTimes).p50 : null, stages: { ...stages, fanOutP50Ms: summarise(fanOut).p50 } });
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
        ...(versus
          ? {
              "versus POST p50": showFigure(acrossRuns(runs.map((run) => run.versusPostP50Ms!))),
              "this − versus": showFigure(acrossRuns(runs.map((run) => run.postP50Ms - run.versusPostP50Ms!))),
              // Pooled: every POST of the runs, per version (a steadier figure than the runs' own medians).
              "this − versus, all POSTs": (summarise(allPosts.this).p50 - summarise(allPosts.versus).p50).toFixed(2),
            }
          : {}),
        // Medians of each stage (BullMQ timestamps, ms resolution): where the p50 goes.
        "→enqueued": showFigure(acrossRuns(runs.map((run) => run.stages.requestToEnqueueMs)), 0),
        "queue wait": showFigure(acrossRuns(runs.map((run) => run.stages.queueWaitMs)), 0),
        job: showFigure(acrossRuns(runs.map((run) => run.stages.jobMs)), 0),
        "job→client": showFigure(acrossRuns(runs.map((run) => run.stages.fanOutP50Ms)), 0),
        missing,
        "failed POSTs": failedPosts,
        "p50 ≤ 20": targetVerdict(p50.median <= TARGET.p50Ms),
        "p99 ≤ 100": targetVerdict(p99.median <= TARGET.p99Ms),
      },
    ],
    { config: { ...config, versus }, target: TARGET, runs, summary: { p50, p99, max, missing, failedPosts } },
    args.out,
  );
  if (missing > 0 || failedPosts > 0) throw new BenchFailure(`${missing} updates of saved scores missing, ${failedPosts} score POSTs failed`);
} finally {
  for (const shard of shards) shard.disconnect();
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
