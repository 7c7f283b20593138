/**
 * The audit trail's filters and page cursor (docs/domain.md "Audit trail"), one schema for the page's GET
 * form, its CSV export and GET /api/v1/audit. Anything that does not parse is refused with a message per
 * field (400), never silently dropped: an audit read that quietly ignored a filter would show more than
 * was asked for and look like an answer.
 *
 * Times: a datetime-local value ("2026-11-24T09:30", seconds optional) is the event's wall-clock time, as
 * every date input of the dashboard (app/modules/settings/zoned-time.ts); an ISO 8601 instant with `Z` or
 * an offset is taken as it is (scripts). `from` is included; `to` includes the whole minute, second or
 * millisecond it names, so from 10:00 to 10:00 is that minute.
 */
import { z } from "zod";
import "../form-fields.ts";
import { rowId } from "../ids.ts";
import { messages } from "../messages.ts";
import { isLocalTimeText, isRealLocalTime, zonedLocalToUtc } from "../settings/zoned-time.ts";
import { auditKindList, type AuditKind } from "./kinds.ts";

const m = messages.audit;

/** Rows on a page of the audit trail, and the most an API call may ask for. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_LIMIT = 200;

/** The page's filter fields, as typed (kept in the form, carried by the page links and the CSV link). */
export const AUDIT_FILTER_FIELDS = ["team", "user", "kind", "from", "to", "limit"] as const;

/**
 * A position in the trail, newest first: the record's instant in microseconds since 1970 (Postgres keeps
 * microseconds; a JavaScript Date would round them off and skip or repeat records) and its id, which
 * orders records of the same instant.
 */
export interface AuditCursor {
  micros: string;
  id: string;
}

const CURSOR = /^(\d{1,16})-([1-9]\d{0,17})$/;

export function formatCursor(cursor: AuditCursor): string {
  return `${cursor.micros}-${cursor.id}`;
}

export function parseCursor(value: string): AuditCursor | null {
  const match = CURSOR.exec(value);
  return match ? { micros: match[1], id: match[2] } : null;
}

const ISO_INSTANT = z.iso.datetime({ offset: true });

/** Whether a time text is an instant (with a zone) rather than the event's wall-clock time. */
function isInstantText(value: string): boolean {
  return ISO_INSTANT.safeParse(value).success;
}

/** A time filter: an instant, or a wall-clock time that exists in the event's zone. */
const timeText = (timeZone: string) =>
  z
    .string()
    .trim()
    .max(40, m.timeInvalid)
    .superRefine((value, context) => {
      if (isInstantText(value)) return;
      if (!isLocalTimeText(value)) context.addIssue({ code: "custom", message: m.timeInvalid });
      else if (!isRealLocalTime(value)) context.addIssue({ code: "custom", message: m.timeImpossible });
      // A wall-clock time the zone skips (02:30 on a spring-forward night): refused, never moved an hour.
      else if (!zonedLocalToUtc(value, timeZone)) context.addIssue({ code: "custom", message: m.timeSkipped });
    });

const cursorText = z
  .string()
  .trim()
  .refine((value) => parseCursor(value) !== null, m.cursorInvalid);

/** The query as it arrives (text), the same fields on the page, the CSV and the API. */
const auditQueryFields = (timeZone: string) =>
  z.object({
    team: rowId(m.teamInvalid).optional().meta({ description: "A team's id: records about that team" }),
    user: rowId(m.userInvalid).optional().meta({ description: "A user's id: records where the user acted, or that are about the user" }),
    kind: z.enum(auditKindList, { error: m.kindInvalid }).optional().meta({ description: "One kind of change" }),
    from: timeText(timeZone).optional().meta({
      description: "Records at or after this time: an ISO 8601 instant (with Z or an offset), or a wall-clock time in the event's time zone (2026-11-24T09:30)",
    }),
    to: timeText(timeZone).optional().meta({ description: "Records up to this time, the whole minute (or second) it names included; same forms as from" }),
    before: cursorText.optional().meta({ description: "A page cursor (`older` of an earlier answer): the records just older than it" }),
    after: cursorText.optional().meta({ description: "A page cursor (`newer` of an earlier answer): the records just newer than it" }),
    limit: z.coerce
      .number({ error: m.limitInvalid })
      .int(m.limitInvalid)
      .min(1, m.limitInvalid)
      .max(AUDIT_MAX_LIMIT, m.limitInvalid)
      .optional()
      .meta({ description: `Records per page, 1 to ${AUDIT_MAX_LIMIT} (default ${AUDIT_PAGE_SIZE})` }),
  });

/** What the trail is filtered by, as the read module takes it: `until` excluded. */
export interface AuditFilter {
  teamId?: number;
  userId?: number;
  kind?: AuditKind;
  from?: Date;
  until?: Date;
}

export type AuditPosition = { before: AuditCursor } | { after: AuditCursor } | null;

export interface AuditQuery {
  filter: AuditFilter;
  position: AuditPosition;
  limit: number;
}

/** The instant a time text names; for `to`, the first instant after the minute, second or millisecond it names. */
function instantOf(value: string, timeZone: string, end: boolean): Date | null {
  if (isInstantText(value)) {
    const instant = new Date(value);
    if (!end) return instant;
    // As for a wall-clock time: an instant to the second includes that whole second; one to the millisecond, that millisecond.
    return new Date(instant.getTime() + (/\.\d+/.test(value) ? 1 : 1000));
  }
  const start = zonedLocalToUtc(value, timeZone);
  if (!start || !end) return start;
  return new Date(start.getTime() + (/T\d{2}:\d{2}:\d{2}$/.test(value.trim()) ? 1000 : 60_000));
}

/**
 * The schema of the query, reading wall-clock times in `timeZone` (the event's). The output is what
 * `auditPage` and the CSV take.
 */
export function auditQuerySchema(timeZone: string) {
  return auditQueryFields(timeZone)
    .superRefine((query, context) => {
      if (query.before && query.after) context.addIssue({ code: "custom", path: ["after"], message: m.bothCursors });
      const from = query.from ? instantOf(query.from, timeZone, false) : null;
      const until = query.to ? instantOf(query.to, timeZone, true) : null;
      if (from && until && until.getTime() <= from.getTime()) context.addIssue({ code: "custom", path: ["to"], message: m.rangeReversed });
    })
    .transform((query): AuditQuery => {
      const before = query.before ? parseCursor(query.before) : null;
      const after = query.after ? parseCursor(query.after) : null;
      return {
        filter: {
          teamId: query.team,
          userId: query.user,
          kind: query.kind,
          from: query.from ? (instantOf(query.from, timeZone, false) ?? undefined) : undefined,
          until: query.to ? (instantOf(query.to, timeZone, true) ?? undefined) : undefined,
        },
        position: before ? { before } : after ? { after } : null,
        limit: query.limit ?? AUDIT_PAGE_SIZE,
      };
    });
}

/** The API's query parameters, for the OpenAPI document (the times are read in the event's zone at run time). */
export const AuditQuerySchema = auditQueryFields("UTC");

/** The query's text values, empty ones dropped (an empty select or date input means "any"). */
export function queryValues(searchParams: URLSearchParams): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of searchParams) {
    if (value === "") continue;
    const seen = values[key];
    // A field sent twice is refused by its schema ("Please send this field only once").
    values[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return values;
}
