import { type Placeholder, type Query, type SQL, sql, TransactionRollbackError } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database, Queryable } from "./client.ts";

export type Rows = Record<string, unknown>[];

/** The dialect drizzle's Postgres client builds with (no casing option): the same SQL text. */
const dialect = new PgDialect();

/**
 * A statement built once: its SQL text is made the first time (drizzle's `sql.placeholder` for each value,
 * one per name in `names`), and each use only binds the values. drizzle renders a statement on every use
 * (a walk over its pieces, asking of each what it is): for the live path's statements, a tenth of a
 * millisecond a statement on this machine, more than Postgres runs most of them in (docs/performance-log.md).
 * Sent with sendInOrder, like any other statement.
 */
export function prebuilt<Name extends string>(names: readonly Name[], build: (values: Record<Name, Placeholder>) => SQL) {
  let query: Query | undefined;
  return (values: Record<Name, unknown>): Prebuilt => {
    query ??= dialect.sqlToQuery(build(Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as unknown as Record<Name, Placeholder>));
    return { query, values };
  };
}

export interface Prebuilt {
  readonly query: Query;
  readonly values: Record<string, unknown>;
}

/**
 * Sends `statements` on one connection (a transaction's) one after the other without waiting in between: one
 * write and one round trip for them all. Postgres runs them in this order, each once the one before has ended
 * (with a snapshot of its own, taken then: a statement after one that took a lock reads what was committed
 * before the lock was granted). Resolves once every one has settled, with each one's rows or error.
 *
 * Why this and not Promise.all of queries: drizzle promises nothing about the order in which queries started
 * together reach the driver, and it differs by kind (a query builder and `execute` take a different number
 * of steps on the way, as does an `await` and a direct `.then`). Here every statement takes the same way (the
 * session's prepared query, as `execute` uses it), and each is started before the next
 * (tests/integration/in-order.test.ts).
 */
export async function sendInOrder(db: Queryable, statements: ReadonlyArray<SQL | Prebuilt>): Promise<PromiseSettledResult<Rows>[]> {
  return Promise.allSettled(startInOrder(db, statements));
}

/** sendInOrder's statements, each one's own promise (for a caller that must act on one before the rest answer). */
export function startInOrder(db: Queryable, statements: ReadonlyArray<SQL | Prebuilt>): Promise<Rows>[] {
  const session = db._.session;
  return statements.map((statement) => {
    const { query, values } = "query" in statement ? statement : { query: dialect.sqlToQuery(statement), values: undefined };
    return session.prepareQuery(query, undefined, undefined, false).execute(values) as Promise<Rows>;
  });
}

/**
 * Runs that settle a prepared statement's plan: Postgres (`plan_cache_mode` auto) plans it for its values at each of
 * its first five runs, then weighs its generic plan against them and keeps the cheaper kind.
 */
export const PLANS_TO_SETTLE = 6;

/**
 * `statements` run `connections` times at once, each time in a transaction of its own that is rolled back (so they
 * must write nothing that matters), a lock waited for 1 s at most and each statement given 2 s (one past it ends its run: the
 * statements after it fail at once in the aborted transaction): a transaction holds its
 * connection to the end, so with nothing else running (a process's start) each runs on a connection of its own, and
 * leaves there the statements prepared and planned (docs/decisions/053-connections-kept-ready.md). Through the pool's
 * own transactions: a connection lost meanwhile fails its run, and the pool opens another when a statement needs one.
 * True once all have ended; false if `withinMs` passed first (the rest end by their statements' timeout). Throws the
 * first failure.
 */
export async function rolledBackOnEachConnection(db: Database, connections: number, statements: ReadonlyArray<SQL | Prebuilt>, withinMs: number): Promise<boolean> {
  const runs = Array.from({ length: connections }, () =>
    db
      .transaction(async (tx) => {
        const settled = await sendInOrder(tx, [sql`set local lock_timeout = '1s'`, sql`set local statement_timeout = '2s'`, ...statements]);
        const failed = settled.find((result) => result.status === "rejected");
        if (failed) throw failed.reason;
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(resolve, withinMs, "late")));
  try {
    const ended = await Promise.race([Promise.allSettled(runs), late]);
    if (ended === "late") return false;
    const failed = ended.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    return true;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sent first in a transaction of the live path (sendInOrder): its statements' plans are Postgres's generic
 * ones, made once per connection, not a plan made again at every run for the values given. Those statements
 * look rows up by key (a team, a submission, a user), where the generic plan is the custom one; planning them
 * again was a quarter of a millisecond of Postgres's time a score (docs/performance-log.md). Local to the
 * transaction: every other query keeps Postgres's own choice.
 */
export const GENERIC_PLANS = sql`set local plan_cache_mode = force_generic_plan`;

/**
 * Whether a COMMIT sent among other statements (sendInOrder) committed. Postgres answers a COMMIT in a
 * transaction that a failed statement aborted with the tag ROLLBACK, not an error. The failed statement's own
 * error is not always there to see: postgres.js sends a prepared statement again once when Postgres no longer
 * knows it (a migration changed a table, a `DEALLOCATE`), after whatever was already sent, so past a COMMIT and
 * a BEGIN it would succeed in the next transaction. Only the tag says the first one was rolled back.
 */
export function isCommitted(rows: Rows): boolean {
  return (rows as Rows & { command?: string }).command === "COMMIT";
}

/** A settled COMMIT (sendInOrder): its error, or ROLLBACK (isCommitted), thrown. */
export function commitOf(result: PromiseSettledResult<Rows>): void {
  if (!isCommitted(rowsOf(result))) throw new TransactionRolledBackError();
}

/** A COMMIT that Postgres ran as a ROLLBACK: the transaction before it kept nothing. */
export class TransactionRolledBackError extends Error {
  constructor() {
    super("the transaction was rolled back at its COMMIT: a statement of it failed");
    this.name = "TransactionRolledBackError";
  }
}

/** The rows of a settled statement, or its error thrown. */
export function rowsOf(result: PromiseSettledResult<Rows>): Rows {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}
