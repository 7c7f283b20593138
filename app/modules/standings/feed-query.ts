/**
 * The scoreboard feed's query (GET /api/v1/scoreboard, docs/API.md): `division`, and `limit`/`offset` for a
 * stretch of the board (a big screen's top N, or a page). Digits only: "1e2", "0x10", " 5" or a second value
 * is not quietly read as something else; a bad value is a 400 naming the field.
 */
import { z } from "zod";
import { messages } from "../messages.ts";

/** The most teams one feed answer's `limit` may ask for (the whole board: no `limit`). */
export const FEED_MAX_LIMIT = 1000;
/** An offset beyond any board (an event has far fewer teams): the answer's `teams` is empty. */
export const FEED_MAX_OFFSET = 1_000_000;

const m = messages.scoreboardFeed;

const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,7}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

export const feedQuerySchema = z.object({
  division: z.string().optional().meta({ description: "One of the event's `divisions` (any case); an unknown one is a 400" }),
  limit: wholeNumber(1, FEED_MAX_LIMIT, m.limitInvalid(FEED_MAX_LIMIT))
    .optional()
    .meta({ description: `At most this many teams, 1 to ${FEED_MAX_LIMIT} (the top N from \`offset\`); absent: to the end of the board` }),
  offset: wholeNumber(0, FEED_MAX_OFFSET, m.offsetInvalid(FEED_MAX_OFFSET))
    .optional()
    .meta({ description: "Skip this many teams first (0 unless given); beyond the board, `teams` is empty" }),
});

/** The query's fields, each as the first value given (a repeated one is refused: its values are a list). */
export function feedQueryFields(params: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const name of ["division", "limit", "offset"]) {
    const values = params.getAll(name);
    if (values.length) fields[name] = name === "division" ? values[0] : values.length === 1 ? values[0] : values;
  }
  return fields;
}

/** /scoreboard's `?page=` (a link's, from 1): anything but digits is the first page; one beyond the board, its last. */
export function boardPageOf(value: string | null): number {
  return value !== null && /^\d{1,7}$/.test(value) ? Math.max(1, Number(value)) : 1;
}
