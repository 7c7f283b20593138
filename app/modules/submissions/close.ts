/**
 * When submissions close, in one place (docs/domain.md "Submissions"): the "submissions close" event setting,
 * else the final countdown's instant; no settings yet, never. A request begun before that instant is accepted
 * (server time), and each part of its form must start arriving by the instant plus `LATE_PART_GRACE_MS`.
 *
 * Written here two ways, side by side, and nowhere else:
 * - `submissionsCloseOf` / `submissionsOpenAt` / `lastPartBy`: what the pages and the API show (the settings
 *   page, a gate, a challenge's page) and what the upload applies to the body's parts;
 * - `submissionsCloseSql`: the same instant read in SQL, inside the transaction that saves a submission
 *   (`assertCanSubmit` in ./submit.server.ts), compared with `submissionsOpenAt`.
 * tests/integration/submissions-close-rule.test.ts checks that the two agree.
 */
import { sql, type SQL } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";

/** What the instant depends on: the event's settings row. */
export interface CloseSettings {
  finalAt: Date;
  submissionsCloseAt: Date | null;
}

/** The instant submissions close: the setting, else the final countdown's. */
export function submissionsCloseOf(settings: CloseSettings): Date {
  return settings.submissionsCloseAt ?? settings.finalAt;
}

/** The same instant in SQL, for a query that joins the settings row (`event_settings`, id 1); null without it. */
export const submissionsCloseSql: SQL<Date | null> = sql<Date | null>`coalesce(${eventSettings.submissionsCloseAt}, ${eventSettings.finalAt})`.mapWith(eventSettings.finalAt);

/** Whether a request begun at `at` may still send an answer (`closesAt` null: the event has no settings, never closed). */
export function submissionsOpenAt(closesAt: Date | null, at: Date): boolean {
  return closesAt === null || at.getTime() < closesAt.getTime();
}

/**
 * A request begun before submissions close is accepted when it completes, but each of its parts (the
 * text, the file) must start arriving by the close and this grace: a request opened just before the
 * close cannot be held open to send an answer written after it. (A file begun in time may still be
 * arriving afterwards, within the HTTP server's 15-minute request limit.)
 */
export const LATE_PART_GRACE_MS = 5_000;

/** The instant (epoch ms) by which each part of a submission's form must start arriving; undefined: no limit. */
export function lastPartBy(closesAt: Date | null): number | undefined {
  return closesAt ? closesAt.getTime() + LATE_PART_GRACE_MS : undefined;
}
