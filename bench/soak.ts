/**
 * Soak: a compressed event day for many minutes against 2 web processes and 2 workers, watching that
 * nothing grows that should not (docs/RELIABILITY.md "Soak"). Participants load pages and submit (some
 * with a small file), judges score, an admin posts announcements and notifications, a few dozen socket
 * clients connect, drop and reconnect (each keeping its board from the feed plus `teams:update`), and in
 * the middle a worker and then a web process are restarted. Every 5 s it samples each process's metrics
 * (RSS, heap used, event-loop lag p99, handles, sockets), Postgres (connections, largest tables), Redis
 * (memory, this run's keys by prefix) and the queues.
 *
 * At the end: 0 request errors, standings exact, every client's board equal to the server's — else it
 * exits non-zero. The growth targets (heap ≤ 5 MB, RSS ≤ 20 MB from a third of the run to its end) are
 * printed as met/MISSED without failing the run yet.
 *
 *   npm run soak [-- --minutes N] [--smoke]
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis, getRedis } from "../app/infrastructure/redis.server.ts";
import { applyTeamUpdate, type ServerToClientEvents, type TeamStanding } from "../app/modules/realtime/events.ts";
import { databaseUrlFor } from "../tests/setup/databases.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { checkStandingsExact, waitForStandingsDrained } from "./lib/exactness.ts";
import { BenchFailure, benchArgs, numberOption, report, RESULTS_DIR, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, REPO_ROOT, sleep, startWeb, startWorker, stopChild, stopChildren, type WebProcess } from "./lib/servers.ts";
import { soakSvg } from "./lib/soak-plot.ts";
import { cookiesFor, deleteStoredSubmissionFiles, seedWorld } from "./lib/world.ts";

const args = benchArgs({ minutes: { type: "string" } });
const profile = args.smoke
  ? { minutes: 1, participants: 15, judges: 2, sockets: 10, adminEveryMs: 6000, socketLifeMs: [5000, 15_000] as const }
  : { minutes: 30, participants: 60, judges: 5, sockets: 40, adminEveryMs: 20_000, socketLifeMs: [20_000, 120_000] as const };
const config = {
  minutes: numberOption(args.minutes, profile.minutes),
  participants: profile.participants,
  judges: profile.judges,
  sockets: profile.sockets,
  teamSize: 5,
  challenges: 20,
  sampleEveryMs: 5000,
  participantThinkMs: [1000, 4000] as const,
  judgeThinkMs: [2000, 5000] as const,
  adminEveryMs: profile.adminEveryMs,
  /** How long a socket stays connected before it drops, and how long it stays away. */
  socketLifeMs: profile.socketLifeMs,
  socketAwayMs: [500, 5000] as const,
  /** When (fraction of the run) the worker, then the web process, are restarted. */
  workerRestartAt: 0.4,
  webRestartAt: 0.5,
  /** The growth targets, from a third of the run to its end (the issue: minute 10 to 30 of 30). */
  target: { heapGrowthMb: 5, rssGrowthMb: 20 },
};
const runMs = config.minutes * 60_000;
const MB = 1024 * 1024;
const METRICS_TOKEN = "soak-metrics-token-0123456789abcdef0123";
const WEB_PORT = BENCH_PORT_BASE + 50;
const WORKER_METRICS_PORT = BENCH_PORT_BASE + 70;

const between = ([low, high]: readonly [number, number]) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

// ---------------------------------------------------------------- requests

const timings: number[] = [];
const errors: Array<{ page: string; status: number | string; atS: number }> = [];
let startedAt = performance.now();
const elapsedS = () => (performance.now() - startedAt) / 1000;

async function timed(page: string, url: string, init: RequestInit, ok: (response: Response) => boolean) {
  const started = performance.now();
  try {
    const response = await fetch(url, { redirect: "manual", ...init });
    await response.arrayBuffer();
    timings.push(performance.now() - started);
    if (!ok(response)) errors.push({ page, status: response.status, atS: elapsedS() });
  } catch (error) {
    errors.push({ page, status: error instanceof Error ? error.message : String(error), atS: elapsedS() });
  }
}
const isPage = (response: Response) => response.status === 200;
const isRedirect = (response: Response) => response.status === 302;

// ---------------------------------------------------------------- processes

