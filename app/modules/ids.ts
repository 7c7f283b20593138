/**
 * What a row id is, wherever one arrives from outside (a path, a query, a form, a JSON body): a
 * positive whole number that a Postgres `integer` (serial) column can hold. Anything else names no row:
 * a 404 for a path or query, a 400 for a form or body, never a query that Postgres refuses ("value out
 * of range for type integer") as a 500. docs/RELIABILITY.md (bad input).
 */
import { z } from "zod";

/** The largest value of a Postgres `integer`, the type of every id column (serial). */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * A row id in a form or body: a JSON number, or a form field's text in plain digits (the same as
 * parseRowId: no "0x10", "1e3", " 7" or "+5", which Number() would read as some other row).
 */
export const rowId = (message?: string) =>
  z.preprocess(
    (value) => (typeof value === "string" ? (parseRowId(value) ?? Number.NaN) : value),
    z.number(message ? { error: message } : undefined).int(message).min(1, message).max(MAX_ROW_ID, message),
  );

/**
 * A row id in a path or query: its digits as written (no sign, exponent, hex, spaces or leading zero),
 * or null when it cannot name a row.
 */
export function parseRowId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ROW_ID ? id : null;
}
