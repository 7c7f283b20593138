/**
 * The audit trail (docs/domain.md "Audit trail"): who changed what a team sees or is ranked by, when, from
 * where, before and after. A module that makes such a change calls `recordAudit` with the transaction of the
 * change, so a change never exists without its record and a failed change leaves none. The table is
 * append-only (the database refuses updates and deletes, migration 0012).
 */
import { type Placeholder, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { type Prebuilt, prebuilt, rowsOf, sendInOrder } from "../../../db/in-order.ts";
import { auditLog } from "../../../db/schema.ts";
import type { Role } from "../auth/access.ts";
import type { AuditKind } from "./kinds.ts";

/**
 * Who makes a change: a signed-in user through a browser session or an API token (the glue builds it from
 * the caller and the request, app/glue/actor.server.ts), or the system (the demo seed, scripts).
 */
export interface Actor {
  id: number | null;
  name: string | null;
  role: Role | null;
  // "link": a person acting through a mailed single-use link, signed in nowhere (docs/domain.md "Mail").
  via: "session" | "token" | "system" | "link";
  sessionId: number | null;
  tokenId: number | null;
  ip: string | null;
}

/** A signed-in user acting. */
export type UserActor = Actor & { id: number; name: string; role: Role };

/** The system as an actor: `name` says which part (the seed, a script). */
export function systemActor(name: string): Actor {
  return { id: null, name, role: null, via: "system", sessionId: null, tokenId: null, ip: null };
}

/** A JSON value as a record keeps it: plain data, dates as ISO text. */
export type AuditValue = Record<string, unknown>;

export interface AuditEntry {
  kind: AuditKind;
  /** The team the change is about, if one (the team filter, and a team's history, read it). */
  teamId?: number | null;
  /** The user the change is about, if one (not the actor). */
  userId?: number | null;
  /** The row changed (a submission's, challenge's, award's… id, as the kind says). */
  subjectId?: number | null;
  before?: AuditValue | null;
  after?: AuditValue | null;
  /** When, if not now: only the demo seed, which tells a story set in the past. */
  at?: Date;
}

/** Never a password or its hash in a record, whatever a caller hands over. */
const SECRET_KEYS = new Set(["password", "passwordHash", "password_hash", "token", "tokenHash", "token_hash"]);

/** A UTF-16 half of a pair standing alone: JSON can spell it, Postgres's jsonb refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * What a record keeps of a value: no secret field, dates as ISO text, and text jsonb accepts. A JSON body
 * (the API) can carry a lone surrogate ("\ud800") that a text column stores as U+FFFD but jsonb refuses,
 * which would fail the change itself; here it becomes U+FFFD too.
 */
export function scrub(value: AuditValue | null | undefined): AuditValue | null {
  if (!value) return null;
  const out: AuditValue = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEYS.has(key) || item === undefined) continue;
    out[key] = storable(item);
  }
  return out;
}

function storable(item: unknown): unknown {
  if (item instanceof Date) return item.toISOString();
  if (typeof item === "string") return item.replace(LONE_SURROGATE, "\uFFFD");
  if (Array.isArray(item)) return item.map(storable);
  if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, storable(inner)]));
  return item;
}

/**
 * Writes one record in `tx`, the transaction of the change it records. One statement built once (not the
 * query builder, whose 50 µs of CPU a record is paid on the scoring path): its text never varies, so every
 * connection prepares it once.
 */
export async function recordAudit(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
  const [written] = await sendInOrder(tx, [auditRecord({ ...auditValues(actor, entry) })]);
  rowsOf(written);
}

/** The columns of a record as the statements below name their values. */
const AUDIT_NAMES = ["auditAt", "auditKind", "actorId", "actorName", "actorRole", "via", "sessionId", "tokenId", "ip", "auditTeamId", "auditUserId", "subjectId", "before", "after"] as const;
type AuditName = (typeof AUDIT_NAMES)[number];

/** A record's INSERT: the one place its columns are written (auditInsertFrom, with no source: one record). */
function auditInsert(value: Record<AuditName, SQLWrapper>): SQL {
  return auditInsertFrom(value, null, sql`${value.after}::jsonb`);
}

