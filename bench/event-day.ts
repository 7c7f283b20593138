/**
 * 5. Event day: participants browsing and submitting, judges scoring, an admin posting
 * announcements and notifications, for a minute, against 2 real web processes and 2 workers, with
 * every participant's socket open. Reports p50/p99 per page, errors (must be 0), live events
 * delivered, and whether the standings are exact once the workers have caught up.
 *
 * The first `--warm-up` seconds (15; the smoke: none) run the same load unrecorded: on an event day the processes
 * have been serving for hours, so a minute measured right after their start would measure their cold start
 * (code not yet optimised, pools not yet open). Those seconds are reported apart, never dropped silently,
 * and their errors count.
 *
 *   npm run bench:event-day [-- --smoke] [--participants N] [--judges N] [--seconds N] [--warm-up N] [--root DIR]
 *                           [--versus DIR [--rounds N]] [--code-runs PY,CPP [--code-tests N]]
 *
 * --root DIR: the web and worker processes run from another checkout of this repository (built, with its own
 * node_modules). --versus DIR: before and after in one run: the whole event day again and again, its servers
 * alternately from this checkout and from DIR (bench/lib/alternate.ts), `--rounds` pairs (2 unless told), each
 * on a world of its own seeded alike; then each version's p50, p99 and web CPU a request served, run by run,
 * and their ratios.
 *
 * --code-runs PY,CPP (`npm run bench:runner`): the same day with code challenges judged beside it
 * (bench/lib/code-load.ts): PY Python 3 and CPP C++ programs of `--code-tests` tests (20) each, sent over the
 * first 60 s of the recorded load by teams of their own, judged by one real runner process in the sandbox; the
 * recorded load lasts until the last of them is judged (at least `--seconds`). Its JSON: bench/results/runner-at-size.json.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { connectSocket, type TestSocket } from "../tests/support/processes.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { checkStandingsExact, waitForStandingsDrained } from "./lib/exactness.ts";
import { browserLikeClient, multipartBody, type Answer, type BrowserLikeRequest } from "./lib/browser-like-client.ts";
import { cpuByProcessWindow, type CpuShare } from "./lib/cpu-by-process.ts";
import { BenchFailure, benchArgs, numberOption, report, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, REPO_ROOT, sleep, startWebs, startWorkers, stopChildren, type WebProcess } from "./lib/servers.ts";
import { alternateRuns, median } from "./lib/alternate.ts";
import { cookiesFor, deleteStoredSubmissionFiles, seedWorld } from "./lib/world.ts";
import { prepareCodeLoad, type CodeLoad, type CodeLoadFigures } from "./lib/code-load.ts";

const args = benchArgs({
  participants: { type: "string" },
  judges: { type: "string" },
  seconds: { type: "string" },
  "warm-up": { type: "string" },
  root: { type: "string" },
  versus: { type: "string" },
  rounds: { type: "string" },
  "code-runs": { type: "string" },
  "code-tests": { type: "string" },
});
// The smoke runs one web and one worker process: the live-path smoke covers several of each.
const profile = args.smoke
  ? { participants: 30, judges: 3, seconds: 3, warmUpSeconds: 0, adminEveryMs: 1000, webs: 1, workers: 1 }
  : { participants: 500, judges: 20, seconds: 60, warmUpSeconds: 15, adminEveryMs: 10_000, webs: 2, workers: 2 };
const config = {
  participants: numberOption(args.participants, profile.participants),
  judges: numberOption(args.judges, profile.judges),
  seconds: numberOption(args.seconds, profile.seconds),
  warmUpSeconds: numberOption(args["warm-up"], profile.warmUpSeconds),
  teamSize: 5,
  challenges: 20,
  webs: profile.webs,
  workers: profile.workers,
  /** A participant reads a page for 1–4 s before the next; a judge takes 2–5 s per score. */
  participantThinkMs: [1000, 4000] as const,
  judgeThinkMs: [2000, 5000] as const,
  /** The admin posts an announcement or a notification every half of this. */
  adminEveryMs: profile.adminEveryMs,
};

