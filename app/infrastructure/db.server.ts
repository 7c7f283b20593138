import type { SQL } from "drizzle-orm";
import { createDb, type DbHandle, type PoolStats } from "../../db/client.ts";
import { type Prebuilt, rolledBackOnEachConnection } from "../../db/in-order.ts";
import { getEnv } from "./env.server.ts";

// One pool per process, kept on globalThis so that dev rebuilds do not open a new pool each time.
const globalForDb = globalThis as typeof globalThis & { __gatekeeperDb?: DbHandle };

export function getDbHandle(): DbHandle {
  if (!globalForDb.__gatekeeperDb) {
    const env = getEnv();
    globalForDb.__gatekeeperDb = createDb(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX });
  }
  return globalForDb.__gatekeeperDb;
}

/** The process's drizzle client (created on first use, so importing this module opens nothing). */
export function getDb(): DbHandle["db"] {
  return getDbHandle().db;
}

export async function closeDb() {
  const handle = globalForDb.__gatekeeperDb;
  globalForDb.__gatekeeperDb = undefined;
  await handle?.close();
}

/**
 * `statements` run once on each connection of the process's pool, each time in a transaction rolled back
 * (rolledBackOnEachConnection; docs/decisions/053-connections-kept-ready.md). True once all have ended, false if
 * `withinMs` passed first.
 */
export function onEachConnectionRolledBack(statements: ReadonlyArray<SQL | Prebuilt>, withinMs: number): Promise<boolean> {
  const handle = getDbHandle();
  return rolledBackOnEachConnection(handle.db, handle.poolStats().max, statements, withinMs);
}

/** The process's pool load (metrics); zeros before the first query opened it. */
export function poolStats(): PoolStats {
  return globalForDb.__gatekeeperDb?.poolStats() ?? { max: getEnv().DATABASE_POOL_MAX, inFlight: 0, inUse: 0, waiting: 0, sent: 0, awaitedMs: 0 };
}

/**
 * A statement drizzle builds once per pool and then only runs (`.prepare(name)` with `sql.placeholder`s for
 * its values): for a query on every request, building it cost more CPU than Postgres running it
 * (docs/performance-log.md). A new pool (after closeDb) builds it again.
 */
export function preparedOnce<Statement>(build: (db: DbHandle["db"]) => Statement): () => Statement {
  const byPool = new WeakMap<DbHandle["db"], Statement>();
  return () => {
    const db = getDb();
    let statement = byPool.get(db);
    if (statement === undefined) {
      statement = build(db);
      byPool.set(db, statement);
    }
    return statement;
  };
}
