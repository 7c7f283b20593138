/**
 * 1. Live path: a judge's score, through the real HTTP action (POST /dashboard/submissions), the
 * outbox, the team's recompute in that same request (or, when its team or the board is busy, a BullMQ
 * job on one of the worker processes), Redis pub/sub, to `teams:update` on every socket.io client,
 * connected across several real web processes (server.ts).
 *
 *   npm run bench:live [-- --smoke] [--clients N] [--webs N] [--workers N] [--scores N] [--rate PER_S] [--runs N] [--shards N] [--versus DIR] [--floor off]
 *
 * The floor (on unless --floor off): the same shape with no application, in the same run. As many "web
 * processes" (bench/lib/floor-web.ts: Socket.IO and the Redis adapter on a bare HTTP server), the same
 * clients in the same shard processes (each shard holds its app sockets and its floor sockets), and one
 * publisher (bench/lib/floor-publisher.ts: the worker's emitter, nothing else) emitting `teams:update` of
 * the same size at the same rate. Its span: from just before the publish to each client's delivery. Each
 * run has a floor round and an app round, back to back, their order alternating, so both meet the same
 * machine; the ratio app / floor is taken per run, then its median and range over the runs.
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
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import os from "node:os";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { waitForStandingsDrained } from "./lib/exactness.ts";
import { jobTimeline, type Stage } from "./lib/job-timeline.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { cpuWindow, loadAverage1m } from "./lib/machine-load.ts";
import { BENCH_PORT_BASE, REPO_ROOT, sleep, startFloorPublisher, startFloorWeb, startWebs, startWorkers, stopChildren } from "./lib/servers.ts";
import { nextMessage, startShards } from "./lib/shards.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

const args = benchArgs({
  clients: { type: "string" },
  webs: { type: "string" },
  workers: { type: "string" },
  scores: { type: "string" },
  rate: { type: "string" },
  shards: { type: "string" },
  versus: { type: "string" },
  floor: { type: "string" },
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
const TARGET = { p99Ms: 100, p50Ms: 20, ratioToFloor: 1.5 };
const withFloor = args.floor !== "off";

/** The one challenge's points: values up to points × 100 hundredths stay distinct across runs. */
const POINTS = 1000;

/**
 * The judge's POST, on a kept-alive connection (node:http; each web process's own), its form made beforehand
 * (as the floor's publisher makes its update before its clock starts); `send()` sends it and resolves with the
 * status. Not fetch: undici spends about 0.4 ms of its own CPU on a request before it is sent (measured here: a
 * POST to a bare node:http server, send → the server's request event, p50 1.0 ms with fetch, 0.55 ms with
 * node:http), and the span starts before the client's work, which is not the server's.
 */
const judgeAgent = new http.Agent({ keepAlive: true });
function formPost(base: string, pathname: string, cookie: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  const url = new URL(pathname, base);
  const options = { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent: judgeAgent, headers: { cookie, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } };
  return {
    send: () =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(options, (response) => {
          response.resume();
          response.once("end", () => resolve(response.statusCode ?? 0));
          response.once("error", reject);
        });
        request.once("error", reject);
        request.end(body);
      }),
  };
}

type Deliveries = { type: string; teams: number[]; at: number[]; webs: number[]; webUrls: string[]; payloadBytes: number };

const pick = ({ p50, p99 }: { p50: number; p99: number }) => ({ p50, p99 });

/** A stage of the queued scores over the runs; "—" where no score was queued (a stage of no job is NaN). */
function stageFigure(values: number[]): string {
  const measured = values.filter((value) => Number.isFinite(value));
  return measured.length === 0 ? "—" : showFigure(acrossRuns(measured), 0);
}

/** Every shard's deliveries so far in the current run. */
function collectDeliveries(children: ChildProcess[]) {
  return Promise.all(
    children.map(async (child) => {
      const reply = nextMessage<Deliveries>(child);
      child.send({ type: "collect" });
      return reply;
    }),
  );
}