/** Code runs judged beside the load (--code-runs PY,CPP), else none. */
const codeRuns = args["code-runs"]
  ? (() => {
      const [python, cpp] = args["code-runs"].split(",").map((part) => numberOption(part, 0));
      return { python: python ?? 0, cpp: cpp ?? 0, tests: numberOption(args["code-tests"], 20), sendOverSeconds: args.smoke ? 2 : 60 };
    })()
  : null;

if (args.versus) {
  await eventDayVersus(path.resolve(args.versus), numberOption(args.rounds, 2));
  process.exit(0);
}
const serversRoot = args.root ? path.resolve(args.root) : REPO_ROOT;

/** The small file sent with three submissions in ten (64 KB). */
const FILE = new Uint8Array(64 * 1024);

const between = ([low, high]: readonly [number, number]) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/** Every request's outcome, by page (the route pattern, so /gate/1 and /gate/4 count together). */
const timings = new Map<string, number[]>();
/** The warm-up's requests (all pages together): reported, not part of the figures above. */
const warmUpTimings: number[] = [];
const errors: Array<{ page: string; status: number | string }> = [];
/** Every request's start (ms from the end of the warm-up: negative during it) and duration: the tail's place in time. */
const samplesInTime: Array<[number, number]> = [];
let recordFrom = Number.NaN;

// The participants', judges' and admin's requests: as fetch sent them, without fetch's own CPU on this machine
// (bench/lib/browser-like-client.ts). Redirects are not followed, as with fetch's `redirect: "manual"`.
const client = browserLikeClient();

async function timed(page: string, url: string, init: BrowserLikeRequest, ok: (answer: Answer) => boolean) {
  const started = performance.now();
  try {
    const response = await client.request(url, init);
    const ms = performance.now() - started;
    if (started >= recordFrom) (timings.get(page) ?? timings.set(page, []).get(page)!).push(ms);
    else warmUpTimings.push(ms);
    samplesInTime.push([started - recordFrom, ms]);
    if (!ok(response)) errors.push({ page, status: response.status });
  } catch (error) {
    errors.push({ page, status: error instanceof Error ? error.message : String(error) });
  }
}

const isPage = (answer: Answer) => answer.status === 200;
const isRedirect = (answer: Answer) => answer.status === 302;

