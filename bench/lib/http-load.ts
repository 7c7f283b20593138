/**
 * Closed-loop HTTP load with autocannon (a fixed number of connections, each sending its next
 * request when the last answered), with a session cookie per request taken in turn from a pool, so
 * the load is many users, not one. Also counts the Postgres transactions the server ran meanwhile.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import postgres from "postgres";
import { databaseUrlFor } from "../../tests/setup/databases.ts";

export interface LoadOptions {
  url: string;
  cookies: readonly string[];
  connections: number;
  durationSeconds: number;
  /** The bench database: its pg_stat_database counters tell how much Postgres the requests cost. */
  database?: string;
  /** The web process: its CPU time per request is the figure least moved by other load on the machine. */
  pid?: number;
  /** Sent with every request (e.g. If-None-Match, for a poll that already holds the current ETag). */
  headers?: Record<string, string>;
  /** The status every answer must have (200 unless given); any other counts as a failure. */
  expectStatus?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  errors: number;
  /** Answers with another status than the expected one. */
  unexpected: number;
  /** Postgres transactions (each autocommit statement is one) per request, measured under load. */
  pgPerRequest: number | null;
  /** The web process's CPU (user + system) per request. */
  cpuMsPerRequest: number | null;
}

/** A process's CPU time so far (ms), from /proc (Linux). */
export function cpuTimeMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Committed + rolled back transactions of one database (flushed by busy backends about every second). */
async function pgTransactions(sql: postgres.Sql, database: string): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = ${database}`;
  return Number(row?.n ?? 0);
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let turn = 0;
  const stats = options.database ? postgres(databaseUrlFor(options.database), { max: 1, onnotice: () => {} }) : null;
  // Postgres counters are read while the load runs (idle backends flush theirs only every 10 s):
  // from the 2nd tick to the last one, against the responses counted over the same window.
  let responses = 0;
  let windowStart: { tx: number; responses: number } | null = null;
  let windowEnd: { tx: number; responses: number } | null = null;
  let ticks = 0;
  let finished: (result: autocannon.Result) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const cpuBefore = options.pid ? cpuTimeMs(options.pid) : NaN;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, ...options.headers, cookie: options.cookies[turn++ % options.cookies.length] },
        }),
      },
    ],
  }, (error, result) => (error ? failed(error) : finished(result)));
  instance.on("response", () => void responses++);
  const sampling: Array<Promise<void>> = [];
  instance.on("tick", () => {
    ticks++;
    if (!stats || !options.database) return;
    const at = responses;
    if (ticks === 2) sampling.push(pgTransactions(stats, options.database).then((tx) => void (windowStart = { tx, responses: at })));
    if (ticks === options.durationSeconds - 1) sampling.push(pgTransactions(stats, options.database).then((tx) => void (windowEnd = { tx, responses: at })));
  });
  const result = await done;
  const cpuMs = options.pid ? cpuTimeMs(options.pid) - cpuBefore : NaN;
  await Promise.all(sampling);
  await stats?.end({ timeout: 5 });
  const start = windowStart as { tx: number; responses: number } | null;
  const end = windowEnd as { tx: number; responses: number } | null;
  const pgPerRequest = start && end && end.responses > start.responses ? (end.tx - start.tx) / (end.responses - start.responses) : null;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    unexpected: result.requests.total - (result.statusCodeStats?.[`${options.expectStatus ?? 200}`]?.count ?? 0),
    pgPerRequest,
    cpuMsPerRequest: Number.isFinite(cpuMs) && result.requests.total > 0 ? cpuMs / result.requests.total : null,
  };
}