/** Waits until every expected delivery has arrived (or 30 s): the delays, from `startedAt` of each team. */
async function awaitDeliveries(shards: ChildProcess[], startedAt: ReadonlyMap<number, number>, clients: number) {
  const expected = startedAt.size * clients;
  let delays: number[] = [];
  let payloadBytes = 0;
  for (const deadline = performance.now() + 30_000; ; await sleep(250)) {
    const deliveries = await collectDeliveries(shards);
    delays = deliveries.flatMap(({ teams, at }) => teams.flatMap((team, index) => (startedAt.has(team) ? [at[index] - startedAt.get(team)!] : [])));
    payloadBytes = Math.max(...deliveries.map((delivery) => delivery.payloadBytes));
    if (delays.length >= expected || performance.now() > deadline) break;
  }
  return { delays, expected, payloadBytes };
}

const world = await createBenchWorld("live");
let shards: ChildProcess[] = [];
const loadBefore = loadAverage1m();
const startedAt = new Date();
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
  // The floor's adapter key has the app's shape (`<prefix>:socket.io`) under a prefix of its own: neither hears the other.
  const floorKey = `${world.env.REDIS_PREFIX}_floor:socket.io`;
  const [webs, workers, floorWebs] = await Promise.all([
    startWebs(world.env, config.webs, BENCH_PORT_BASE + 10, rootOf),
    startWorkers(world.env, config.workers),
    // Ports of their own: the smoke runs three benchmarks at once (uploads' web is on +30, stampede's on +70);
    // not +90: 4190 is on fetch's list of blocked ports.
    withFloor ? Promise.all(Array.from({ length: config.webs }, (_, index) => startFloorWeb(world.env, BENCH_PORT_BASE + 94 + index, floorKey))) : [],
  ]);
  const publisher = withFloor ? startFloorPublisher(world.env) : null;
  const cookies = [...viewerCookies.values()];
  shards = await startShards(config.shards, cookies, webs.map((web) => web.url));
  if (withFloor) {
    // The same clients' second sockets, on the floor's webs (which read no cookie), shard by shard as above.
    await Promise.all(
      shards.map(async (shard, index) => {
        const offset = index % floorWebs.length;
        const urls = floorWebs.map((web) => web.url);
        shard.send({ type: "connect", urls: [...urls.slice(offset), ...urls.slice(0, offset)], cookies: cookies.filter((_, i) => i % shards.length === index) });
        const reply = await nextMessage<{ type: string }>(shard);
        if (reply.type !== "connected") throw new Error(`socket shard ${index} did not connect to the floor`);
      }),
    );
  }
  const pids = () => [...webs, ...floorWebs].map((web) => web.pid).concat([...workers, ...shards, ...(publisher ? [publisher] : [])].map((child) => child.pid!));

  /** One app round: every target scored through the judge's POST at the rate; the delays from each POST's start. */
  async function appRound(run: number, scored: typeof targets) {
    // A value of its own per (run, team): 1 + (run + 1) × teams + index hundredths.
    const centiOf = (index: number) => 1 + (run + 1) * targets.length + index;
    const expectations: Array<[number, number]> = scored.map((target, index) => [target.teamId, centiOf(index)]);
    for (const shard of shards) shard.send({ type: "expect", values: expectations });
    await sleep(200); // every shard holds its expectations before the first score

    // Absolute times (timeOrigin + now): the shards stamp deliveries on the same clock.
    const sentAt = new Map<number, number>();
    // The web process each team's score was posted to: its own sockets get the update without Redis.
    const postedTo = new Map<number, string>();
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
      const post = formPost(web.url, "/dashboard/submissions", judgeCookie, { submissionId: String(target.submissionId), score: (centiOf(index) / 100).toFixed(2), comment: "bench" });
      const sent = performance.timeOrigin + performance.now();
      sentAt.set(target.teamId, sent);
      postedTo.set(target.teamId, web.url);
      posts.push(
        post.send().then(
          (status) => {
            times.push(performance.timeOrigin + performance.now() - sent);
            if (status !== 302) {
              failures.push(`HTTP ${status}`);
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
    const { delays, expected, payloadBytes } = await awaitDeliveries(shards, sentAt, cookies.length);
    // The same delays split by where the client's socket is: the web process the score was posted to, or another.
    const byWeb = { own: [] as number[], other: [] as number[] };
    // --versus: the delays by the version whose web took the POST (the chain before the publish is that version's).
    const byVersion = { this: [] as number[], versus: [] as number[] };
    const versusUrls = new Set(webs.filter((_, index) => rootOf(index) !== REPO_ROOT).map((web) => web.url));
    for (const { teams, at, webs, webUrls } of await collectDeliveries(shards)) {
      teams.forEach((team, index) => {
        const started = sentAt.get(team);
        if (started === undefined) return;
        byWeb[webUrls[webs[index]] === postedTo.get(team) ? "own" : "other"].push(at[index] - started);
        byVersion[versusUrls.has(postedTo.get(team)!) ? "versus" : "this"].push(at[index] - started);
      });
    }
    return { delays, expected, payloadBytes, sentAt, postTimes, versusPostTimes, failures, runStartedAt, byWeb, byVersion };
  }

  /** One floor round: the publisher emits an update per target at the rate; the delays from each publish. */
  // The app's update as its clients received it (JSON bytes), from the latest app round: the floor sends the same size.
  let appPayloadBytes = 0;
  async function floorRound(run: number, scored: typeof targets) {
    // Values of their own, past every app run's (1 + (run + 1) × teams + index) yet of the same few digits.
    const teams: Array<[number, number]> = scored.map((target, index) => [target.teamId, 1 + (config.runs + run + 2) * targets.length + index]);
    for (const shard of shards) shard.send({ type: "expect", values: teams });
    await sleep(200);
    const reply = nextMessage<{ type: string; sentAt: number[] }>(publisher!);
    publisher!.send({ type: "publish", key: floorKey, teams, ratePerSecond: config.ratePerSecond, payloadBytes: appPayloadBytes || undefined });
    const { sentAt: sent } = await reply;
    const sentAt = new Map(teams.map(([teamId], index) => [teamId, sent[index]]));
    return { ...(await awaitDeliveries(shards, sentAt, cookies.length)), sentAt };
  }

  type RunFigures = ReturnType<typeof summarise> & {
    missing: number;
    failedPosts: number;
    postP50Ms: number;
    versusPostP50Ms: number | null;
    payloadBytes: number;
    stages: Stage & { jobs: number; fanOutP50Ms: number; fanOutP99Ms: number };
    /** The app's delays by the client's web process: the one the score was posted to, or another. */
    byWeb: { own: { p50: number; p99: number }; other: { p50: number; p99: number } };
    /** --versus: the app's delays by the version whose web took the POST. */
    byVersion: { this: { p50: number; p99: number }; versus: { p50: number; p99: number } } | null;
    floor: (ReturnType<typeof summarise> & { missing: number; payloadBytes: number }) | null;
    ratio: { p50: number; p99: number } | null;
    order: string;
    load: { app: ReturnType<ReturnType<typeof cpuWindow>["end"]>; floor: ReturnType<ReturnType<typeof cpuWindow>["end"]> | null };
  };
  const runs: RunFigures[] = [];
  // Every recorded POST of each version (--versus): the difference of their medians over all runs.
  const allPosts = { this: [] as number[], versus: [] as number[] };
  // Run -1 warms up (JIT, pools, Remix route modules, the floor's processes) on a few teams and is not recorded.
  for (let run = -1; run < config.runs; run++) {
    const scored = run < 0 ? targets.slice(0, Math.min(20, targets.length)) : targets;
    // Floor first in even runs, the app first in odd ones: neither always meets the machine as the other left it.
    const floorFirst = run % 2 === 0;
    let floor: (Awaited<ReturnType<typeof floorRound>> & { load: ReturnType<ReturnType<typeof cpuWindow>["end"]> }) | null = null;
    const measureFloor = async () => {
      if (!withFloor) return;
      const window = cpuWindow(pids);
      const result = await floorRound(run, scored);
      floor = { ...result, load: window.end() };
    };
    if (floorFirst) await measureFloor();
    const appWindow = cpuWindow(pids);
    const app = await appRound(run, scored);
    const appLoad = appWindow.end();
    // The app round's deliveries, before a floor round's "expect" resets what the shards hold.
    const appDeliveries = await collectDeliveries(shards);
    appPayloadBytes = app.payloadBytes || appPayloadBytes;
    if (!floorFirst) await measureFloor();
    if (run < 0) continue;
    const stats = summarise(app.delays);
    if (app.failures.length > 0) console.warn(`score POSTs failed: ${[...new Set(app.failures)].join(", ")}`);
    const timeline = await jobTimeline(app.sentAt, app.runStartedAt - 1000);
    // Job finished (event published) → each client has it: Redis pub/sub, the web processes, the sockets.
    const fanOut = summarise(
      appDeliveries.flatMap(({ teams, at }) => teams.flatMap((team, index) => (timeline.jobEndAt.has(team) ? [at[index] - timeline.jobEndAt.get(team)!] : []))),
    );
    const { jobEndAt: _jobEndAt, ...stages } = timeline;
    allPosts.this.push(...app.postTimes);
    allPosts.versus.push(...app.versusPostTimes);
    const floorFigures = floor as (Awaited<ReturnType<typeof floorRound>> & { load: ReturnType<ReturnType<typeof cpuWindow>["end"]> }) | null;
    const floorStats = floorFigures ? { ...summarise(floorFigures.delays), missing: floorFigures.expected - floorFigures.delays.length, payloadBytes: floorFigures.payloadBytes } : null;
    runs.push({
      ...stats,
      missing: app.expected - app.delays.length,
      failedPosts: app.failures.length,
      postP50Ms: summarise(app.postTimes).p50,
      versusPostP50Ms: versus ? summarise(app.versusPostTimes).p50 : null,
      byVersion: versus ? { this: pick(summarise(app.byVersion.this)), versus: pick(summarise(app.byVersion.versus)) } : null,
      payloadBytes: app.payloadBytes,
      stages: { ...stages, fanOutP50Ms: fanOut.p50, fanOutP99Ms: fanOut.p99 },
      byWeb: { own: pick(summarise(app.byWeb.own)), other: pick(summarise(app.byWeb.other)) },
      floor: floorStats,
      ratio: floorStats ? { p50: stats.p50 / floorStats.p50, p99: stats.p99 / floorStats.p99 } : null,
      order: floorFigures ? (floorFirst ? "floor, app" : "app, floor") : "app",
      load: { app: appLoad, floor: floorFigures?.load ?? null },
    });
    const ownWeb = summarise(app.byWeb.own);
    const otherWeb = summarise(app.byWeb.other);
    console.info(
      `run ${run + 1}/${config.runs}: app p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms (the POST's web p50 ${ownWeb.p50.toFixed(1)}, p99 ${ownWeb.p99.toFixed(1)}; the other p50 ${otherWeb.p50.toFixed(1)}, p99 ${otherWeb.p99.toFixed(1)}), missing ${app.expected - app.delays.length}` +
        (floorStats ? `; floor p50 ${floorStats.p50.toFixed(1)} ms, p99 ${floorStats.p99.toFixed(1)} ms, missing ${floorStats.missing}; ratio p50 ${(stats.p50 / floorStats.p50).toFixed(2)}, p99 ${(stats.p99 / floorStats.p99).toFixed(2)}` : "") +
        (versus ? `; POSTs to this version p50 ${summarise(app.byVersion.this).p50.toFixed(1)} ms, p99 ${summarise(app.byVersion.this).p99.toFixed(1)}, to the other p50 ${summarise(app.byVersion.versus).p50.toFixed(1)}, p99 ${summarise(app.byVersion.versus).p99.toFixed(1)}` : "") +
        `; load ${appLoad.loadAverage1m}, CPUs busy ${appLoad.busyPct} % (bench ${appLoad.benchPct} %, other ${appLoad.otherPct} %)`,
    );
  }

  const p50 = acrossRuns(runs.map((run) => run.p50));
  const p99 = acrossRuns(runs.map((run) => run.p99));
  const max = acrossRuns(runs.map((run) => run.max));
  const missing = runs.reduce((sum, run) => sum + run.missing, 0);
  const failedPosts = runs.reduce((sum, run) => sum + run.failedPosts, 0);
  const floorMissing = runs.reduce((sum, run) => sum + (run.floor?.missing ?? 0), 0);
  const floorP50 = withFloor ? acrossRuns(runs.map((run) => run.floor!.p50)) : null;
  const floorP99 = withFloor ? acrossRuns(runs.map((run) => run.floor!.p99)) : null;
  const ratioP50 = withFloor ? acrossRuns(runs.map((run) => run.ratio!.p50)) : null;
  const ratioP99 = withFloor ? acrossRuns(runs.map((run) => run.ratio!.p99)) : null;
  const loads = runs.flatMap((run) => [run.load.app, ...(run.load.floor ? [run.load.floor] : [])]);
  const conditions = {
    loadBefore,
    loadDuring: acrossRuns(loads.map((load) => load.loadAverage1m)),
    busyPct: acrossRuns(loads.map((load) => load.busyPct)),
    benchPct: acrossRuns(loads.map((load) => load.benchPct)),
    otherPct: acrossRuns(loads.map((load) => load.otherPct)),
    // Where the load generator ran: the judge's POSTs from this process, the clients in the shard processes.
    loadGenerator: `this machine: the judge's POSTs from the bench process, the ${config.clients} clients in ${config.shards} shard process(es)`,
  };
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
        ...(withFloor
          ? {
              "floor p50": showFigure(floorP50!),
              "floor p99": showFigure(floorP99!),
              "p50 ÷ floor": showFigure(ratioP50!, 2),
              "p99 ÷ floor": showFigure(ratioP99!, 2),
            }
          : {}),
        "POST p50": showFigure(acrossRuns(runs.map((run) => run.postP50Ms))),
        ...(versus
          ? {
              "versus POST p50": showFigure(acrossRuns(runs.map((run) => run.versusPostP50Ms!))),
              "this − versus": showFigure(acrossRuns(runs.map((run) => run.postP50Ms - run.versusPostP50Ms!))),
              // Pooled: every POST of the runs, per version (a steadier figure than the runs' own medians).
              "this − versus, all POSTs": (summarise(allPosts.this).p50 - summarise(allPosts.versus).p50).toFixed(2),
              // Deliveries of the scores each version's web took: the chain before the publish is that version's.
              "this p50": showFigure(acrossRuns(runs.map((run) => run.byVersion!.this.p50))),
              "versus p50": showFigure(acrossRuns(runs.map((run) => run.byVersion!.versus.p50))),
              "this p99": showFigure(acrossRuns(runs.map((run) => run.byVersion!.this.p99))),
              "versus p99": showFigure(acrossRuns(runs.map((run) => run.byVersion!.versus.p99))),
            }
          : {}),
        // The scores whose team went through the queue (a job: its team or the board was busy; none expected):
        // the others were recomputed and published inside their POST, whose p50 is then the whole chain's.
        "queued": showFigure(acrossRuns(runs.map((run) => run.stages.jobs)), 0),
        // Medians of each stage of the queued ones (BullMQ timestamps, ms resolution).
        "→enqueued": stageFigure(runs.map((run) => run.stages.requestToEnqueueMs)),
        "queue wait": stageFigure(runs.map((run) => run.stages.queueWaitMs)),
        job: stageFigure(runs.map((run) => run.stages.jobMs)),
        "job→client p50": stageFigure(runs.map((run) => run.stages.fanOutP50Ms)),
        "job→client p99": stageFigure(runs.map((run) => run.stages.fanOutP99Ms)),
        missing: missing + floorMissing,
        "failed POSTs": failedPosts,
        "p50 ≤ 20": targetVerdict(p50.median <= TARGET.p50Ms),
        "p99 ≤ 100": targetVerdict(p99.median <= TARGET.p99Ms),
        ...(withFloor
          ? { "÷ floor ≤ 1.5": targetVerdict(ratioP50!.median <= TARGET.ratioToFloor && ratioP99!.median <= TARGET.ratioToFloor) }
          : {}),
      },
    ],
    {
      config: { ...config, versus, floor: withFloor },
      target: TARGET,
      conditions,
      runs,
      summary: { p50, p99, max, missing, failedPosts, floor: withFloor ? { p50: floorP50, p99: floorP99, missing: floorMissing } : null, ratio: withFloor ? { p50: ratioP50, p99: ratioP99 } : null },
    },
    args.out,
  );
  // The same figures as rows to paste into docs/PERFORMANCE.md and a dated section of docs/performance-log.md, with
  // the run's conditions.
  const cell = (figure: ReturnType<typeof acrossRuns>, digits = 1) => showFigure(figure, digits);
  const bytes = `${Math.max(...runs.map((run) => run.payloadBytes))} B app / ${Math.max(...runs.map((run) => run.floor?.payloadBytes ?? 0))} B floor`;
  console.info(
    [
      "",
      "| | p50 | p99 | max |",
      "|---|---|---|---|",
      ...(withFloor ? [`| floor: publish → client | ${cell(floorP50!)} ms | ${cell(floorP99!)} ms | ${cell(acrossRuns(runs.map((run) => run.floor!.max)))} ms |`] : []),
      `| app: judge's POST → client | ${cell(p50)} ms | ${cell(p99)} ms | ${cell(max)} ms |`,
      `| app: judge's POST (the recompute and the publish inside it) | ${cell(acrossRuns(runs.map((run) => run.postP50Ms)))} ms | | |`,
      ...(runs.some((run) => run.stages.jobs > 0)
        ? [`| app, the queued ones: job end → client | ${stageFigure(runs.map((run) => run.stages.fanOutP50Ms))} ms | ${stageFigure(runs.map((run) => run.stages.fanOutP99Ms))} ms | |`]
        : []),
      ...(withFloor ? [`| **app ÷ floor** (per run) | **${cell(ratioP50!, 2)}** | **${cell(ratioP99!, 2)}** | |`] : []),
      "",
      `${config.clients} clients on ${config.webs} webs, ${config.workers} workers, ${targets.length} scores a round at ${config.ratePerSecond}/s, ${config.runs} runs` +
        `${withFloor ? " (each a floor round and an app round, back to back, order alternating)" : ""}; payload ${bytes}; missing ${missing + floorMissing}, failed POSTs ${failedPosts}.`,
      `Conditions: ${startedAt.toISOString().slice(0, 16).replace("T", " ")}–${new Date().toISOString().slice(11, 16)} UTC, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}; load average (1 min) ${loadBefore} before, ${cell(conditions.loadDuring, 2)} during;` +
        ` CPUs busy ${cell(conditions.busyPct, 0)} % (the bench's processes ${cell(conditions.benchPct, 0)} %, everything else incl. Postgres and Redis ${cell(conditions.otherPct, 0)} %); load generator: ${conditions.loadGenerator}.`,
    ].join("\n"),
  );
  if (missing > 0 || failedPosts > 0 || floorMissing > 0) throw new BenchFailure(`${missing} updates of saved scores missing, ${failedPosts} score POSTs failed, ${floorMissing} floor updates missing`);
} finally {
  for (const shard of shards) shard.disconnect();
  judgeAgent.destroy();
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