const world = await createBenchWorld("eventday");
const sockets: TestSocket[] = [];
let codeLoad: CodeLoad | null = null;
try {
  const teams = Math.ceil(config.participants / config.teamSize);
  const seeded = await seedWorld({ teams, membersPerTeam: config.teamSize, challenges: config.challenges, judges: config.judges, submissionsPerTeam: 3 });
  const participants = seeded.participants.slice(0, config.participants);
  const cookies = await cookiesFor([...participants.map((user) => user.id), ...seeded.judgeIds, seeded.adminId]);
  const [webs, workers] = await Promise.all([startWebs(world.env, config.webs, BENCH_PORT_BASE + 40, () => serversRoot), startWorkers(world.env, config.workers, serversRoot)]);
  const webFor = (index: number): WebProcess => webs[index % webs.length];

  // Every participant has the live socket a browser opens; count what reaches them.
  const received = { notification: 0, announcement: 0, teamsUpdate: 0 };
  for (let index = 0; index < participants.length; index += 50) {
    const batch = participants.slice(index, index + 50);
    const connected = await Promise.all(batch.map((user, offset) => connectSocket(webFor(index + offset).url, cookies.get(user.id))));
    for (const socket of connected) {
      socket.on("notification", () => void received.notification++);
      socket.on("new_announcement", () => void received.announcement++);
      socket.on("teams:update", () => void received.teamsUpdate++);
    }
    sockets.push(...connected);
  }

  // The judges' work list, refreshed as participants submit (a judge picks from what exists).
  let submissionIds: Array<{ id: number; points: number }> = [];
  const refreshSubmissions = async () => {
    submissionIds = (await getDb().execute<{ id: number; points: number }>(sql`select s.id, c.points from submissions s join challenges c on c.id = s.challenge_id`)).map(
      (row) => ({ id: Number(row.id), points: Number(row.points) }),
    );
  };
  await refreshSubmissions();
  if (codeRuns) codeLoad = await prepareCodeLoad(world.env, seeded.adminId, codeRuns);

  // The recorded seconds end at `endAt`: after `--seconds`, or (with code runs) once the last run is judged if later.
  let endAt = performance.now() + (config.warmUpSeconds + config.seconds) * 1000;
  const running = () => performance.now() < endAt;
  const sent = { notifications: 0, announcements: 0, submissions: 0, scores: 0 };

  const participantLoop = async (index: number) => {
    const user = participants[index];
    const cookie = cookies.get(user.id)!;
    const base = webFor(index).url;
    await sleep(Math.random() * config.participantThinkMs[1]);
    while (running()) {
      const roll = Math.random();
      const challenge = pick(seeded.challenges);
      if (roll < 0.15) {
        // Submit (or update) an answer: the enhanced form's multipart POST, a text and now and then a small file.
        const files = Math.random() < 0.3 ? [{ name: "file", fileName: "answer.pdf", bytes: FILE }] : [];
        const form = multipartBody({ text: `Our answer, version ${Date.now()}` }, files);
        sent.submissions++;
        await timed("POST /submition/:id/upload", `${base}/submition/${challenge.id}/upload`, { method: "POST", headers: { cookie, "content-type": form.contentType }, body: form.body }, isPage);
      } else {
        const pages: Array<[string, string]> = [
          ["/home", "/home"],
          ["/gates", "/gates"],
          ["/gate/:n", `/gate/${challenge.wave}`],
          ["/submition/:id", `/submition/${challenge.id}`],
          ["/status", "/status"],
          ["/scoreboard", "/scoreboard"],
          ["/announcement", "/announcement"],
          ["/timer", "/timer"],
        ];
        const [page, path] = pick(pages);
        await timed(page, `${base}${path}`, { headers: { cookie } }, isPage);
      }
      await sleep(between(config.participantThinkMs));
    }
  };

  const judgeLoop = async (index: number) => {
    const judgeId = seeded.judgeIds[index];
    const cookie = cookies.get(judgeId)!;
    const base = webFor(index).url;
    await sleep(Math.random() * config.judgeThinkMs[1]);
    while (running()) {
      // A judge looks at one gate's submissions not yet scored by them, then scores one.
      await timed("/dashboard/submissions", `${base}/dashboard/submissions?mine=unscored&gate=${1 + Math.floor(Math.random() * 5)}`, { headers: { cookie } }, isPage);
      // The minute may have ended while the list loaded: a score sent now would be counted in it.
      if (!running()) break;
      const submission = pick(submissionIds);
      const score = (Math.floor(Math.random() * submission.points * 100) / 100).toFixed(2);
      const verdict = Math.random() < 0.1 ? "rejected" : "";
      sent.scores++;
      await timed(
        "POST /dashboard/submissions (score)",
        `${base}/dashboard/submissions`,
        { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ submissionId: String(submission.id), score, comment: "bench", verdict }).toString() },
        isRedirect,
      );
      await sleep(between(config.judgeThinkMs));
    }
  };

  const adminLoop = async () => {
    const cookie = cookies.get(seeded.adminId)!;
    const headers = { cookie, "content-type": "application/x-www-form-urlencoded" };
    let turn = 0;
    while (running()) {
      await sleep(config.adminEveryMs / 2);
      if (!running()) break;
      if (turn++ % 2 === 0) {
        sent.announcements++;
        await timed("POST /dashboard (announcement)", `${webs[0].url}/dashboard?index`, { method: "POST", headers, body: new URLSearchParams({ title: `Update ${turn}`, content: "Lunch is served in hall B." }).toString() }, isRedirect);
      } else {
        sent.notifications++;
        await timed("POST /dashboard/notifications", `${webs[0].url}/dashboard/notifications`, { method: "POST", headers, body: new URLSearchParams({ message: `Gate check ${turn}` }).toString() }, isPage);
      }
    }
  };

  const refresher = setInterval(() => void refreshSubmissions().catch(() => {}), 2000);
  const started = performance.now();
  recordFrom = started + config.warmUpSeconds * 1000;
  // Where the machine's CPU goes over the recorded seconds, by kind of process (the load generator is this process).
  const kinds = { webPids: webs.map((web) => web.pid), workerPids: workers.map((worker) => worker.pid!), runnerPids: codeLoad ? [codeLoad.pid] : [] };
  let cpuWindow: ReturnType<typeof cpuByProcessWindow> | null = null;
  let cpuAtEnd: ReturnType<ReturnType<typeof cpuByProcessWindow>["end"]> = null;
  const cpuStart = setTimeout(() => (cpuWindow = cpuByProcessWindow(kinds)), config.warmUpSeconds * 1000);
  const endCpuWindow = () => void (cpuAtEnd = cpuWindow?.end() ?? null);
  const cpuEnd = codeLoad ? undefined : setTimeout(endCpuWindow, (config.warmUpSeconds + config.seconds) * 1000);
  let codeFigures: CodeLoadFigures | null = null;
  if (codeLoad) {
    const load = codeLoad;
    endAt = Number.POSITIVE_INFINITY;
    const atLeastUntil = started + (config.warmUpSeconds + config.seconds) * 1000;
    void (async () => {
      await sleep(config.warmUpSeconds * 1000);
      codeFigures = await load.run(webs).catch((error: unknown) => {
        errors.push({ page: "code runs", status: error instanceof Error ? error.message : String(error) });
        return null;
      });
      const remaining = atLeastUntil - performance.now();
      if (remaining > 0) await sleep(remaining);
      endAt = performance.now();
      endCpuWindow();
    })();
  }
  await Promise.all([
    ...participants.map((_, index) => participantLoop(index)),
    ...seeded.judgeIds.map((_, index) => judgeLoop(index)),
    adminLoop(),
  ]);
  clearInterval(refresher);
  clearTimeout(cpuStart);
  clearTimeout(cpuEnd);
  // The recorded requests are those started in the recorded seconds (the loops' last pauses run past them).
  const loadSeconds = (endAt - recordFrom) / 1000;

  const drainMs = await waitForStandingsDrained(60_000);
  await sleep(1000); // the last events in flight reach the sockets
  const exactness = await checkStandingsExact();
  await deleteStoredSubmissionFiles();

  const rows = [...timings.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([page, samples]) => {
      const stats = summarise(samples);
      return { page, requests: stats.count, "p50 ms": +stats.p50.toFixed(1), "p99 ms": +stats.p99.toFixed(1), "max ms": +stats.max.toFixed(1), errors: errors.filter((error) => error.page === page).length };
    });
  const all = summarise([...timings.values()].flat());
  const warmUp = summarise(warmUpTimings);
  rows.push({ page: "all requests", requests: all.count, "p50 ms": +all.p50.toFixed(1), "p99 ms": +all.p99.toFixed(1), "max ms": +all.max.toFixed(1), errors: errors.length });
  // Every request, the warm-up's too, by when it started (5 s windows): whether the tail is the processes' cold
  // start or spread over the minute.
  const windowMs = 5000;
  const byWindow = new Map<number, Array<[number, number]>>();
  for (const sample of samplesInTime) {
    const index = Math.floor(sample[0] / windowMs);
    (byWindow.get(index) ?? byWindow.set(index, []).get(index)!).push(sample);
  }
  const windows = [...byWindow]
    .sort(([a], [b]) => a - b)
    .map(([index, samples]) => {
      const stats = summarise(samples.map(([, ms]) => ms));
      const from = (index * windowMs) / 1000;
      return { "started (s)": `${from}–${from + windowMs / 1000}${index < 0 ? " (warm-up)" : ""}`, requests: stats.count, "p50 ms": +stats.p50.toFixed(1), "p99 ms": +stats.p99.toFixed(1), "max ms": +stats.max.toFixed(1) };
    });
  // Each kind's CPU over the recorded seconds, and per request served in them (pages, uploads, scores alike).
  const measuredCpu = cpuAtEnd as ReturnType<ReturnType<typeof cpuByProcessWindow>["end"]>;
  const cpu = measuredCpu && {
    busyPct: measuredCpu.busyPct,
    shares: measuredCpu.shares.map((share: CpuShare) => ({ ...share, msPerRequest: all.count > 0 ? +((share.cpuSeconds * 1000) / all.count).toFixed(2) : 0 })),
  };
  const delivery = {
    notifications: `${received.notification}/${sent.notifications * sockets.length}`,
    announcements: `${received.announcement}/${sent.announcements * sockets.length}`,
    teamsUpdates: received.teamsUpdate,
  };
  if (codeFigures) reportCodeRuns(codeFigures, all, loadSeconds);
  report(
    codeFigures ? "runner-at-size" : "event-day",
    args.smoke,
    `5. Event day: ${participants.length} participants (${teams} teams), ${config.judges} judges, an admin, ${loadSeconds.toFixed(0)} s on ${config.webs} web + ${config.workers} worker processes — ` +
      `${(all.count / loadSeconds).toFixed(0)} req/s; errors ${targetVerdict(errors.length === 0)} (${errors.length}); standings ${exactness.exact ? "exact" : "INEXACT"} ` +
      `(workers caught up ${drainMs.toFixed(0)} ms after the load); live events delivered: notifications ${delivery.notifications}, announcements ${delivery.announcements}` +
      (warmUp.count > 0 ? `; before it, ${config.warmUpSeconds} s of the same load unrecorded (warm-up: ${warmUp.count} requests, p50 ${warmUp.p50.toFixed(0)} ms, p99 ${warmUp.p99.toFixed(0)} ms)` : ""),
    rows,
    { config: { ...config, root: serversRoot }, sent, received, delivery, errors: errors.slice(0, 20), exactness, drainMs, requestsPerSecond: all.count / loadSeconds, warmUp, windows, cpu, codeRuns: codeFigures },
    args.out,
  );
  console.table(windows);
  if (cpu) {
    console.log(`Where the machine's CPU went over the recorded ${loadSeconds.toFixed(0)} s: ${cpu.busyPct} % busy (of all its cores)`);
    console.table(cpu.shares.map((share) => ({ processes: share.kind, "CPU s": share.cpuSeconds, "% of the machine": share.machinePct, "ms a request served": share.msPerRequest })));
  }
  const failedRuns = codeFigures ? Object.entries((codeFigures as CodeLoadFigures).verdicts).filter(([verdict]) => verdict !== "accepted") : [];
  if (failedRuns.length > 0) throw new BenchFailure(`right programs not accepted: ${JSON.stringify(failedRuns)}`);
  if (!exactness.exact) throw new BenchFailure(`standings inexact: ${JSON.stringify(exactness.mismatches)}`);
  if (errors.length > 0) throw new BenchFailure(`${errors.length} failed requests, e.g. ${JSON.stringify(errors.slice(0, 3))}`);
} finally {
  await codeLoad?.stop();
  for (const socket of sockets) socket.disconnect();
  client.close();
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);

