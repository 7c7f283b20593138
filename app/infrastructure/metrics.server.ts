/**
 * Prometheus metrics (docs/operations.md says what each one means and when to act on it). One registry per
 * process; the web processes serve it at /metrics on their own port, each worker on WORKER_METRICS_PORT.
 * Every series carries `process_type` (web or worker) and `instance_name` (a worker's WORKER_NAME, else the
 * host name, and the pid), so several processes of each kind never collide even when a scraper relabels them.
 *
 * Only a scraper holding METRICS_TOKEN reads them; without a token set the endpoint does not exist.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostname } from "node:os";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { getEnv } from "./env.server.ts";
import { getLogger } from "./logger.server.ts";

export type ProcessType = "web" | "worker" | "runner";

const globalForMetrics = globalThis as typeof globalThis & { __gatekeeperMetrics?: Metrics };

/** Buckets for request and job durations, in seconds: 1 ms to 10 s. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics(processType: ProcessType) {
  const register = new Registry();
  // Always with the pid: replicas sharing a WORKER_NAME (or a host name) stay apart.
  const name = processType === "web" ? hostname() : (getEnv().WORKER_NAME ?? hostname());
  register.setDefaultLabels({ process_type: processType, instance_name: `${name}:${process.pid}` });
  // Process CPU, resident memory, heap, event-loop lag (nodejs_eventloop_lag_*), open handles.
  collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 20 });
  const registers = [register];
  // Each metric is registered on first use: a process reports only what it does (a worker no requests).
  const once = <T>(make: () => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  return {
    register,
    httpDuration: once(
      () =>
        new Histogram({
          name: "gatekeeper_http_request_duration_seconds",
          help: "Time from a request's arrival to its response's end, by route pattern, method and status",
          labelNames: ["route", "method", "status"] as const,
          buckets: DURATION_BUCKETS,
          registers,
        }),
    ),
    eventsEmitted: once(
      () =>
        new Counter({
          name: "gatekeeper_live_events_emitted_total",
          help: "Live (Socket.IO) events this process emitted, by event name (one per emit, whatever its audience)",
          labelNames: ["event"] as const,
          registers,
        }),
    ),
    jobDuration: once(
      () =>
        new Histogram({
          name: "gatekeeper_job_duration_seconds",
          help: "Time a job ran on this worker, by queue and outcome",
          labelNames: ["queue", "outcome"] as const,
          buckets: DURATION_BUCKETS,
          registers,
        }),
    ),
    jobWait: once(
      () =>
        new Histogram({
          name: "gatekeeper_job_queue_wait_seconds",
          help: "Time a job waited in its queue before a worker first took it (its delay excluded), by queue",
          labelNames: ["queue"] as const,
          buckets: DURATION_BUCKETS,
          registers,
        }),
    ),
    scoreStandings: once(
      () =>
        new Counter({
          name: "gatekeeper_score_standings_total",
          help: "Judges' scores and flag solves by how their team's standings were recomputed: in the score's own request, in the web process's batch (flag solves), handed to the queue, or neither (Redis away: the outbox sweep)",
          labelNames: ["path"] as const,
          registers,
        }),
    ),
    // The code runner (workers/runner.ts, docs/operations.md "Code runners").
    runWait: once(
      () =>
        new Histogram({
          name: "gatekeeper_run_queue_wait_seconds",
          help: "Time a code run waited from being sent to a runner taking it",
          buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
          registers,
        }),
    ),
    runDuration: once(
      () =>
        new Histogram({
          name: "gatekeeper_run_duration_seconds",
          help: "Time a runner spent judging one code run (compile and every test), by language",
          labelNames: ["language"] as const,
          buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
          registers,
        }),
    ),
    runVerdicts: once(
      () =>
        new Counter({
          name: "gatekeeper_run_verdicts_total",
          help: "Code runs judged, by verdict and language (judge errors: gatekeeper_sandbox_failures_total)",
          labelNames: ["verdict", "language"] as const,
          registers,
        }),
    ),
    sandboxFailures: once(
      () =>
        new Counter({
          name: "gatekeeper_sandbox_failures_total",
          help: "Code runs a runner failed to judge (a judge error: the platform's fault, the run queued again)",
          registers,
        }),
    ),
    liveLag: once(
      () =>
        new Histogram({
          name: "gatekeeper_standings_publish_lag_seconds",
          help: "Live path lag: from the latest transaction that changed a team's points (a score, an award) to its teams:update being published",
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
          registers,
        }),
    ),
    // A web process's batches of flag solves' standings (app/modules/standings/batcher.server.ts).
    standingsBatch: once(
      () =>
        new Histogram({
          name: "gatekeeper_standings_batch_teams",
          help: "Teams in each of this web process's batches of flag solves' standings (the solves that came while the one before ran, or within 250 ms of its start)",
          buckets: [1, 2, 5, 10, 25, 50, 100, 250],
          registers,
        }),
    ),
    // A web process's batches of wrong flag answers (app/modules/flags/guess.server.ts).
    flagWrongBatch: once(
      () =>
        new Histogram({
          name: "gatekeeper_flag_wrong_batch_answers",
          help: "Wrong flag answers in each of this web process's batches (the answers that came while the one before ran, 64 at most; answers sent again alone are not counted)",
          buckets: [1, 2, 4, 8, 16, 32, 64],
          registers,
        }),
    ),
    flagWrongAlone: once(
      () =>
        new Counter({
          name: "gatekeeper_flag_wrong_alone_total",
          help: "Wrong flag answers sent again on their own after their batch failed (a row held past 200 ms, one answer's fault)",
          registers,
        }),
    ),
    flagSolveBatch: once(
      () =>
        new Histogram({
          name: "gatekeeper_flag_solve_batch_answers",
          help: "Right flag answers in each of this web process's batches (the answers that came while the one before ran, 64 at most; answers sent again alone are not counted)",
          buckets: [1, 2, 4, 8, 16, 32, 64],
          registers,
        }),
    ),
    flagSolveAlone: once(
      () =>
        new Counter({
          name: "gatekeeper_flag_solve_alone_total",
          help: "Right flag answers sent again on their own after their batch failed (a row held past 1 s, one answer's fault); alone, each waits 1 s again for a held row, then is refused if it is still held",
          registers,
        }),
    ),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The process's metrics, created on first use. The first caller names the process type (server.ts "web",
 * workers/index.ts "worker"); code that only records (modules) calls it without one.
 */