interface Proc {
  label: string;
  kind: "web" | "worker";
  pid: number;
  child: ChildProcess;
  web?: WebProcess;
  /** Not to be sent requests or sockets (being restarted). */
  down: boolean;
  restartedAtS: number | null;
}
const procs: Proc[] = [];
const upWebs = () => procs.filter((proc) => proc.kind === "web" && !proc.down);
const webUrl = (index: number) => {
  const webs = upWebs();
  return webs[index % webs.length].web!.url;
};

// ---------------------------------------------------------------- metrics

interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, enough of it: `name{a="b",…} value` lines. */
function parseMetrics(text: string): Series[] {
  const out: Series[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    out.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return out;
}

async function scrape(url: string): Promise<Series[] | null> {
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(3000) });
    return response.ok ? parseMetrics(await response.text()) : null;
  } catch {
    return null;
  }
}

const one = (series: Series[], name: string) => series.find((entry) => entry.name === name)?.value ?? null;

interface ProcessSample {
  pid: number;
  rssMb: number | null;
  heapUsedMb: number | null;
  heapTotalMb: number | null;
  lagP99Ms: number | null;
  handles: number | null;
  sockets: number | null;
}

interface Sample {
  atS: number;
  processes: Record<string, ProcessSample | null>;
  /** Connections to the run's database by process (each child's DATABASE_URL names it: application_name); "bench" is this script's own pool. */
  postgres: { connections: Record<string, number>; tablesMb: Record<string, number> };
  redis: { usedMemoryMb: number; runKeys: number; keysByPrefix: Record<string, number> };
  queues: Record<string, number>;
  requests: number;
  errors: number;
  socketsConnected: number;
  reconnects: number;
}

const samples: Sample[] = [];

/** Worker metrics: each worker took the first free port from WORKER_METRICS_PORT on; find each by its pid. */
async function scrapeAll(): Promise<{ byPid: Map<number, Series[]>; workerSeries: Series[] }> {
  const urls = [
    ...procs.filter((proc) => proc.kind === "web").map((proc) => `${proc.web!.url}/metrics`),
    ...Array.from({ length: 4 }, (_, offset) => `http://127.0.0.1:${WORKER_METRICS_PORT + offset}/metrics`),
  ];
  const byPid = new Map<number, Series[]>();
  let workerSeries: Series[] = [];
  for (const series of await Promise.all(urls.map(scrape))) {
    if (!series) continue;
    const instance = series.find((entry) => entry.labels.instance_name)?.labels.instance_name ?? "";
    byPid.set(Number(instance.split(":").pop()), series);
    if (series.some((entry) => entry.labels.process_type === "worker")) workerSeries = series;
  }
  return { byPid, workerSeries };
}

async function takeSample(sampler: postgres.Sql, database: string, prefix: string, clients: SocketClient[]): Promise<Sample> {
  const atS = elapsedS();
  const { byPid, workerSeries } = await scrapeAll();
  const processes: Sample["processes"] = {};
  for (const proc of procs) {
    const series = byPid.get(proc.pid);
    processes[proc.label] = series
      ? {
          pid: proc.pid,
          rssMb: (one(series, "process_resident_memory_bytes") ?? NaN) / MB,
          heapUsedMb: (one(series, "nodejs_heap_size_used_bytes") ?? NaN) / MB,
          heapTotalMb: (one(series, "nodejs_heap_size_total_bytes") ?? NaN) / MB,
          lagP99Ms: (one(series, "nodejs_eventloop_lag_p99_seconds") ?? NaN) * 1000,
          handles: one(series, "nodejs_active_handles_total"),
          sockets: one(series, "gatekeeper_socketio_connections"),
        }
      : null;
  }
  const queues: Record<string, number> = {};
  for (const entry of workerSeries) if (entry.name === "gatekeeper_queue_jobs") queues[`${entry.labels.queue} ${entry.labels.state}`] = entry.value;

  const connectionRows = await sampler<{ name: string; connections: number }[]>`
    select coalesce(nullif(application_name, ''), 'bench') as name, count(*)::int as connections
    from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid() group by 1`;
  const connections = Object.fromEntries(connectionRows.map((row) => [row.name.replace(/^soak-/, ""), row.connections]));
  const tables = await sampler<{ name: string; bytes: string }[]>`
    select relname as name, pg_total_relation_size(relid)::text as bytes from pg_stat_user_tables order by pg_total_relation_size(relid) desc limit 6`;

  const redis = getRedis();
  const info = await redis.info("memory");
  const usedMemory = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
  const keysByPrefix: Record<string, number> = {};
  let runKeys = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    for (const key of keys) {
      runKeys++;
      // Two segments after the prefix, numbers folded: "bull:standings:#", "standings:board"…
      const group = key.slice(prefix.length + 1).split(":").slice(0, 2).map((part) => (/^\d+$/.test(part) ? "#" : part)).join(":");
      keysByPrefix[group] = (keysByPrefix[group] ?? 0) + 1;
    }
  } while (cursor !== "0");

  return {
    atS,
    processes,
    postgres: { connections, tablesMb: Object.fromEntries(tables.map((table) => [table.name, Number(table.bytes) / MB])) },
    redis: { usedMemoryMb: usedMemory / MB, runKeys, keysByPrefix },
    queues,
    requests: timings.length,
    errors: errors.length,
    socketsConnected: clients.filter((client) => client.socket?.connected).length,
    reconnects: clients.reduce((sum, client) => sum + client.connects - 1, 0),
  };
}

