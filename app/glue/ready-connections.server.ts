import { type SQL, sql } from "drizzle-orm";
import { type Prebuilt, sendInOrder } from "../../db/in-order.ts";
import { getDbHandle } from "../infrastructure/db.server.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { flagStatementsToReady } from "../modules/flags/guess.server.ts";
import { batchStatementsToReady } from "../modules/standings/recompute.server.ts";

/**
 * Every connection of the process's pool opened and readied when the process starts
 * (docs/decisions/053-connections-kept-ready.md): on each, in a transaction rolled back, the statements a burst of
 * solves runs, each prepared and planned there once and for all: with `answers` (a web process) the flag answers'
 * statements and the standings batch's; without (a worker), the batch's. The pool keeps its connections while the
 * process lives (db/client.ts). Requests that come meanwhile wait for a connection as they would behind any other
 * work. A connection opened later (Postgres restarted) plans each statement at its first use, as before. Never fails
 * the start: a failure is logged, and each statement is then planned where it is first run.
 */
export async function readyConnections({ answers }: { answers: boolean }): Promise<void> {
  const started = performance.now();
  const statements: Array<SQL | Prebuilt> = [
    sql`begin`,
    // Nothing of it waits for long: a lock held elsewhere (a rebuild's board lock) fails it, and it is logged.
    sql`set local lock_timeout = '1s'`,
    sql`set local statement_timeout = '10s'`,
    ...(answers ? flagStatementsToReady() : []),
    // Last: it sets the generic plans for the rest of the transaction.
    ...batchStatementsToReady(),
    sql`rollback`,
  ];
  try {
    await getDbHandle().eachConnection(async (db) => {
      const failed = (await sendInOrder(db, statements)).find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
    });
    getLogger().info({ ms: Math.round(performance.now() - started) }, "database connections readied");
  } catch (error) {
    // Postgres's reason, without the statement's text that drizzle's error carries.
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    getLogger().warn({ reason }, "database connections not all readied: a statement is planned where it is first run");
  }
}
