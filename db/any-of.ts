import { is, Placeholder, sql, type Column, type SQL } from "drizzle-orm";

/**
 * `column = any($1)`: a list of values as ONE parameter, so the statement's text is the same whatever the
 * list's length. drizzle's `inArray` writes `in ($1, $2, …, $n)`, a new text for every n, and postgres.js
 * prepares and keeps each text on each pooled connection (and Postgres keeps its plan per backend) until
 * the connection is recycled: the soak found the web processes' heap creeping by those statements
 * (docs/reliability-log.md, "What held the web processes' heap, and the 500s"). Lint forbids `inArray` and
 * `notInArray` in app/ and workers/.
 */
const ARRAY_TYPES: Record<string, string> = {
  PgInteger: "integer",
  PgSerial: "integer",
  PgBigInt53: "bigint",
  PgBigSerial53: "bigint",
  PgText: "text",
  PgVarchar: "text",
};

/** The Postgres type of the array a list compared with this column is sent as (an enum: its own type). */
function arrayTypeOf(column: Column): SQL {
  const type = column.columnType === "PgEnumColumn" ? `"${column.getSQLType()}"` : ARRAY_TYPES[column.columnType];
  if (!type) throw new Error(`anyOf: no array type for a ${column.columnType} column (${column.name})`);
  return sql.raw(`${type}[]`);
}

/**
 * True when the column's value is one of `values` (none: false), as one parameter. `values` may be a
 * placeholder (`sql.placeholder("name")`) of a statement prepared once, given the list when it runs.
 */
export function anyOf(column: Column, values: readonly (string | number)[] | Placeholder): SQL {
  return sql`${column} = any(${is(values, Placeholder) ? values : sql.param(values)}::${arrayTypeOf(column)})`;
}

