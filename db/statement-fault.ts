/**
 * Whether an error is a statement's fault that may lie in one of its rows rather than in the database: Postgres's
 * data exceptions (class 22), integrity constraints (class 23: a row's user or team deleted meanwhile), rollbacks
 * (class 40: a deadlock, a serialization failure) and a lock not granted within `lock_timeout` (55P03: a row
 * another transaction holds). postgres.js reports the SQLSTATE as `code`; drizzle
 * may wrap its error as the `cause` (followed down the chain). A connection lost, a timeout or the server away is
 * not one: sending again row by row would only wait longer.
 */
export function isStatementFault(error: unknown): boolean {
  return sqlStateOf(error) !== null && (/^(22|23|40)/.test(sqlStateOf(error)!) || isLockTimeout(error));
}

/** Whether an error is Postgres's "lock not available" (55P03): a lock not granted within `lock_timeout`. */
export function isLockTimeout(error: unknown): boolean {
  return sqlStateOf(error) === "55P03";
}

/** The SQLSTATE of an error from postgres.js (its `code`), or of one it caused (drizzle wraps it as the `cause`). */
function sqlStateOf(error: unknown): string | null {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (typeof current.code === "string" && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
  }
  return null;
}