const auditRecord = prebuilt(AUDIT_NAMES, (value) => auditInsert(value));

/**
 * A record written once per row of `source` (the name of a data-modifying WITH of the same statement), its
 * `after` computed by Postgres: for a change that may not happen (a flag solve its statement refuses writes no
 * record). `value` names the record's other columns as auditValuesOf gives them.
 */
export function auditInsertFrom(value: Record<AuditName, SQLWrapper>, source: SQL | null, after: SQL): SQL {
  return sql`
    insert into ${auditLog} (at, kind, actor_id, actor_name, actor_role, via, session_id, token_id, ip, team_id, user_id, subject_id, before, after)
    select coalesce(${value.auditAt}::timestamptz, now()), ${value.auditKind}, ${value.actorId}, ${value.actorName}, ${value.actorRole}, ${value.via},
      ${value.sessionId}, ${value.tokenId}, ${value.ip}, ${value.auditTeamId}, ${value.auditUserId}, ${value.subjectId},
      ${value.before}::jsonb, ${after}${source === null ? sql`` : sql` from ${source}`}`;
}

/** A record's columns' values, by the names auditInsertFrom and the prebuilt statements read. */
export function auditValuesOf(actor: Actor, entry: AuditEntry): Record<AuditName, unknown> {
  return auditValues(actor, entry);
}

export { AUDIT_NAMES };
export type { AuditName };

/** One record's statement, not yet sent: to send with a change's other statements (sendInOrder), in its transaction. */
export function auditRecordOf(actor: Actor, entry: AuditEntry): Prebuilt {
  return auditRecord({ ...auditValues(actor, entry) });
}

function auditValues(actor: Actor, entry: AuditEntry): Record<AuditName, unknown> {
  const row = auditRow(actor, entry);
  return {
    auditAt: row.at?.toISOString() ?? null,
    auditKind: row.kind,
    actorId: row.actorId,
    actorName: row.actorName,
    actorRole: row.actorRole,
    via: row.via,
    sessionId: row.sessionId,
    tokenId: row.tokenId,
    ip: row.ip,
    auditTeamId: row.teamId,
    auditUserId: row.userId,
    subjectId: row.subjectId,
    before: row.before === null ? null : JSON.stringify(row.before),
    after: row.after === null ? null : JSON.stringify(row.after),
  };
}

/**
 * A change's statement (an UPDATE, INSERT or DELETE, built once with `names`' values) with its record, as one
 * statement: `with audit_record as (insert …) <statement>`. Postgres runs a data-modifying WITH whether or not
 * the statement reads it, in the same snapshot and transaction. The scoring path uses it: one statement fewer
 * to send, bind and run on the request a judge waits for (docs/PERFORMANCE.md, "Audit trail"). The names must not be a
 * record's own (AUDIT_NAMES).
 */
export function auditedPrebuilt<Name extends string>(names: readonly Name[], statement: (values: Record<Name, Placeholder>) => SQL) {
  const make = prebuilt([...AUDIT_NAMES, ...names], (value) => sql`with audit_record as (${auditInsert(value)}) ${statement(value)}`);
  return (actor: Actor, entry: AuditEntry, values: Record<Name, unknown>): Prebuilt => make({ ...auditValues(actor, entry), ...values });
}

/** Several records in one statement (an import, a bulk change): each is one change. */
export async function recordAudits(tx: Queryable, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  for (let start = 0; start < entries.length; start += 1000) {
    await tx.insert(auditLog).values(entries.slice(start, start + 1000).map((entry) => auditRow(actor, entry)));
  }
}

function auditRow(actor: Actor, entry: AuditEntry) {
  return {
    at: entry.at,
    kind: entry.kind,
    actorId: actor.id,
    actorName: actor.name,
    actorRole: actor.role,
    via: actor.via,
    sessionId: actor.sessionId,
    tokenId: actor.tokenId,
    ip: actor.ip,
    teamId: entry.teamId ?? null,
    userId: entry.userId ?? null,
    subjectId: entry.subjectId ?? null,
    before: scrub(entry.before),
    after: scrub(entry.after),
  };
}
