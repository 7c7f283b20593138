/**
 * Soak: a compressed event day for many minutes against 2 web processes and 2 workers, watching that
 * nothing grows that should not (docs/RELIABILITY.md "Soak"). Participants load pages and submit (some
 * with a small file), a few sign in through /login and out through /logout again and again, judges score,
 * an admin posts announcements and notifications, imports accounts, exports CSVs, opens a gate, freezes
 * and unfreezes the scoreboard; a few dozen socket clients connect, drop and reconnect (each keeping its
 * board from the feed plus `teams:update`, and its unread-announcement count from the root loader plus
 * `new_announcement`), and in the middle a worker and then a web process are restarted. Every 5 s it
 * samples each process's metrics (RSS, heap used, heap after a forced GC every third sample, event-loop
 * lag p99, handles, sockets), Postgres (connections, largest tables, rows of the tables that grow by
 * design), Redis (memory, this run's keys by prefix), the queues and the run's S3 bucket.
 *
 * Checkpoints (every 5 minutes, and at the end): the load pauses, every client is connected again, the
 * workers drain, and the standings must be exact, every client's board and unread count equal to the
 * server's, no object orphaned either way, no Redis key pattern without an expiry that is not bounded by
 * design. At the end, each process's Postgres connections must be back within its pool. A full run also
 * fails when a process's heap after GC grew more than 5 MB or its RSS more than 20 MB from a third of the
 * run (minute 10 of 30) to its end.
 *
 * The web processes' logs go to bench/results/soak-web1.log.tmp and soak-web2.log.tmp (a 500's cause is there).
 *
 *   npm run soak [-- --minutes N] [--smoke] [--heap-snapshots DIR]
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { getEnv, resetEnvForTests } from "../app/infrastructure/env.server.ts";
import { getQueue } from "../app/infrastructure/queue.server.ts";
import { closeRedis, getRedis } from "../app/infrastructure/redis.server.ts";
import { countUnreadAnnouncements } from "../app/modules/announcements/announcements.server.ts";
import { hashPassword } from "../app/modules/auth/password.server.ts";
import type { ServerToClientEvents, TeamStanding } from "../app/modules/realtime/events.ts";
import { applyUpdateForViewer, type BoardView } from "../app/modules/standings/frozen-view.ts";
import { databaseUrlFor } from "../tests/setup/databases.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { checkStandingsExact, waitForStandingsDrained } from "./lib/exactness.ts";
import { BenchFailure, benchArgs, numberOption, report, RESULTS_DIR, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, REPO_ROOT, sleep, startWeb, startWorker, stopChild, stopChildren, type WebProcess } from "./lib/servers.ts";
import { soakSvg } from "./lib/soak-plot.ts";
import { checkRedisExpiries, checkStorage, closeAllInspectors, closeInspector, createBucket, dropBucket, heapAfterGcMb, listBucket, type RedisTtlCheck, type StorageCheck, writeHeapSnapshot } from "./lib/soak-probes.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

const args = benchArgs({ minutes: { type: "string" }, "heap-snapshots": { type: "string" } });
/** `--heap-snapshots DIR`: a V8 heap snapshot of web1 at each checkpoint, to compare (bench/lib/heap-diff.ts). */
const SNAPSHOT_DIR = args["heap-snapshots"];
if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
const profile = args.smoke
  ? { minutes: 1.5, participants: 15, judges: 2, sockets: 10, signers: 2, adminEveryMs: 6000, socketLifeMs: [5000, 15_000] as const, checkpointEveryMs: 40_000 }
  : { minutes: 30, participants: 60, judges: 5, sockets: 40, signers: 5, adminEveryMs: 20_000, socketLifeMs: [20_000, 120_000] as const, checkpointEveryMs: 5 * 60_000 };
const config = {
  minutes: numberOption(args.minutes, profile.minutes),
  participants: profile.participants,
  judges: profile.judges,
  sockets: profile.sockets,
  /** Participants who sign in through /login, browse a little and sign out through /logout, over and over. */
  signers: profile.signers,
  signerSessionMs: [5000, 20_000] as const,
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
  /** The admin's one-off actions (fraction of the run): kept clear of the checkpoints (every sixth of a full run). */
  adminActions: [
    { at: 0.05, action: "import" },
    { at: 0.12, action: "export" },
    { at: 0.25, action: "open gate 5" },
    { at: 0.37, action: "freeze" },
    { at: 0.45, action: "unfreeze" },
    { at: 0.6, action: "export" },
    { at: 0.7, action: "import" },
  ] as const,
  /** Checkpoints during the run (and one at its end). */
  checkpointEveryMs: profile.checkpointEveryMs,
  /** A forced GC (heap after GC) on every third sample: every 15 s per process. */
  gcEverySamples: 3,
  /** The growth targets, from a third of the run to its end (the issue: minute 10 to 30 of 30). */
  target: { heapGrowthMb: 5, rssGrowthMb: 20 },
  /** The event the by-design growth is projected to: 48 hours, 500 participants. */
  projection: { hours: 48, participants: 500 },
};
const runMs = config.minutes * 60_000;
const MB = 1024 * 1024;
const METRICS_TOKEN = "soak-metrics-token-0123456789abcdef0123";
const WEB_PORT = BENCH_PORT_BASE + 50;
const WORKER_METRICS_PORT = Number(process.env.WORKER_METRICS_PORT ?? BENCH_PORT_BASE + 70);
/** Each process's inspector (heap after GC): web1, web2, worker1, worker2. */
const INSPECT_PORT = BENCH_PORT_BASE + 80;
const PASSWORD = "soak-password-0123456789";