// ---------------------------------------------------------------- socket clients

interface SocketClient {
  index: number;
  cookie: string;
  socket: Socket<ServerToClientEvents> | null;
  board: TeamStanding[];
  connects: number;
  /** Set by the run's end: no more planned drops. */
  settled: boolean;
}

/** What a browser does: open the socket, read the board, apply every `teams:update` after it (the newest version wins). */
function connectClient(client: SocketClient): Promise<void> {
  const url = webUrl(client.index + client.connects);
  const socket: Socket<ServerToClientEvents> = io(url, { transports: ["websocket"], extraHeaders: { cookie: client.cookie }, reconnection: false, forceNew: true });
  client.socket = socket;
  client.connects++;
  let pending: TeamStanding[] | null = [];
  const readBoard = async () => {
    pending ??= [];
    const response = await fetch(`${url}/api/v1/scoreboard`, { headers: { cookie: client.cookie } });
    if (response.status !== 200) throw new Error(`scoreboard feed answered ${response.status}`);
    let board = ((await response.json()) as { teams: TeamStanding[] }).teams;
    for (const update of pending) board = applyTeamUpdate(board, update);
    pending = null;
    client.board = board;
  };
  socket.on("teams:update", (team) => {
    if (pending) pending.push(team);
    else client.board = applyTeamUpdate(client.board, team);
  });
  socket.on("standings:refresh", () => void readBoard().catch(() => {}));
  socket.on("resync", () => void readBoard().catch(() => {}));
  socket.on("disconnect", () => {
    if (socket !== client.socket || client.settled) return;
    // Dropped by the server (a web restart): come back on a web that is up.
    setTimeout(() => void connectClient(client).catch(() => {}), between([500, 2000]));
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => {
      readBoard().then(resolve, (error: unknown) => {
        errors.push({ page: "GET /api/v1/scoreboard (socket client)", status: String(error), atS: elapsedS() });
        resolve();
      });
    });
    socket.once("connect_error", (error) => {
      if (client.settled) return reject(error);
      setTimeout(() => void connectClient(client).then(resolve, reject), 1000);
    });
  });
}

async function clientLife(client: SocketClient, endAt: number) {
  await connectClient(client);
  while (performance.now() < endAt) {
    // Connected for a while (the run's end cuts the wait short).
    await sleep(Math.min(between(config.socketLifeMs), endAt - performance.now()));
    if (performance.now() >= endAt) break;
    // A planned drop (a laptop closed, a train tunnel): away for a while, then back.
    const socket = client.socket;
    client.socket = null;
    socket?.disconnect();
    await sleep(between(config.socketAwayMs));
    await connectClient(client).catch(() => {});
  }
}

// ---------------------------------------------------------------- the run

