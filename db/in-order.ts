import type { SQL } from "drizzle-orm";
import type { Queryable } from "./client.ts";

export type Rows = Record<string, unknown>[];

/**
 * Sends `statements` on one connection (a transaction's) one after the other without waiting in between: one
 * write and one round trip for them all. Postgres runs them in this order, each once the one before has ended
 * (with a snapshot of its own, taken then: a statement after one that took a lock reads what was committed
 * before the lock was granted). Resolves once every one has settled, with each one's rows or error.
 *
 * Why this and not Promise.all of queries: drizzle promises nothing about the order in which queries started
 * together reach the driver, and it differs by kind (a query builder and `execute` take a different number
 * of steps on the way, as does an `await` and a direct `.then`). Here every statement takes the same way, and
 * each is started before the next (tests/integration/in-order.test.ts).
 */
export async function sendInOrder(db: Queryable, statements: readonly SQL[]): Promise<PromiseSettledResult<Rows>[]> {
  const sent = statements.map((statement) => db.execute(statement).then((rows): Rows => rows));
  return Promise.allSettled(sent);
}

/** The rows of a settled statement, or its error thrown. */
export function rowsOf(result: PromiseSettledResult<Rows>): Rows {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}
