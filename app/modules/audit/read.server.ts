/**
 * Reading the audit trail (docs/domain.md "Audit trail"): newest first, a page at a time, under any mix of
 * filters, on a table that grows to millions of rows (docs/PERFORMANCE.md "Audit trail").
 *
 * - Keyset paging: a page is the records just older (or newer) than a cursor, (at, id) of a record, never
 *   an offset; no count of the rows is ever made. Records of the same instant are ordered by id, so paging
 *   never repeats or skips one, and the cursor keeps Postgres' microseconds.
 * - Every filter alone reads one index of audit_log backwards ((at, id), (team_id, at, id), (kind, at, id),
 *   (actor_id, at, id), (user_id, at, id); migration 0012) and stops after a page; a user with a kind reads
 *   (actor_id, kind, at, id) (migration 0014), else a kind the user never made would read all they made.
 * - The user filter is two reads, each on its own index and each cut at a page: the records the user
 *   made (actor) and those about them made by someone else, merged. An `actor_id = u or user_id = u` would
 *   read neither index in order.
 */
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { shownFileName } from "../file-names.ts";
import { formatCursor, type AuditCursor, type AuditFilter, type AuditPosition } from "./schema.ts";

export interface AuditRecordRow {
  id: number;
  /** This record as a page cursor. */
  cursor: string;
  at: Date;
  kind: string;
  actor: { id: number | null; name: string | null; role: Role | null; via: "session" | "token" | "system" | "link"; sessionId: number | null; tokenId: number | null; ip: string | null };
  /** The team the change is about (its current name; null once deleted). */
  team: { id: number; name: string | null } | null;
  /** The user the change is about (their current name; null once deleted). */
  user: { id: number; name: string | null } | null;
  subjectId: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditPageResult {
  records: AuditRecordRow[];
  /** The cursor of the page just older than this one, if there are older records. */
  older: string | null;
  /** The cursor of the page just newer than this one, if this is not the newest. */
  newer: string | null;
}

interface RawRow extends Record<string, unknown> {
  id: string;
  micros: string;
  kind: string;
  actor_id: number | null;
  actor_name: string | null;
  actor_role: string | null;
  via: string;
  session_id: number | null;
  token_id: number | null;
  ip: string | null;
  team_id: number | null;
  team_name: string | null;
  user_id: number | null;
  user_name: string | null;
  subject_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A cursor's instant, exactly (microseconds): a JavaScript Date would round it to the millisecond. */
function cursorInstant(cursor: AuditCursor): SQL {
  return sql`(timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond')`;
}

/** The conditions every branch shares: team, kind, time range and the cursor. */
function commonConditions(filter: AuditFilter, position: AuditPosition): SQL[] {
  const where: SQL[] = [];
  if (filter.teamId !== undefined) where.push(sql`a.team_id = ${filter.teamId}`);
  if (filter.kind !== undefined) where.push(sql`a.kind = ${filter.kind}`);
  if (filter.from) where.push(sql`a.at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.until) where.push(sql`a.at < ${filter.until.toISOString()}::timestamptz`);
  if (position && "before" in position) where.push(sql`(a.at, a.id) < (${cursorInstant(position.before)}, ${position.before.id}::bigint)`);
  if (position && "after" in position) where.push(sql`(a.at, a.id) > (${cursorInstant(position.after)}, ${position.after.id}::bigint)`);
  return where;
}

function whereClause(conditions: SQL[]): SQL {
  return conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

/**
 * `take` records of the filter from the position, in the reading direction (newest first going older,
 * oldest first going newer), with the names of their team and user.
 */
async function readRecords(filter: AuditFilter, position: AuditPosition, take: number): Promise<RawRow[]> {
  const newer = position !== null && "after" in position;
  const direction = newer ? "asc" : "desc";
  const order = (alias: string) => sql.raw(`${alias}at ${direction}, ${alias}id ${direction}`);
  // A whole number the caller bounded: written into the text, so every plan knows how few rows it needs.
  const limit = sql.raw(String(Math.max(1, Math.floor(take))));
  const common = commonConditions(filter, position);
  let source: SQL;
  if (filter.userId === undefined) {
    source = sql`select a.* from audit_log a ${whereClause(common)} order by ${order("a.")} limit ${limit}`;
  } else {
    // Two index reads, each cut at a page; a record the user made about themselves is read once (as actor).
    const asActor = sql`select a.* from audit_log a ${whereClause([sql`a.actor_id = ${filter.userId}`, ...common])} order by ${order("a.")} limit ${limit}`;
    const aboutThem = sql`select a.* from audit_log a ${whereClause([sql`a.user_id = ${filter.userId}`, sql`a.actor_id is distinct from ${filter.userId}`, ...common])} order by ${order("a.")} limit ${limit}`;
    source = sql`(${asActor}) union all (${aboutThem}) order by ${order("")} limit ${limit}`;
  }
  const rows = await getDb().execute<RawRow>(sql`
    select p.id::text as id, (extract(epoch from p.at) * 1000000)::bigint::text as micros, p.kind,
           p.actor_id, p.actor_name, p.actor_role, p.via, p.session_id, p.token_id, p.ip,
           p.team_id, t.name as team_name, p.user_id, u.name as user_name, p.subject_id::text as subject_id, p.before, p.after
    from (${source}) p
    left join teams t on t.id = p.team_id
    left join users u on u.id = p.user_id
    order by ${order("p.")}`);
  return [...rows];
}

function toRecord(row: RawRow): AuditRecordRow {
  const cursor = formatCursor({ micros: row.micros, id: row.id });
  return {
    id: Number(row.id),
    cursor,
    at: new Date(Math.floor(Number(row.micros) / 1000)),
    kind: row.kind,
    actor: {
      id: row.actor_id,
      name: row.actor_name,
      role: row.actor_role as Role | null,
      via: row.via as AuditRecordRow["actor"]["via"],
      sessionId: row.session_id,
      tokenId: row.token_id,
      ip: row.ip,
    },
    team: row.team_id === null ? null : { id: row.team_id, name: row.team_name },
    user: row.user_id === null ? null : { id: row.user_id, name: row.user_name },
    subjectId: row.subject_id === null ? null : Number(row.subject_id),
    before: withShownFileNames(row.before),
    after: withShownFileNames(row.after),
  };
}

/** The fields of a record that hold a file's name a user chose. */
const FILE_NAME_FIELDS = ["fileName", "attachment", "attachmentName", "file"];

/** A record's fields with each file name as shown everywhere (app/modules/file-names.ts): the page, the API and the CSV alike. */
function withShownFileNames(fields: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!fields) return fields;
  const named = FILE_NAME_FIELDS.filter((field) => typeof fields[field] === "string");
  return named.length ? { ...fields, ...Object.fromEntries(named.map((field) => [field, shownFileName(fields[field] as string)])) } : fields;
}

/**
 * A page of the trail, newest first: the newest `limit` records of the filter (position null), those just
 * older than a cursor ({ before }) or those just newer ({ after }). `older` and `newer` are the cursors of
 * the neighbouring pages (null where there is none).
 */
export async function auditPage(filter: AuditFilter, position: AuditPosition, limit: number): Promise<AuditPageResult> {
  const rows = await readRecords(filter, position, limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map(toRecord);
  if (position !== null && "after" in position) {
    // Read oldest first: the page is shown newest first; older records exist (the cursor's own, at least).
    page.reverse();
    return { records: page, older: page.at(-1)?.cursor ?? null, newer: more ? page[0].cursor : null };
  }
  return {
    records: page,
    older: more ? page[page.length - 1].cursor : null,
    newer: position !== null && page.length > 0 ? page[0].cursor : null,
  };
}

/**
 * Every record of the filter, newest first, in chunks of `chunk` read one after the other by keyset (the
 * CSV export): never more than one chunk in memory, however long the trail.
 */
export async function* auditRecords(filter: AuditFilter, chunk = 1000): AsyncGenerator<AuditRecordRow[]> {
  let position: AuditPosition = null;
  for (;;) {
    const rows = await readRecords(filter, position, chunk);
    if (rows.length === 0) return;
    const records = rows.map(toRecord);
    yield records;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1];
    position = { before: { micros: last.micros, id: last.id } };
  }
}

/** The teams and users the page's filter lists, by name (deleted ones are only in the records). */
export async function auditFilterChoices() {
  const db = getDb();
  const [teamRows, userRows] = await Promise.all([
    db.execute<{ id: number; name: string }>(sql`select id, name from teams order by lower(name), id`),
    db.execute<{ id: number; name: string; role: Role }>(sql`select id, name, role from users order by role, lower(name), id`),
  ]);
  return { teams: [...teamRows], users: [...userRows] };
}