/** bench:runner's own figures, printed before the event day's table: the drain, and the web's p99 beside it. */
function reportCodeRuns(figures: CodeLoadFigures, all: ReturnType<typeof summarise>, loadSeconds: number) {
  const row = (what: string, stats: ReturnType<typeof summarise>) => ({ what, runs: stats.count, "p50 ms": +stats.p50.toFixed(0), "p90 ms": +stats.p90.toFixed(0), "p99 ms": +stats.p99.toFixed(0), "max ms": +stats.max.toFixed(0) });
  console.info(
    `\nbench:runner at size: ${figures.runs} runs (${codeRuns!.python} Python 3, ${codeRuns!.cpp} C++, ${codeRuns!.tests} tests each) on ${figures.slots} runner slot(s), ` +
      `drained ${figures.drainSeconds.toFixed(0)} s after the first was sent; verdicts ${JSON.stringify(figures.verdicts)}; ${figures.sendErrors.length} sends refused. ` +
      `Beside them, the event day's ${all.count} requests over ${loadSeconds.toFixed(0)} s: p99 ${all.p99.toFixed(0)} ms (target ≤ 200 ms: ${targetVerdict(all.p99 <= 200)}).`,
  );
  console.table([row("sent → verdict", figures.latencyMs), row("judging, Python 3", figures.judgingMs.python3), row("judging, C++", figures.judgingMs.cpp)]);
}

