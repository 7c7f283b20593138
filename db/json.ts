import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `json_build_object('key', value, …)` of these fields: rows read as one JSON value, so a page's own rows
 * can ride in a statement that also reads something else (app/modules/participant/badges.server.ts).
 * drizzle maps no column inside it: timestamps come back as ISO strings (`jsonDate`).
 */
export function jsonObjectSql(fields: Record<string, SQLWrapper>): SQL {
  const pairs = Object.entries(fields).map(([key, value]) => {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new Error(`jsonObjectSql: unsafe key ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** postgres.js parses a `json` column; a driver that does not hands over its text. */
export function parsedJson(value: unknown): unknown {
  return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
}

/** A timestamp as `to_json` writes it ("2026-11-25T06:00:00.123456+00:00"), to the millisecond as drizzle maps it. */
export function jsonDate(value: unknown): Date {
  if (typeof value !== "string") throw new Error(`jsonDate: not a timestamp (${typeof value})`);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`jsonDate: not a timestamp (${value})`);
  return date;
}

/** The FROM of a statement that selects only scalar subqueries (such as the JSON columns above): one row. */
export function oneRow(): SQL {
  return sql`(values (1)) as one (x)`;
}

/**
 * `query` as a select's column (a scalar subquery, parenthesised), nested in a SQL of its own: in a select
 * of one table or none, drizzle writes the column references it finds directly in a column's SQL without
 * their table names ("id", not "challenges"."id"), which a subquery joining two tables cannot resolve. It
 * leaves nested SQL as it is.
 */
export function scalarSubquery(query: SQL): SQL {
  return sql`(${query})`;
}
