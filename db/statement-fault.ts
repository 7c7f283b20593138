/** Postgres's error as postgres.js reports it (its SQLSTATE as `code`), possibly wrapped by drizzle as the `cause`. */
export interface PostgresErrorFields {
  code: string;
  constraint_name?: string;
}

/** The Postgres error in `error`'s chain of causes (the first with a SQLSTATE), or null. */
export function postgresErrorOf(error: unknown): PostgresErrorFields | null {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (typeof current.code === "string" && /^[0-9A-Z]{5}$/.test(current.code)) return current as PostgresErrorFields;
  }
  return null;
}

/**
 * Whether an error is a statement's fault that may lie in one of its rows rather than in the database: Postgres's
 * cardinality violations (class 21: a batch meeting one row twice, which its callers' keys are meant to rule out),
 * data exceptions (class 22), integrity constraints (class 23: a row's user or team deleted meanwhile), rollbacks
 * (class 40: a deadlock, a serialization failure) and a lock not granted within `lock_timeout` (55P03: a row
 * another transaction holds). A connection lost, a timeout or the server away is not one: sending again row by row
 * would only wait longer.
 */
export function isStatementFault(error: unknown): boolean {
  const code = postgresErrorOf(error)?.code;
  return code !== undefined && (/^(21|22|23|40)/.test(code) || code === "55P03");
}

/** Whether an error is Postgres's "lock not available" (55P03): a lock not granted within `lock_timeout`. */
export function isLockTimeout(error: unknown): boolean {
  return postgresErrorOf(error)?.code === "55P03";
}
