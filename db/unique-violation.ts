/**
 * Whether an error is Postgres' unique violation (code 23505), of `constraint` when one is named: postgres.js
 * reports it on its error, and drizzle may wrap that error as the `cause` (followed down the chain).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error as { code?: string; constraint_name?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return constraint ? current.constraint_name === constraint : true;
  }
  return false;
}
