import { postgresErrorOf } from "./statement-fault.ts";

/**
 * Whether an error is Postgres' unique violation (code 23505), of `constraint` when one is named: postgres.js
 * reports it on its error, and drizzle may wrap that error as the `cause` (postgresErrorOf follows the chain).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = postgresErrorOf(error);
  if (found?.code !== "23505") return false;
  return constraint ? found.constraint_name === constraint : true;
}
