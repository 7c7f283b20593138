import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema.ts";

export type Database = PostgresJsDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** A database or a transaction: module functions accept either, so callers can compose them. */
export type Queryable = Database | Transaction;

export interface DbHandle {
  db: Database;
  sql: postgres.Sql;
  close: () => Promise<void>;
  /** The pool's load now: drizzle's statements and transactions in flight against its size (metrics). */
  poolStats: () => PoolStats;
}

export interface PoolStats {
  max: number;
  /** Statements and transactions of this pool started and not yet settled. */
  inFlight: number;
  /** Connections busy: a transaction holds one; single statements share them up to `max`. */
  inUse: number;
  /** What is in flight beyond the pool's size: waiting for a connection (postgres.js queues it). */
  waiting: number;
  /** Statements and transactions this pool has sent since it opened (each counted once, when sent). */
  sent: number;
  /** Milliseconds since it opened during which at least one was in flight: what a sequential caller waited on Postgres (the bench's split of a job's time). */
  awaitedMs: number;
}

/**
 * Every statement drizzle sends is a prepared statement (docs/decisions/012-prepared-statements.md). drizzle's
 * postgres.js driver asks for `prepare: false` unless a query was named with `.prepare(name)`, and postgres.js
 * must then describe each query with parameters first: a round trip of its own that also stops the pipeline
 * (a transaction's 7 reads went out one after another). Here its `unsafe` always prepares, in the pool and in
 * every transaction and savepoint drizzle opens (their callbacks get a client that prepares too).
 */
function preparing(sql: postgres.Sql | postgres.TransactionSql): postgres.Sql {
  const wrapCallbacks = (args: unknown[]) =>
    args.map((arg) => (typeof arg === "function" ? (client: postgres.TransactionSql) => (arg as (client: postgres.Sql) => unknown)(preparing(client)) : arg));
  return new Proxy(sql as postgres.Sql, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: Record<string, unknown>) =>
          (value as (...args: unknown[]) => unknown).call(target, query, parameters, { ...options, prepare: true });
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => (value as (...args: unknown[]) => unknown).apply(target, wrapCallbacks(args));
      }
      return value;
    },
  });
}

/**
 * The client drizzle is given, counting what is in flight: a statement from when it is sent (postgres.js
 * runs a query when it is awaited) until it settles, a transaction for its whole callback. postgres.js keeps
 * its connection queues to itself; this is the load they carry.
 */
type Counter = { inFlight: number; sent: number; awaitedMs: number; since: number };

function counting(sql: postgres.Sql, counter: Counter): postgres.Sql {
  const start = () => {
    if (counter.inFlight++ === 0) counter.since = performance.now();
    counter.sent++;
  };
  const settle = () => {
    if (--counter.inFlight === 0) counter.awaitedMs += performance.now() - counter.since;
  };
  return new Proxy(sql, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "begin") {
        return (...args: unknown[]) => {
          start();
          return (value as (...args: unknown[]) => Promise<unknown>).apply(target, args).finally(settle);
        };
      }
      if (property === "unsafe") {
        return (...args: unknown[]) => {
          const query = (value as (...args: unknown[]) => PromiseLike<unknown>).apply(target, args);
          const then = query.then;
          let sent = false;
          // The first `then` sends it (postgres.js's own behaviour): count it once, settle it once.
          Object.defineProperty(query, "then", {
            configurable: true,
            value(onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) {
              if (!sent) {
                sent = true;
                start();
                then.call(query, settle, settle);
              }
              return then.call(query, onFulfilled, onRejected);
            },
          });
          return query;
        };
      }
      return value;
    },
  });
}

export function createDb(url: string, options: { max?: number } = {}): DbHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Fail a request fast instead of hanging it when Postgres is down.
    connect_timeout: 5,
    // A connection is kept while the process lives (no idle close, no end of life): its prepared statements and
    // their plans are the connection's, and a connection opened again prepares and plans every statement again, at
    // the moment a burst needs it (docs/decisions/053-connections-kept-ready.md). Postgres ending one (a restart, a
    // kill) still closes it, and the pool opens another when a statement needs one.
    idle_timeout: 0,
    max_lifetime: 0,
    // Seconds a closed connection waits before it reconnects. The default grows to 20 s, and requests
    // queue behind that wait: during a Postgres restart pages hung for 15 s and writes resumed 5 s after
    // it was back (the Postgres restart drill). A reconnect happens only when a query asks for one, so a
    // short, capped wait cannot hammer a server that is down.
    backoff: (retries: number) => Math.min(0.1 * 2 ** retries, 1),
    // No JIT compilation: Postgres compiles a statement whose estimated cost passes `jit_above_cost` again at
    // every run (a prepared statement's plan is kept, its machine code is not). Ours are short; as an event's
    // tables grew, the standings batch's read passed the threshold and spent 220 ms compiling to run in 7
    // (docs/decisions/049-standings-in-batches.md). Set here, so that no server's setting brings it back.
    connection: { jit: "off" },
  });
  const counter: Counter = { inFlight: 0, sent: 0, awaitedMs: 0, since: 0 };
  const db = drizzle(counting(preparing(sql), counter), { schema });
  const max = options.max ?? 10;
  return {
    db,
    sql,
    close: () => sql.end({ timeout: 5 }),
    poolStats: () => ({ max, inFlight: counter.inFlight, inUse: Math.min(counter.inFlight, max), waiting: Math.max(0, counter.inFlight - max), sent: counter.sent, awaitedMs: counter.awaitedMs }),
  };
}