/**
 * --versus: the event day run `rounds` × 2 times, alternating the servers' checkout, and the two versions side
 * by side: every run's figures, then the medians and the ratios (this ÷ versus) of the runs of each round.
 */
async function eventDayVersus(versusRoot: string, rounds: number) {
  const passed = process.argv.slice(2).filter((_, index, all) => !["--versus", "--rounds", "--out"].includes(all[index]!) && !["--versus", "--rounds", "--out"].includes(all[index - 1]!));
  const runs = await alternateRuns("bench/event-day.ts", versusRoot, rounds, passed);
  const figures = runs.map(({ round, version, result }) => {
    const all = (result.rows as Array<{ page: string; "p50 ms": number; "p99 ms": number; requests: number; errors: number }>).find((row) => row.page === "all requests")!;
    const cpu = result.cpu as { shares: Array<{ kind: string; msPerRequest: number }> } | null;
    const web = cpu?.shares.find((share) => share.kind === "web processes")?.msPerRequest ?? Number.NaN;
    const exact = (result.exactness as { exact: boolean }).exact;
    return { round, version, requests: all.requests, "p50 ms": all["p50 ms"], "p99 ms": all["p99 ms"], "web CPU ms a request": web, errors: all.errors, standings: exact ? "exact" : "INEXACT" };
  });
  const ratio = (key: "p50 ms" | "p99 ms" | "web CPU ms a request") =>
    Array.from({ length: rounds }, (_, index) => {
      const mine = figures.find((row) => row.round === index + 1 && row.version === "this")!;
      const theirs = figures.find((row) => row.round === index + 1 && row.version === "versus")!;
      return mine[key] / theirs[key];
    });
  const summary = (["p50 ms", "p99 ms", "web CPU ms a request"] as const).map((key) => ({
    figure: key,
    this: +median(figures.filter((row) => row.version === "this").map((row) => row[key])).toFixed(2),
    versus: +median(figures.filter((row) => row.version === "versus").map((row) => row[key])).toFixed(2),
    "this ÷ versus, by round": ratio(key).map((value) => value.toFixed(2)).join(", "),
  }));
  report(
    "event-day-versus",
    args.smoke,
    `5. Event day, this checkout (${REPO_ROOT}) versus ${versusRoot}: ${rounds} rounds, alternating (ABBA)`,
    figures,
    { versus: versusRoot, rounds, summary },
    args.out,
  );
  console.table(summary);
  const failed = figures.filter((row) => row.errors > 0 || row.standings !== "exact");
  if (failed.length > 0) throw new BenchFailure(`runs with errors or inexact standings: ${JSON.stringify(failed)}`);
}