const world = await createBenchWorld("soak");
const clients: SocketClient[] = [];
const sampler = postgres(databaseUrlFor(world.database), { max: 1, onnotice: () => {} });
try {
  const childEnv = { ...world.env, METRICS_TOKEN, WORKER_METRICS_PORT: String(WORKER_METRICS_PORT) };
  /** Each process's own env: its Postgres connections carry its name (pg_stat_activity.application_name). */
  const envFor = (label: string) => {
    const url = new URL(world.env.DATABASE_URL);
    url.searchParams.set("application_name", `soak-${label}`);
    return { ...childEnv, DATABASE_URL: url.toString() };
  };
  const teams = Math.ceil(config.participants / config.teamSize);
  const seeded = await seedWorld({ teams, membersPerTeam: config.teamSize, challenges: config.challenges, judges: config.judges, submissionsPerTeam: 3 });
  const participants = seeded.participants.slice(0, config.participants);
  const cookies = await cookiesFor([...participants.map((user) => user.id), ...seeded.judgeIds, seeded.adminId]);

  const [webs, workers] = await Promise.all([
    Promise.all([0, 1].map((index) => startWeb(envFor(`web${index + 1}`), WEB_PORT + index))),
    Promise.all([0, 1].map((index) => startWorker(envFor(`worker${index + 1}`)))),
  ]);
  webs.forEach((web, index) => procs.push({ label: `web${index + 1}`, kind: "web", pid: web.pid, child: web.child, web, down: false, restartedAtS: null }));
  workers.forEach((child, index) => procs.push({ label: `worker${index + 1}`, kind: "worker", pid: child.pid!, child, down: false, restartedAtS: null }));

  let submissionIds: Array<{ id: number; points: number }> = [];
  const refreshSubmissions = async () => {
    submissionIds = (await getDb().execute<{ id: number; points: number }>(sql`select s.id, c.points from submissions s join challenges c on c.id = s.challenge_id`)).map((row) => ({
      id: Number(row.id),
      points: Number(row.points),
    }));
  };
  await refreshSubmissions();

  startedAt = performance.now();
  const endAt = startedAt + runMs;
  const running = () => performance.now() < endAt;
  const sent = { pages: 0, submissions: 0, files: 0, scores: 0, announcements: 0, notifications: 0 };
  const restarts: Array<{ label: string; atS: number; tookMs: number }> = [];

  const participantLoop = async (index: number) => {
    const cookie = cookies.get(participants[index].id)!;
    await sleep(Math.random() * config.participantThinkMs[1]);
    while (running()) {
      const challenge = pick(seeded.challenges);
      const base = webUrl(index);
      if (Math.random() < 0.12) {
        const form = new FormData();
        form.set("text", `Our answer, version ${Date.now()}`);
        if (Math.random() < 0.3) {
          form.set("file", new Blob([new Uint8Array(16 * 1024)]), "answer.pdf");
          sent.files++;
        }
        sent.submissions++;
        await timed("POST /submition/:id/upload", `${base}/submition/${challenge.id}/upload`, { method: "POST", headers: { cookie }, body: form }, isPage);
      } else {
        const path = pick(["/home", "/gates", `/gate/${challenge.wave}`, `/submition/${challenge.id}`, "/status", "/scoreboard", "/announcement", "/timer"]);
        sent.pages++;
        await timed(`GET ${path}`, `${base}${path}`, { headers: { cookie } }, isPage);
      }
      await sleep(between(config.participantThinkMs));
    }
  };

  const judgeLoop = async (index: number) => {
    const cookie = cookies.get(seeded.judgeIds[index])!;
    await sleep(Math.random() * config.judgeThinkMs[1]);
    while (running()) {
      const base = webUrl(index);
      await timed("/dashboard/submissions", `${base}/dashboard/submissions?mine=unscored&gate=${1 + Math.floor(Math.random() * 5)}`, { headers: { cookie } }, isPage);
      const submission = pick(submissionIds);
      const score = (Math.floor(Math.random() * submission.points * 100) / 100).toFixed(2);
      sent.scores++;
      await timed(
        "POST /dashboard/submissions (score)",
        `${base}/dashboard/submissions`,
        {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ submissionId: String(submission.id), score, comment: "soak", verdict: Math.random() < 0.1 ? "rejected" : "" }),
        },
        isRedirect,
      );
      await sleep(between(config.judgeThinkMs));
    }
  };

  const adminLoop = async () => {
    const cookie = cookies.get(seeded.adminId)!;
    const headers = { cookie, "content-type": "application/x-www-form-urlencoded" };
    for (let turn = 0; running(); turn++) {
      await sleep(config.adminEveryMs / 2);
      if (!running()) break;
      const base = webUrl(turn);
      if (turn % 2 === 0) {
        sent.announcements++;
        await timed("POST /dashboard (announcement)", `${base}/dashboard?index`, { method: "POST", headers, body: new URLSearchParams({ title: `Update ${turn}`, content: "Lunch is served in hall B." }) }, isRedirect);
      } else {
        sent.notifications++;
        await timed("POST /dashboard/notifications", `${base}/dashboard/notifications`, { method: "POST", headers, body: new URLSearchParams({ message: `Gate check ${turn}` }) }, isPage);
      }
    }
  };

  /** Mid-run: a worker stops (SIGTERM) and a new one starts; later a web process does, on its port. */
  const restartLoop = async () => {
    await sleep(runMs * config.workerRestartAt);
    const worker = procs.find((proc) => proc.label === "worker2")!;
    let began = performance.now();
    await stopChild(worker.child, 10_000);
    const child = await startWorker(envFor("worker2"));
    Object.assign(worker, { child, pid: child.pid!, restartedAtS: elapsedS() });
    restarts.push({ label: "worker2", atS: +elapsedS().toFixed(1), tookMs: Math.round(performance.now() - began) });

    await sleep(Math.max(0, startedAt + runMs * config.webRestartAt - performance.now()));
    const web = procs.find((proc) => proc.label === "web2")!;
    began = performance.now();
    // Traffic moves to web1 first (a load balancer taking web2 out), then web2 drains and stops.
    web.down = true;
    await sleep(2000);
    await stopChild(web.child, 10_000);
    const restarted = await startWeb(envFor("web2"), web.web!.port);
    Object.assign(web, { web: restarted, child: restarted.child, pid: restarted.pid, restartedAtS: elapsedS(), down: false });
    restarts.push({ label: "web2", atS: +elapsedS().toFixed(1), tookMs: Math.round(performance.now() - began) });
  };

  const samplerLoop = async () => {
    while (running()) {
      const sample = await takeSample(sampler, world.database, world.env.REDIS_PREFIX, clients).catch((error: unknown) => {
        console.warn(`sample failed: ${String(error)}`);
        return null;
      });
      if (sample) {
        samples.push(sample);
        const line = procs.map((proc) => `${proc.label} ${sample.processes[proc.label]?.rssMb?.toFixed(0) ?? "-"}/${sample.processes[proc.label]?.heapUsedMb?.toFixed(0) ?? "-"}`).join("  ");
        console.info(`${(sample.atS / 60).toFixed(1)} min  RSS/heap MB: ${line}  pg ${Object.values(sample.postgres.connections).reduce((sum, count) => sum + count, 0)}  keys ${sample.redis.runKeys}  sockets ${sample.socketsConnected}  requests ${sample.requests}  errors ${sample.errors}`);
      }
      await sleep(Math.max(0, config.sampleEveryMs - ((performance.now() - startedAt) % config.sampleEveryMs)));
    }
  };

  for (let index = 0; index < config.sockets; index++) {
    clients.push({ index, cookie: cookies.get(participants[index % participants.length].id)!, socket: null, board: [], connects: 0, settled: false });
  }
  const refresher = setInterval(() => void refreshSubmissions().catch(() => {}), 2000);
  await Promise.all([
    ...participants.map((_, index) => participantLoop(index)),
    ...seeded.judgeIds.map((_, index) => judgeLoop(index)),
    adminLoop(),
    restartLoop(),
    samplerLoop(),
    ...clients.map((client) => clientLife(client, endAt)),
  ]);
  clearInterval(refresher);
  const loadSeconds = elapsedS();

  // Checkpoint at the end: every client connected again, the workers caught up, boards compared.
  for (const client of clients) client.settled = true;
  await Promise.all(clients.filter((client) => !client.socket?.connected).map((client) => connectClient(client).catch(() => {})));
  const drainMs = await waitForStandingsDrained(60_000);
  await sleep(1500); // the last updates in flight reach the sockets
  const exactness = await checkStandingsExact();
  const serverBoard = ((await (await fetch(`${webUrl(0)}/api/v1/scoreboard`, { headers: { cookie: clients[0].cookie } })).json()) as { teams: TeamStanding[] }).teams;
  const boardKey = (board: TeamStanding[]) => JSON.stringify(board.map((team) => [team.id, team.rank, team.totalScore, team.solvedCount]));
  const boardsDiffering = clients.filter((client) => !client.socket?.connected || boardKey(client.board) !== boardKey(serverBoard)).length;
  // Growth is read under load (up to the last sample taken during it); the checkpoint's sample, once the load
  // stopped and the processes idled, is shown beside it ("idle after").
  const loadEndS = samples[samples.length - 1].atS;
  samples.push(await takeSample(sampler, world.database, world.env.REDIS_PREFIX, clients));
  await deleteStoredSubmissionFiles();

  // ------------------------------------------------------------ the table
  const thirdS = loadEndS / 3;
  const endS = loadEndS;
  const idle = samples[samples.length - 1];
  /** The median of a series' samples in [from, to] (heap used swings with every GC: one sample is noise). */
  const medianIn = (read: (sample: Sample) => number | null | undefined, from: number, to: number) => {
    const values = samples.filter((sample) => sample.atS >= from && sample.atS <= to).flatMap((sample) => {
      const value = read(sample);
      return value === null || value === undefined || !Number.isFinite(value) ? [] : [value];
    });
    return values.length ? summarise(values).p50 : NaN;
  };
  const windowS = Math.max(config.sampleEveryMs / 1000, Math.min(30, loadEndS / 20));
  const rows: Array<Record<string, unknown>> = [];
  const verdicts: Array<{ series: string; growthMb: number; limitMb: number; met: boolean }> = [];
  const addRow = (series: string, read: (sample: Sample) => number | null | undefined, digits: number, fromS = thirdS, limitMb?: number) => {
    const start = medianIn(read, fromS, fromS + windowS);
    const end = medianIn(read, endS - windowS, endS);
    const perHour = ((end - start) / Math.max(1, endS - fromS)) * 3600;
    const row: Record<string, unknown> = {
      series,
      from: `${(fromS / 60).toFixed(1)} min`,
      "at from": +start.toFixed(digits),
      "at end": +end.toFixed(digits),
      growth: +(end - start).toFixed(digits),
      "growth/h": +perHour.toFixed(digits),
      "idle after": +(read(idle) ?? NaN).toFixed(digits),
    };
    if (limitMb !== undefined) {
      const met = end - start <= limitMb;
      verdicts.push({ series, growthMb: end - start, limitMb, met });
      row.target = `≤ ${limitMb} MB: ${targetVerdict(met)}`;
    }
    rows.push(row);
  };
  for (const proc of procs) {
    // A restarted process is measured from a sixth of the run after its restart (its own warm-up).
    const fromS = proc.restartedAtS === null ? thirdS : Math.min(endS - windowS * 2, proc.restartedAtS + loadEndS / 6);
    const label = `${proc.label}${proc.restartedAtS === null ? "" : " (restarted)"}`;
    addRow(`${label} RSS MB`, (sample) => sample.processes[proc.label]?.rssMb, 1, fromS, config.target.rssGrowthMb);
    addRow(`${label} heap used MB`, (sample) => sample.processes[proc.label]?.heapUsedMb, 1, fromS, config.target.heapGrowthMb);
    addRow(`${label} event-loop lag p99 ms`, (sample) => sample.processes[proc.label]?.lagP99Ms, 1, fromS);
    addRow(`${label} active handles`, (sample) => sample.processes[proc.label]?.handles, 0, fromS);
    if (proc.kind === "web") addRow(`${label} socket connections`, (sample) => sample.processes[proc.label]?.sockets, 0, fromS);
  }
  for (const name of [...procs.map((proc) => proc.label), "bench"]) addRow(`postgres connections ${name}`, (sample) => sample.postgres.connections[name] ?? 0, 0);
  for (const table of Object.keys(samples[samples.length - 1].postgres.tablesMb)) addRow(`postgres table ${table} MB`, (sample) => sample.postgres.tablesMb[table], 2);
  addRow("redis used_memory MB (whole instance)", (sample) => sample.redis.usedMemoryMb, 1);
  addRow("redis keys (this run's prefix)", (sample) => sample.redis.runKeys, 0);
  for (const group of Object.keys(samples[samples.length - 1].redis.keysByPrefix).sort()) addRow(`redis keys ${group}`, (sample) => sample.redis.keysByPrefix[group] ?? 0, 0);
  for (const queue of Object.keys(samples[samples.length - 1].queues).sort()) addRow(`queue ${queue}`, (sample) => sample.queues[queue], 0);

  const all = summarise(timings);
  const growthMet = verdicts.every((verdict) => verdict.met);
  report(
    "soak",
    args.smoke,
    `Soak: ${(loadSeconds / 60).toFixed(1)} min, 2 web + 2 worker processes, ${participants.length} participants, ${config.judges} judges, an admin, ${config.sockets} socket clients ` +
      `(${clients.reduce((sum, client) => sum + client.connects - 1, 0)} reconnects); restarts ${restarts.map((restart) => `${restart.label} at ${(restart.atS / 60).toFixed(1)} min`).join(", ") || "none"}; ` +
      `${all.count} requests (p50 ${all.p50.toFixed(0)} ms, p99 ${all.p99.toFixed(0)} ms), errors ${targetVerdict(errors.length === 0)} (${errors.length}); ` +
      `standings ${exactness.exact ? "exact" : "INEXACT"}; client boards equal to the server's: ${clients.length - boardsDiffering}/${clients.length}; ` +
      `growth targets (heap used — not after GC — ≤ ${config.target.heapGrowthMb} MB, RSS ≤ ${config.target.rssGrowthMb} MB, from a third of the run to its end): ${growthMet ? "met" : "MISSED"}`,
    rows,
    { config, sent, restarts, errors: errors.slice(0, 20), exactness, drainMs, boardsDiffering, verdicts, heapMeasure: "nodejs_heap_size_used_bytes (heap used at the scrape, not after a forced GC)" },
    args.out,
  );
  // The samples go after the summary, one a line and rounded (a 30-minute run takes 360 of them).
  const written = args.out ?? path.join(RESULTS_DIR, args.smoke ? "soak.smoke.tmp" : "soak.json");
  const round = (_key: string, value: unknown) => (typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value);
  const lines = samples.map((sample) => `    ${JSON.stringify(sample, round)}`).join(",\n");
  writeFileSync(written, readFileSync(written, "utf8").replace(/\n}\n$/, `,\n  "samples": [\n${lines}\n  ]\n}\n`));

  if (!args.smoke) {
    const minutes = (sample: Sample) => sample.atS / 60;
    const panel = (title: string, read: (process: ProcessSample) => number | null) => ({
      title,
      series: procs.map((proc) => ({
        name: proc.label,
        points: samples.map((sample): [number, number | null] => {
          const process = sample.processes[proc.label];
          const value = process ? read(process) : null;
          return [minutes(sample), value !== null && Number.isFinite(value) ? value : null];
        }),
      })),
    });
    const file = path.join(REPO_ROOT, "docs", "soak.svg");
    writeFileSync(
      file,
      soakSvg(
        [panel("RSS (MB) per process", (process) => process.rssMb), panel("V8 heap used (MB) per process, at each scrape (not after GC)", (process) => process.heapUsedMb)],
        `npm run soak -- --minutes ${config.minutes}, ${new Date().toISOString().slice(0, 10)}: restarts ${restarts.map((restart) => `${restart.label} at ${(restart.atS / 60).toFixed(1)} min`).join(", ")}`,
      ),
    );
    console.info(`plot: ${path.relative(process.cwd(), file)}`);
  }

  if (errors.length > 0) throw new BenchFailure(`${errors.length} failed requests, e.g. ${JSON.stringify(errors.slice(0, 3))}`);
  if (!exactness.exact) throw new BenchFailure(`standings inexact: ${JSON.stringify(exactness.mismatches)}`);
  if (boardsDiffering > 0) throw new BenchFailure(`${boardsDiffering} socket clients' boards differ from the server's`);
} finally {
  for (const client of clients) {
    client.settled = true;
    client.socket?.disconnect();
  }
  await stopChildren();
  await sampler.end({ timeout: 5 });
  // The run's keys go with its database: the shared Redis does not fill up run after run.
  const redis = getRedis();
  for await (const keys of redis.scanStream({ match: `${world.env.REDIS_PREFIX}:*`, count: 500 }) as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