export function getMetrics(processType: ProcessType = "web"): Metrics {
  globalForMetrics.__gatekeeperMetrics ??= createMetrics(processType);
  return globalForMetrics.__gatekeeperMetrics;
}

/**
 * A gauge read when scraped: `read` returns its value (or a value per label set). A failed read (Postgres
 * or Redis down) leaves the series out of that scrape instead of failing the whole scrape.
 */
export function gaugeOnScrape<Label extends string = never>(
  name: string,
  help: string,
  read: () => number | Promise<number> | Promise<Array<[Record<Label, string>, number]>>,
  labelNames: readonly Label[] = [],
) {
  const { register } = getMetrics();
  if (register.getSingleMetric(name)) register.removeSingleMetric(name);
  return new Gauge<Label>({
    name,
    help,
    labelNames,
    registers: [register],
    async collect() {
      this.reset();
      try {
        const value = await read();
        if (typeof value === "number") this.set(value);
        else for (const [labels, amount] of value) this.set(labels, amount);
      } catch (error) {
        getLogger().debug({ err: error, metric: name }, "metric not read");
      }
    },
  });
}

/** A counter whose total is read when scraped (`read`: a count kept elsewhere, never decreasing while the process lives). */
export function counterOnScrape(name: string, help: string, read: () => number) {
  const { register } = getMetrics();
  if (register.getSingleMetric(name)) register.removeSingleMetric(name);
  return new Counter({
    name,
    help,
    registers: [register],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** Whether the request carries the metrics token (compared in constant time). */
function authorised(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const given = Buffer.from(header.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Answers a scrape: 404 when no token is configured (metrics are never open by default), 401 without the
 * right bearer token, else the registry in Prometheus's text format.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = getEnv().METRICS_TOKEN;
  res.setHeader("Cache-Control", "no-store");
  if (!token) {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
    return;
  }
  if (!authorised(req, token)) {
    res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' }).end("Metrics need the bearer token METRICS_TOKEN");
    return;
  }
  const { register } = getMetrics();
  const body = await register.metrics();
  res.writeHead(200, { "Content-Type": register.contentType }).end(body);
}

/** How many ports after WORKER_METRICS_PORT a worker tries when that one is taken (several on one host). */
export const WORKER_METRICS_PORT_SPAN = 16;

/**
 * A worker's metrics server (only /metrics). Several workers on one host: each takes the first free port
 * from `firstPort` on (at most WORKER_METRICS_PORT_SPAN of them; the log says which). Resolves with the
 * server, or null (logged) when none is free: the worker runs on without metrics.
 */
export async function startMetricsServer(firstPort: number): Promise<Server | null> {
  for (let port = firstPort; port < firstPort + WORKER_METRICS_PORT_SPAN && port <= 65535; port++) {
    const server = await listenForMetrics(port);
    if (server) {
      getLogger().info({ port }, "worker metrics on /metrics");
      return server;
    }
  }
  getLogger().warn({ firstPort, span: WORKER_METRICS_PORT_SPAN }, "worker metrics not served: no free port (set WORKER_METRICS_PORT)");
  return null;
}

function listenForMetrics(port: number): Promise<Server | null> {
  const server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/metrics" || req.method !== "GET") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    serveMetrics(req, res).catch((error: unknown) => {
      getLogger().warn({ err: error }, "metrics scrape failed");
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  return new Promise((resolve) => {
    server.once("error", () => resolve(null));
    server.listen(port, () => resolve(server));
  });
}
