import { postgresErrorOf, type PostgresErrorFields } from "../../db/statement-fault.ts";
import { onEachConnectionRolledBack } from "../infrastructure/db.server.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { flagStatementsToReady } from "../modules/flags/guess.server.ts";
import { batchStatementsToReady } from "../modules/standings/recompute.server.ts";

/** How long a process's start waits for its connections to be readied at most; then it starts anyway. */
const READY_WITHIN_MS = 10_000;

/**
 * Every connection of the process's pool opened and readied before the process takes work
 * (docs/decisions/053-connections-kept-ready.md): on each, in a transaction rolled back, the statements a burst of
 * solves runs, each prepared and planned there: with `answers` (a web process, before it listens) the flag answers'
 * statements and the standings batch's as a web process runs them; without (a worker, before it takes jobs), the
 * batch's as a job runs them. The pool keeps its connections while the process lives (db/client.ts). Never fails a
 * start: a failure is logged, and a statement not readied is planned where it is first run, as before; the start
 * waits READY_WITHIN_MS at most.
 */
export async function readyConnections({ answers }: { answers: boolean }): Promise<void> {
  const log = getLogger();
  const started = performance.now();
  try {
    const statements = [...(answers ? flagStatementsToReady() : []), ...batchStatementsToReady({ tryLocks: answers })];
    const ended = await onEachConnectionRolledBack(statements, READY_WITHIN_MS);
    if (ended) log.info({ ms: Math.round(performance.now() - started) }, "database connections readied");
    else log.warn({ withinMs: READY_WITHIN_MS }, "database connections not all readied in time: the process starts; a statement is planned where it is first run");
  } catch (error) {
    // Postgres's own error (its SQLSTATE and message), without the statement's text that drizzle's error carries.
    const fault = postgresErrorOf(error) as (PostgresErrorFields & { message?: string }) | null;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = fault ? `${fault.code}: ${fault.message}` : cause instanceof Error ? cause.message : String(cause);
    log.warn({ reason }, "database connections not all readied: a statement is planned where it is first run");
  }
}
