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
}

export function createDb(url: string, options: { max?: number } = {}): DbHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Fail a request fast instead of hanging it when Postgres is down.
    connect_timeout: 5,
    idle_timeout: 60,
    // Seconds a closed connection waits before it reconnects. The default grows to 20 s, and requests
    // queue behind that wait: during a Postgres restart pages hung for 15 s and writes resumed 5 s after
    // it was back (the Postgres restart drill). A reconnect happens only when a query asks for one, so a
    // short, capped wait cannot hammer a server that is down.
    backoff: (retries: number) => Math.min(0.1 * 2 ** retries, 1),
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