const countBy = (items: readonly string[]) => items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [item]: (counts[item] ?? 0) + 1 }), {});
const between = ([low, high]: readonly [number, number]) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

// ---------------------------------------------------------------- requests

const timings: number[] = [];
const errors: Array<{ page: string; status: number | string; atS: number }> = [];
/** Records a failed request (the first 30 printed as they happen: a busy machine's timeouts read differently from a 500). */
function failed(error: { page: string; status: number | string; atS: number }) {
  errors.push(error);
  if (errors.length <= 30) console.warn(`error at ${(error.atS / 60).toFixed(1)} min: ${error.page}: ${error.status}`);
}
let startedAt = performance.now();
const elapsedS = () => (performance.now() - startedAt) / 1000;

let inFlight = 0;
async function timed(page: string, url: string, init: RequestInit, ok: (response: Response) => boolean): Promise<Response | null> {
  const started = performance.now();
  inFlight++;
  try {
    const response = await fetch(url, { redirect: "manual", ...init });
    await response.arrayBuffer();
    timings.push(performance.now() - started);
    if (!ok(response)) failed({ page, status: response.status, atS: elapsedS() });
    return response;
  } catch (error) {
    // undici's "fetch failed" says why in its cause (a connect timeout, a reset…).
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    failed({ page, status: `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause.code ?? cause.message})` : ""}`, atS: elapsedS() });
    return null;
  } finally {
    inFlight--;
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
  /** Its `--inspect` port (the heap after GC). */
  inspectPort: number;
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
  /** V8 heap used right after a forced full GC (every `gcEverySamples`th sample; null between). */
  heapAfterGcMb: number | null;
  lagP99Ms: number | null;
  handles: number | null;
  sockets: number | null;
}

interface Sample {
  atS: number;
  processes: Record<string, ProcessSample | null>;
  /** Connections to the run's database by process (each child's DATABASE_URL names it: application_name); "bench" is this script's own pool. */
  postgres: { connections: Record<string, number>; tablesMb: Record<string, number>; rows: Record<string, number> };
  s3: { objects: number; mb: number } | null;
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

/** The tables that grow with the event by design: their rows, for the per-hour figures and the 48-hour projection. */
const GROWING_TABLES = ["audit_log", "standings_history", "submissions", "submission_versions", "submission_scores", "sessions", "announcements", "notifications", "users"] as const;

let sampleCount = 0;
async function takeSample(sampler: postgres.Sql, database: string, prefix: string, clients: SocketClient[], forceGc = false): Promise<Sample> {
  const atS = elapsedS();
  const gc = sampleCount++ % config.gcEverySamples === 0 || forceGc;
  const { byPid, workerSeries } = await scrapeAll();
  // After the scrape, not during it: a forced full GC pauses the process (its lag p99 shows it).
  const afterGc = await Promise.all(procs.map((proc) => (gc && !proc.down ? heapAfterGcMb(`${proc.label}:${proc.pid}`, proc.inspectPort) : Promise.resolve(null))));
  const processes: Sample["processes"] = {};
  for (const [index, proc] of procs.entries()) {
    const series = byPid.get(proc.pid);
    processes[proc.label] = series
      ? {
          pid: proc.pid,
          rssMb: (one(series, "process_resident_memory_bytes") ?? NaN) / MB,
          heapUsedMb: (one(series, "nodejs_heap_size_used_bytes") ?? NaN) / MB,
          heapTotalMb: (one(series, "nodejs_heap_size_total_bytes") ?? NaN) / MB,
          heapAfterGcMb: afterGc[index],
          lagP99Ms: (one(series, "nodejs_eventloop_lag_p99_seconds") ?? NaN) * 1000,
          handles: one(series, "nodejs_active_handles_total"),
          sockets: one(series, "gatekeeper_socketio_connections"),
        }
      : // Its /metrics did not answer in time (a busy machine): the heap after GC may still have been read.
        afterGc[index] === null
        ? null
        : { pid: proc.pid, rssMb: null, heapUsedMb: null, heapTotalMb: null, heapAfterGcMb: afterGc[index], lagP99Ms: null, handles: null, sockets: null };
  }
  const queues: Record<string, number> = {};
  for (const entry of workerSeries) if (entry.name === "gatekeeper_queue_jobs") queues[`${entry.labels.queue} ${entry.labels.state}`] = entry.value;

  const connectionRows = await sampler<{ name: string; connections: number }[]>`
    select coalesce(nullif(application_name, ''), 'bench') as name, count(*)::int as connections
    from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid() group by 1`;
  const connections = Object.fromEntries(connectionRows.map((row) => [row.name.replace(/^soak-/, ""), row.connections]));
  const tables = await sampler<{ name: string; bytes: string }[]>`
    select relname as name, pg_total_relation_size(relid)::text as bytes from pg_stat_user_tables order by pg_total_relation_size(relid) desc limit 6`;
  const [counts] = await sampler.unsafe<Array<Record<string, number>>>(
    `select ${GROWING_TABLES.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(", ")}`,
  );
  const s3 = await listBucket()
    .then((objects) => ({ objects: objects.length, mb: objects.reduce((sum, object) => sum + object.size, 0) / MB }))
    .catch(() => null);

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
    postgres: { connections, tablesMb: Object.fromEntries(tables.map((table) => [table.name, Number(table.bytes) / MB])), rows: { ...counts } },
    s3,
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
  userId: number;
  cookie: string;
  socket: Socket<ServerToClientEvents> | null;
  board: readonly TeamStanding[];
  /** Whose board it is, from the feed: live, or frozen with the viewer's own team live (app/modules/standings/frozen-view.ts). */
  view: BoardView;
  /** The unread-announcement count as the page keeps it: the root loader's, plus one per `new_announcement`. */
  unread: number;
  connects: number;
  /** Its board and unread count read since its last connect (a checkpoint compares only then). */
  ready: boolean;
  /** Set by the run's end: no more planned drops. */
  settled: boolean;
}

/** The board as the scoreboard feed gives it to a viewer, and whose it is. */
async function readFeed(url: string, cookie: string): Promise<{ teams: TeamStanding[]; view: BoardView }> {
  const response = await fetch(`${url}/api/v1/scoreboard`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`scoreboard feed answered ${response.status}`);
  const feed = (await response.json()) as { teams: TeamStanding[]; frozen: boolean; ownTeamId: number | null };
  return { teams: feed.teams, view: { live: !feed.frozen, ownTeamId: feed.ownTeamId } };
}

/** The unread-announcement count a page shows (the badge's screen-reader text, "12 unread"; none: 0). */
async function readUnreadBadge(url: string, cookie: string): Promise<number> {
  const response = await fetch(`${url}/timer`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`/timer answered ${response.status}`);
  return Number(/>(\d+) unread</.exec(await response.text())?.[1] ?? 0);
}

/**
 * What a browser does: open the socket, read the board, apply every `teams:update` after it as the page
 * does (the frozen-board rule for this viewer, the newest version wins).
 */
function connectClient(client: SocketClient): Promise<void> {
  const url = webUrl(client.index + client.connects);
  const socket: Socket<ServerToClientEvents> = io(url, { transports: ["websocket"], extraHeaders: { cookie: client.cookie }, reconnection: false, forceNew: true });
  client.socket = socket;
  client.connects++;
  client.ready = false;
  let pending: TeamStanding[] | null = [];
  const readBoard = async () => {
    pending ??= [];
    const feed = await readFeed(url, client.cookie);
    let board: readonly TeamStanding[] = feed.teams;
    for (const update of pending) board = applyUpdateForViewer(board, update, feed.view);
    pending = null;
    client.board = board;
    client.view = feed.view;
  };
  // The unread count: read from a page as its load does; an announcement arriving during the read may or
  // may not be in it, so the read is repeated until none arrives while it runs.
  let reading = false;
  let arrivedDuringRead = 0;
  const readUnread = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      reading = true;
      arrivedDuringRead = 0;
      const count = await readUnreadBadge(url, client.cookie);
      if (arrivedDuringRead === 0) {
        client.unread = count;
        reading = false;
        return;
      }
    }
    reading = false;
    throw new Error("announcements kept arriving during the unread count's read");
  };
  socket.on("new_announcement", () => {
    if (socket !== client.socket) return;
    if (reading) arrivedDuringRead++;
    else client.unread++;
  });
  socket.on("teams:update", (team) => {
    if (pending) pending.push(team);
    else client.board = applyUpdateForViewer(client.board, team, client.view);
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
      Promise.all([readBoard(), readUnread()]).then(
        () => {
          client.ready = true;
          resolve();
        },
        (error: unknown) => {
          failed({ page: "GET /api/v1/scoreboard, /timer (socket client)", status: String(error), atS: elapsedS() });
          resolve();
        },
      );
    });
    socket.once("connect_error", (error) => {
      if (client.settled) return reject(error);
      setTimeout(() => void connectClient(client).then(resolve, reject), 1000);
    });
  });
}

/** Set during a checkpoint: every loop waits at its next step (requests in flight finish). */
let paused = false;
/** Set while a process restarts: a checkpoint waits for it. */
let restarting = false;
async function unpaused() {
  while (paused) await sleep(100);
}

async function clientLife(client: SocketClient, endAt: number) {
  await connectClient(client);
  while (performance.now() < endAt) {
    // Connected for a while (the run's end cuts the wait short).
    await sleep(Math.min(between(config.socketLifeMs), endAt - performance.now()));
    await unpaused();
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
// The run's own bucket: every object in it is the run's, so the orphan check can list it whole.
const bucket = `gk-soak-${randomBytes(4).toString("hex")}`;
process.env.S3_BUCKET = bucket;
resetEnvForTests();
const clients: SocketClient[] = [];
const sampler = postgres(databaseUrlFor(world.database), { max: 1, onnotice: () => {} });
let bucketCreated = false;
try {
  await createBucket(bucket);
  bucketCreated = true;
  const childEnv = { ...world.env, METRICS_TOKEN, WORKER_METRICS_PORT: String(WORKER_METRICS_PORT), S3_BUCKET: bucket };
  /** Each process's own env: its Postgres connections carry its name (pg_stat_activity.application_name). */
  const envFor = (label: string) => {
    const url = new URL(world.env.DATABASE_URL);
    url.searchParams.set("application_name", `soak-${label}`);
    return { ...childEnv, DATABASE_URL: url.toString() };
  };
  const inspect = (index: number) => [`--inspect=127.0.0.1:${INSPECT_PORT + index}`];
  const webLog = (index: number) => path.join(RESULTS_DIR, `soak-web${index + 1}.log.tmp`);
  for (const index of [0, 1]) writeFileSync(webLog(index), "");
  // Page loaders, socket clients and those who sign in and out are different people: a page load of
  // /announcement resets its user's unread count, which a socket client of the same user would not see.
  const people = config.participants + config.sockets + config.signers;
  const teams = Math.ceil(people / config.teamSize);
  const seeded = await seedWorld({ teams, membersPerTeam: config.teamSize, challenges: config.challenges, judges: config.judges, submissionsPerTeam: 3 });
  const participants = seeded.participants.slice(0, config.participants);
  const socketUsers = seeded.participants.slice(config.participants, config.participants + config.sockets);
  const signers = seeded.participants.slice(config.participants + config.sockets, people);
  const cookies = await cookiesFor([...participants.map((user) => user.id), ...socketUsers.map((user) => user.id), ...seeded.judgeIds, seeded.adminId]);
  // The signers have a real password (the seed's users cannot log in); gate 5 opens during the run; the
  // event's clock is UTC (the gate form takes a local time).
  const db = getDb();
  const passwordHash = await hashPassword(PASSWORD);
  const signerNames = (
    await db.execute<{ name: string }>(sql`update users set password_hash = ${passwordHash} where id in ${sql.raw(`(${signers.map((user) => user.id).join(",") || "0"})`)} returning name`)
  ).map((row) => row.name);
  await db.execute(sql`update gates set opens_at = now() + interval '1 day' where number = 5`);
  await db.execute(sql`update event_settings set time_zone = 'UTC'`);
  const openWaves = new Set([1, 2, 3, 4]);

  const [webs, workers] = await Promise.all([
    Promise.all([0, 1].map((index) => startWeb(envFor(`web${index + 1}`), WEB_PORT + index, REPO_ROOT, inspect(index), webLog(index)))),
    Promise.all([0, 1].map((index) => startWorker(envFor(`worker${index + 1}`), inspect(2 + index)))),
  ]);
  webs.forEach((web, index) =>
    procs.push({ label: `web${index + 1}`, kind: "web", pid: web.pid, child: web.child, web, down: false, restartedAtS: null, inspectPort: INSPECT_PORT + index }),
  );
  workers.forEach((child, index) =>
    procs.push({ label: `worker${index + 1}`, kind: "worker", pid: child.pid!, child, down: false, restartedAtS: null, inspectPort: INSPECT_PORT + 2 + index }),
  );

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
  const sent = { pages: 0, submissions: 0, files: 0, scores: 0, announcements: 0, notifications: 0, signIns: 0, signOuts: 0, wrongPasswords: 0, imports: 0, exports: 0 };
  const restarts: Array<{ label: string; atS: number; tookMs: number }> = [];
  const adminDone: Array<{ action: string; atS: number }> = [];

  const participantLoop = async (index: number) => {
    const cookie = cookies.get(participants[index].id)!;
    await sleep(Math.random() * config.participantThinkMs[1]);
    while (running()) {
      await unpaused();
      const challenge = pick(seeded.challenges.filter((candidate) => openWaves.has(candidate.wave)));
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

  /** Sign in through the login form, browse a little, sign out through /logout; now and then a wrong password first. */
  const signerLoop = async (index: number) => {
    await sleep(Math.random() * 3000);
    for (let turn = 0; running(); turn++) {
      await unpaused();
      // Any web process will do (the session is the cookie's, checked against Postgres): a restarted one is skipped.
      const base = () => webUrl(index + turn);
      const form = (password: string) => new URLSearchParams({ username: signerNames[index], password, redirectTo: "/home" });
      const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
      if (index === 0 && turn % 6 === 5) {
        sent.wrongPasswords++;
        await timed("POST /login (wrong password)", `${base()}/login`, { method: "POST", headers: formHeaders, body: form("not-the-password") }, (response) => response.status === 401);
      }
      sent.signIns++;
      const signedIn = await timed("POST /login", `${base()}/login`, { method: "POST", headers: formHeaders, body: form(PASSWORD) }, isRedirect);
      const cookie = signedIn?.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
      if (!cookie) continue;
      const until = performance.now() + between(config.signerSessionMs);
      while (running() && performance.now() < until) {
        await timed("GET /home (signed in)", `${base()}/home`, { headers: { cookie } }, isPage);
        await sleep(between(config.participantThinkMs));
      }
      sent.signOuts++;
      await timed("POST /logout", `${base()}/logout`, { method: "POST", headers: { cookie } }, isRedirect);
      // The session is over: the old cookie leads to the login page.
      await timed("GET /home (after logout)", `${base()}/home`, { headers: { cookie } }, (response) => response.status === 302 && (response.headers.get("location") ?? "").includes("/login"));
      await sleep(between([1000, 3000]));
    }
  };

  const judgeLoop = async (index: number) => {
    const cookie = cookies.get(seeded.judgeIds[index])!;
    await sleep(Math.random() * config.judgeThinkMs[1]);
    while (running()) {
      await unpaused();
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

  const adminCookie = cookies.get(seeded.adminId)!;
  const adminHeaders = { cookie: adminCookie, "content-type": "application/x-www-form-urlencoded" };
  const adminLoop = async () => {
    for (let turn = 0; running(); turn++) {
      await sleep(config.adminEveryMs / 2);
      await unpaused();
      if (!running()) break;
      const base = webUrl(turn);
      if (turn % 2 === 0) {
        sent.announcements++;
        await timed("POST /dashboard (announcement)", `${base}/dashboard?index`, { method: "POST", headers: adminHeaders, body: new URLSearchParams({ title: `Update ${turn}`, content: "Lunch is served in hall B." }) }, isRedirect);
      } else {
        sent.notifications++;
        await timed("POST /dashboard/notifications", `${base}/dashboard/notifications`, { method: "POST", headers: adminHeaders, body: new URLSearchParams({ message: `Gate check ${turn}` }) }, isPage);
      }
    }
  };

  /** The admin's one-off actions of the day, through the dashboard's own forms and links. */
  let imports = 0;
  const adminAction = async (action: (typeof config.adminActions)[number]["action"]) => {
    const base = webUrl(adminDone.length);
    if (action === "import") {
      // The dashboard's bulk import: a new team of three, passwords chosen (argon2-hashed on the way in).
      imports++;
      sent.imports++;
      const csv = ["team,name,role,password", ...[1, 2, 3].map((member) => `Imported ${imports},imported${imports}_${member},participant,${PASSWORD}`)].join("\n");
      const form = new FormData();
      form.set("kind", "accounts");
      form.set("intent", "import");
      form.set("file", new Blob([csv], { type: "text/csv" }), `accounts-${imports}.csv`);
      await timed("POST /dashboard/import (accounts)", `${base}/dashboard/import`, { method: "POST", headers: { cookie: adminCookie }, body: form }, isPage);
    } else if (action === "export") {
      sent.exports += 2;
      await timed("GET /dashboard/exports/standings.csv", `${base}/dashboard/exports/standings.csv`, { headers: { cookie: adminCookie } }, isPage);
      await timed("GET /dashboard/exports/audit.csv", `${base}/dashboard/exports/audit.csv`, { headers: { cookie: adminCookie } }, isPage);
    } else if (action === "open gate 5") {
      // Opens now: the form's local time (the event's clock is UTC here), to the minute.
      const opensAt = new Date().toISOString().slice(0, 16);
      await timed(
        "POST /dashboard/settings (gate)",
        `${base}/dashboard/settings`,
        { method: "POST", headers: adminHeaders, body: new URLSearchParams({ intent: "gate", number: "5", title: "Gate 5", description: "The gate number 5", opensAt }) },
        isRedirect,
      );
      openWaves.add(5);
    } else {
      await timed(`POST /dashboard/settings (${action})`, `${base}/dashboard/settings`, { method: "POST", headers: adminHeaders, body: new URLSearchParams({ intent: action }) }, isRedirect);
    }
    adminDone.push({ action, atS: +elapsedS().toFixed(1) });
  };
  const adminDayLoop = async () => {
    for (const { at, action } of config.adminActions) {
      await sleep(Math.max(0, startedAt + runMs * at - performance.now()));
      await unpaused();
      if (!running()) break;
      await adminAction(action);
    }
  };

  /** Mid-run: a worker stops (SIGTERM) and a new one starts; later a web process does, on its port. */
  const restartLoop = async () => {
    await sleep(runMs * config.workerRestartAt);
    await unpaused();
    restarting = true;
    const worker = procs.find((proc) => proc.label === "worker2")!;
    let began = performance.now();
    worker.down = true;
    closeInspector(`${worker.label}:${worker.pid}`);
    await stopChild(worker.child, 10_000);
    const child = await startWorker(envFor("worker2"), inspect(3));
    Object.assign(worker, { child, pid: child.pid!, restartedAtS: elapsedS(), down: false });
    restarts.push({ label: "worker2", atS: +elapsedS().toFixed(1), tookMs: Math.round(performance.now() - began) });
    restarting = false;

    await sleep(Math.max(0, startedAt + runMs * config.webRestartAt - performance.now()));
    await unpaused();
    restarting = true;
    const web = procs.find((proc) => proc.label === "web2")!;
    began = performance.now();
    // Traffic moves to web1 first (a load balancer taking web2 out), then web2 drains and stops.
    web.down = true;
    await sleep(2000);
    closeInspector(`${web.label}:${web.pid}`);
    await stopChild(web.child, 10_000);
    const restarted = await startWeb(envFor("web2"), web.web!.port, REPO_ROOT, inspect(1), webLog(1));
    Object.assign(web, { web: restarted, child: restarted.child, pid: restarted.pid, restartedAtS: elapsedS(), down: false });
    restarts.push({ label: "web2", atS: +elapsedS().toFixed(1), tookMs: Math.round(performance.now() - began) });
    restarting = false;
  };

  const samplerLoop = async () => {
    while (running()) {
      const sample = await takeSample(sampler, world.database, world.env.REDIS_PREFIX, clients).catch((error: unknown) => {
        console.warn(`sample failed: ${String(error)}`);
        return null;
      });
      if (sample) {
        samples.push(sample);
        const line = procs
          .map((proc) => {
            const process = sample.processes[proc.label];
            return `${proc.label} ${process?.rssMb?.toFixed(0) ?? "-"}/${process?.heapUsedMb?.toFixed(0) ?? "-"}${process?.heapAfterGcMb ? `/${process.heapAfterGcMb.toFixed(1)}` : ""}`;
          })
          .join("  ");
        console.info(
          `${(sample.atS / 60).toFixed(1)} min  RSS/heap/after GC MB: ${line}  pg ${Object.values(sample.postgres.connections).reduce((sum, count) => sum + count, 0)}  keys ${sample.redis.runKeys}  s3 ${sample.s3?.objects ?? "-"}  sockets ${sample.socketsConnected}  requests ${sample.requests}  errors ${sample.errors}`,
        );
      }
      await sleep(Math.max(0, config.sampleEveryMs - ((performance.now() - startedAt) % config.sampleEveryMs)));
    }
  };

  // ------------------------------------------------------------ checkpoints
  interface Checkpoint {
    atS: number;
    pauseMs: number;
    drainMs: number;
    exact: boolean;
    mismatches: unknown[];
    boardsDiffering: number;
    unreadDiffering: number;
    unreadExample: unknown;
    clientsConnected: number;
    storage: StorageCheck;
    redisExpiry: RedisTtlCheck;
    frozen: boolean;
  }
  const checkpoints: Checkpoint[] = [];
  const boardKey = (board: readonly TeamStanding[]) => JSON.stringify(board.map((team) => [team.id, team.rank, team.totalScore, team.solvedCount]));
  /** The load pauses, every client is connected again, the workers drain; then the server's truth against everyone's. */
  const checkpoint = async (final: boolean): Promise<Checkpoint> => {
    // Not while a process restarts: the clients it drops would be compared mid-reconnect.
    while (restarting) await sleep(100);
    const began = performance.now();
    paused = true;
    for (const deadline = Date.now() + 30_000; inFlight > 0 && Date.now() < deadline; ) await sleep(50);
    // Clients away (a planned drop) come back by themselves within seconds; at the end they come back now.
    if (final) {
      for (const client of clients) client.settled = true;
      await Promise.all(clients.filter((client) => !client.socket?.connected).map((client) => connectClient(client).catch(() => {})));
    }
    for (const deadline = Date.now() + 30_000; clients.some((client) => !client.socket?.connected || !client.ready) && Date.now() < deadline; ) await sleep(100);
    const drainMs = await waitForStandingsDrained(60_000);
    const cleanup = getQueue("storageCleanup");
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
      const counts = await cleanup.getJobCounts("waiting", "active", "delayed", "prioritized");
      if (Object.values(counts).every((count) => count === 0)) break;
    }
    await sleep(1500); // the last updates in flight reach the sockets
    const exactness = await checkStandingsExact();
    // Each client against the board the server gives its viewer (a frozen board differs by viewer).
    const serverBoards = await Promise.all(clients.map((client) => readFeed(webUrl(client.index), client.cookie)));
    const connected = clients.filter((client) => client.socket?.connected);
    const boardsDiffering = clients.filter((client, index) => !client.socket?.connected || boardKey(client.board) !== boardKey(serverBoards[index].teams)).length;
    const unread = await Promise.all(clients.map(async (client) => ({ index: client.index, client: client.unread, server: await countUnreadAnnouncements(client.userId) })));
    const unreadWrong = unread.filter((entry) => entry.client !== entry.server);
    const [{ frozen }] = await getDb().execute<{ frozen: boolean }>(sql`select scoreboard_frozen as frozen from event_settings where id = 1`).catch(() => [{ frozen: false }]);
    const result: Checkpoint = {
      atS: +elapsedS().toFixed(1),
      pauseMs: 0,
      drainMs: Math.round(drainMs),
      exact: exactness.exact,
      mismatches: exactness.mismatches.slice(0, 3),
      boardsDiffering,
      unreadDiffering: unreadWrong.length,
      unreadExample: unreadWrong[0] ?? null,
      clientsConnected: connected.length,
      storage: await checkStorage(),
      redisExpiry: await checkRedisExpiries(world.env.REDIS_PREFIX),
      frozen,
    };
    if (SNAPSHOT_DIR) {
      const web1 = procs.find((proc) => proc.label === "web1")!;
      await heapAfterGcMb(`${web1.label}:${web1.pid}`, web1.inspectPort);
      await writeHeapSnapshot(`${web1.label}:${web1.pid}`, web1.inspectPort, path.join(SNAPSHOT_DIR, `web1-${(result.atS / 60).toFixed(1)}min.heapsnapshot`));
    }
    result.pauseMs = Math.round(performance.now() - began);
    checkpoints.push(result);
    console.info(
      `checkpoint at ${(result.atS / 60).toFixed(1)} min: standings ${result.exact ? "exact" : "INEXACT"}, boards ${clients.length - boardsDiffering}/${clients.length}, unread ${clients.length - unreadWrong.length}/${clients.length}, ` +
        `s3 ${result.storage.objects} objects (${result.storage.orphanObjects.length} orphaned, ${result.storage.missingObjects.length} missing), redis patterns without expiry ${JSON.stringify(result.redisExpiry.withoutExpiry)}, paused ${result.pauseMs} ms`,
    );
    paused = false;
    return result;
  };
  const checkpointLoop = async () => {
    for (let at = config.checkpointEveryMs; at < runMs - 10_000; at += config.checkpointEveryMs) {
      await sleep(Math.max(0, startedAt + at - performance.now()));
      if (!running()) break;
      await checkpoint(false);
    }
  };

  for (let index = 0; index < config.sockets; index++) {
    const user = socketUsers[index];
    clients.push({ index, userId: user.id, cookie: cookies.get(user.id)!, socket: null, board: [], view: { live: true, ownTeamId: null }, unread: 0, connects: 0, ready: false, settled: false });
  }
  const refresher = setInterval(() => void refreshSubmissions().catch(() => {}), 2000);
  await Promise.all([
    ...participants.map((_, index) => participantLoop(index)),
    ...signers.map((_, index) => signerLoop(index)),
    ...seeded.judgeIds.map((_, index) => judgeLoop(index)),
    adminLoop(),
    adminDayLoop(),
    restartLoop(),
    samplerLoop(),
    checkpointLoop(),
    ...clients.map((client) => clientLife(client, endAt)),
  ]);
  clearInterval(refresher);
  const loadSeconds = elapsedS();

  // The last checkpoint, at the end: every client connected again (those away included).
  const loadEndS = samples[samples.length - 1].atS;
  const final = await checkpoint(true);
  // Idle: the pools settle; then each process's connections must be back within its pool (+1: the web's LISTEN).
  await sleep(5000);
  samples.push(await takeSample(sampler, world.database, world.env.REDIS_PREFIX, clients, true));
  const poolMax = getEnv().DATABASE_POOL_MAX;
  const idleConnections = samples[samples.length - 1].postgres.connections;
  const overPool = procs.filter((proc) => (idleConnections[proc.label] ?? 0) > poolMax + 1).map((proc) => `${proc.label} ${idleConnections[proc.label]}`);

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
  // The heap after GC is read every third sample: its window holds at least two readings.
  const gcWindowS = Math.max(windowS, (config.sampleEveryMs / 1000) * config.gcEverySamples * 2);
  const rows: Array<Record<string, unknown>> = [];
  const verdicts: Array<{ series: string; growthMb: number; limitMb: number; met: boolean }> = [];
  // Per participant who acts (submits, loads pages): the socket clients and signers only read.
  const scale = config.projection.participants / participants.length;
  const addRow = (
    series: string,
    read: (sample: Sample) => number | null | undefined,
    digits: number,
    options: { fromS?: number; limitMb?: number; window?: number; byDesign?: boolean } = {},
  ) => {
    const fromS = options.fromS ?? thirdS;
    const window = options.window ?? windowS;
    const start = medianIn(read, fromS, fromS + window);
    const end = medianIn(read, endS - window, endS);
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
    if (options.limitMb !== undefined) {
      const met = end - start <= options.limitMb;
      verdicts.push({ series, growthMb: end - start, limitMb: options.limitMb, met });
      row.target = `≤ ${options.limitMb} MB: ${targetVerdict(met)}`;
    }
    // What grows by design: where it would be after 48 hours of an event of 500 participants, the growth
    // per hour taken as proportional to the participants (this run's load per participant).
    if (options.byDesign) row["48 h × 500 participants"] = +(end + perHour * config.projection.hours * scale).toFixed(digits);
    rows.push(row);
  };
  for (const proc of procs) {
    // A restarted process is measured from a sixth of the run after its restart (its own warm-up).
    const fromS = proc.restartedAtS === null ? thirdS : Math.min(endS - gcWindowS * 2, proc.restartedAtS + loadEndS / 6);
    const label = `${proc.label}${proc.restartedAtS === null ? "" : " (restarted)"}`;
    addRow(`${label} RSS MB`, (sample) => sample.processes[proc.label]?.rssMb, 1, { fromS, limitMb: config.target.rssGrowthMb });
    addRow(`${label} heap after GC MB`, (sample) => sample.processes[proc.label]?.heapAfterGcMb, 1, { fromS, limitMb: config.target.heapGrowthMb, window: gcWindowS });
    addRow(`${label} heap used MB (at scrape)`, (sample) => sample.processes[proc.label]?.heapUsedMb, 1, { fromS });
    addRow(`${label} event-loop lag p99 ms`, (sample) => sample.processes[proc.label]?.lagP99Ms, 1, { fromS });
    addRow(`${label} active handles`, (sample) => sample.processes[proc.label]?.handles, 0, { fromS });
    if (proc.kind === "web") addRow(`${label} socket connections`, (sample) => sample.processes[proc.label]?.sockets, 0, { fromS });
  }
  for (const name of [...procs.map((proc) => proc.label), "bench"]) addRow(`postgres connections ${name}`, (sample) => sample.postgres.connections[name] ?? 0, 0);
  for (const table of Object.keys(samples[samples.length - 1].postgres.tablesMb)) addRow(`postgres table ${table} MB`, (sample) => sample.postgres.tablesMb[table], 2, { byDesign: true });
  for (const table of GROWING_TABLES) addRow(`postgres rows ${table}`, (sample) => sample.postgres.rows[table], 0, { byDesign: true });
  addRow("s3 objects", (sample) => sample.s3?.objects, 0, { byDesign: true });
  addRow("s3 MB", (sample) => sample.s3?.mb, 2, { byDesign: true });
  addRow("redis used_memory MB (whole instance)", (sample) => sample.redis.usedMemoryMb, 1);
  addRow("redis keys (this run's prefix)", (sample) => sample.redis.runKeys, 0);
  for (const group of Object.keys(samples[samples.length - 1].redis.keysByPrefix).sort()) addRow(`redis keys ${group}`, (sample) => sample.redis.keysByPrefix[group] ?? 0, 0);
  for (const queue of Object.keys(samples[samples.length - 1].queues).sort()) addRow(`queue ${queue}`, (sample) => sample.queues[queue], 0);

  const all = summarise(timings);
  const growthMet = verdicts.every((verdict) => verdict.met);
  const checkpointsPassed = checkpoints.filter(
    (point) => point.exact && point.boardsDiffering === 0 && point.unreadDiffering === 0 && !point.storage.orphanObjects.length && !point.storage.missingObjects.length && !point.redisExpiry.unbounded.length,
  ).length;
  report(
    "soak",
    args.smoke,
    `Soak: ${(loadSeconds / 60).toFixed(1)} min, 2 web + 2 worker processes, ${participants.length} participants, ${signers.length} signing in and out, ${config.judges} judges, an admin, ${config.sockets} socket clients ` +
      `(${clients.reduce((sum, client) => sum + client.connects - 1, 0)} reconnects); restarts ${restarts.map((restart) => `${restart.label} at ${(restart.atS / 60).toFixed(1)} min`).join(", ") || "none"}; ` +
      `admin: ${adminDone.map((done) => `${done.action} at ${(done.atS / 60).toFixed(1)} min`).join(", ")}; ` +
      `${all.count} requests (p50 ${all.p50.toFixed(0)} ms, p99 ${all.p99.toFixed(0)} ms), errors ${targetVerdict(errors.length === 0)} (${errors.length}); ` +
      `checkpoints passed ${checkpointsPassed}/${checkpoints.length} (standings exact, boards and unread counts equal, no orphaned object, Redis keys bounded); ` +
      `Postgres connections back within the pool (${poolMax} + 1): ${targetVerdict(overPool.length === 0)}; ` +
      `growth targets (heap after GC ≤ ${config.target.heapGrowthMb} MB, RSS ≤ ${config.target.rssGrowthMb} MB, from a third of the run to its end): ${targetVerdict(growthMet)}`,
    rows,
    { config, sent, restarts, adminDone, errorsByPage: countBy(errors.map((error) => `${error.page}: ${error.status}`)), errors: errors.slice(0, 20), checkpoints, overPool, poolMax, verdicts, heapMeasure: "heapAfterGcMb: V8 heap used right after HeapProfiler.collectGarbage (DevTools protocol, every 15 s)" },
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
        points: samples.flatMap((sample): Array<[number, number | null]> => {
          const process = sample.processes[proc.label];
          const value = process ? read(process) : null;
          // Heap after GC is read on every third sample: the others are skipped, not gaps.
          if (process && value === null && read === afterGc) return [];
          return [[minutes(sample), value !== null && Number.isFinite(value) ? value : null]];
        }),
      })),
    });
    const afterGc = (process: ProcessSample) => process.heapAfterGcMb;
    const file = path.join(REPO_ROOT, "docs", "soak.svg");
    writeFileSync(
      file,
      soakSvg(
        [panel("RSS (MB) per process", (process) => process.rssMb), panel("V8 heap after a forced full GC (MB) per process", afterGc)],
        `npm run soak -- --minutes ${config.minutes}, ${new Date().toISOString().slice(0, 10)}: restarts ${restarts.map((restart) => `${restart.label} at ${(restart.atS / 60).toFixed(1)} min`).join(", ")}; checkpoints every ${config.checkpointEveryMs / 60_000} min`,
      ),
    );
    console.info(`plot: ${path.relative(process.cwd(), file)}`);
  }

  if (errors.length > 0) throw new BenchFailure(`${errors.length} failed requests, e.g. ${JSON.stringify(errors.slice(0, 3))}`);
  if (checkpointsPassed < checkpoints.length) throw new BenchFailure(`checkpoints failed: ${JSON.stringify(checkpoints.filter((point) => !point.exact || point.boardsDiffering || point.unreadDiffering || point.storage.orphanObjects.length || point.storage.missingObjects.length || point.redisExpiry.unbounded.length))}`);
  if (final.clientsConnected < clients.length) throw new BenchFailure(`${clients.length - final.clientsConnected} socket clients did not reconnect`);
  if (overPool.length > 0) throw new BenchFailure(`Postgres connections above the pool once idle: ${overPool.join(", ")}`);
  if (!args.smoke && !growthMet) throw new BenchFailure(`growth targets missed: ${JSON.stringify(verdicts.filter((verdict) => !verdict.met))}`);
} finally {
  for (const client of clients) {
    client.settled = true;
    client.socket?.disconnect();
  }
  closeAllInspectors();
  await stopChildren();
  await sampler.end({ timeout: 5 });
  // The run's keys go with its database, its bucket with them: the shared services do not fill up run after run.
  const redis = getRedis();
  for await (const keys of redis.scanStream({ match: `${world.env.REDIS_PREFIX}:*`, count: 500 }) as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  if (bucketCreated) await dropBucket().catch((error: unknown) => console.warn(`bucket ${bucket} not removed: ${String(error)}`));
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
