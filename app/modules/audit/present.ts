/**
 * How a record of the audit trail reads (docs/domain.md "Audit trail"), the same on the page, in the CSV
 * and in the API's `subject`: when (the event's time zone, to the second), what the change is about, and
 * its before and after as "field old → new", the fields that changed apart from those that did not.
 */
import { messages } from "../messages.ts";
import type { Language } from "../i18n/i18n.ts";
import { auditKinds, isAuditKind } from "./kinds.ts";
import type { AuditRecordRow } from "./read.server.ts";

const m = messages.audit;

const MAX_VALUE_LENGTH = 500;

const timeFormats = new Map<string, Intl.DateTimeFormat>();

function timeFormat(timeZone: string, language: Language): Intl.DateTimeFormat {
  const cacheKey = `${language} ${timeZone}`;
  let format = timeFormats.get(cacheKey);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    };
    // Arabic words, Latin digits (intlLocale in app/modules/i18n/i18n.ts).
    const locale = language === "ar" ? "ar-DZ-u-nu-latn" : "en-GB";
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      // An unknown zone name in the settings must not break the page.
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    }
    timeFormats.set(cacheKey, format);
  }
  return format;
}

/**
 * "Tue 24 Nov 2026, 10:25:07 AM" in the event's zone: the dashboard's day and 12-hour clock, with seconds
 * (built from Intl's parts, so every ICU version writes the same characters). In Arabic (the audit page's
 * other language, docs/decisions/025-english-and-arabic.md) a 24-hour clock: "الثلاثاء 24 نوفمبر 2026، 10:25:07".
 */
export function auditTimeText(instant: Date, timeZone: string, language: Language = "en"): string {
  const parts = timeFormat(timeZone, language).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? "";
  const hours24 = Number(get("hour")) % 24;
  if (language === "ar") {
    return `${get("weekday")} ${get("day")} ${get("month")} ${get("year")}، ${String(hours24).padStart(2, "0")}:${get("minute")}:${get("second")}`;
  }
  const hours = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${get("weekday")} ${get("day")} ${get("month")} ${get("year")}, ${hours}:${get("minute")}:${get("second")} ${hours24 < 12 ? "AM" : "PM"}`;
}

export function kindLabel(kind: string): string {
  return isAuditKind(kind) ? auditKinds[kind] : kind;
}

/** "submissionScore" → "submission score". */
export function fieldLabel(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/**
 * The words of a value in the page's language: the audit page passes its own (from the translation files,
 * docs/decisions/025-english-and-arabic.md); the CSV and the API keep English.
 */
export interface ValueWords {
  language: Language;
  yes: string;
  no: string;
}

const englishWords: ValueWords = { language: "en", yes: "yes", no: "no" };

/** A stored value as a reader takes it: "—" for none, yes/no, numbers with up to 2 decimals, instants in the event's zone. */
export function valueText(value: unknown, timeZone: string, words: ValueWords = englishWords): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? words.yes : words.no;
  if (typeof value === "number") return numberFormat.format(value);
  if (typeof value === "string") {
    if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) return auditTimeText(new Date(value), timeZone, words.language);
    return value.length > MAX_VALUE_LENGTH ? `${value.slice(0, MAX_VALUE_LENGTH)}…` : value;
  }
  if (Array.isArray(value)) return value.map((item) => valueText(item, timeZone, words)).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${fieldLabel(key)} ${valueText(item, timeZone, words)}`)
      .join(", ");
  }
  return String(value);
}

export interface AuditChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

export interface AuditDescription {
  /** "Submission #42": what kind of row changed, and which. */
  subject: string;
  /** Its title or name as the record gives it ("Cipher"), if any. */
  title: string | null;
  /** created: no before; deleted: no after; changed: both. */
  mode: "created" | "deleted" | "changed";
  /** The fields whose value changed (for created and deleted records: every field). */
  changed: AuditChange[];
  /** The fields the record carries whose value stayed the same. */
  unchanged: AuditChange[];
}

type Values = Record<string, unknown> | null;

const TITLE_KEYS = ["challenge", "title", "name", "team"];

function titleOf(before: Values, after: Values): string | null {
  for (const values of [after, before]) {
    for (const key of TITLE_KEYS) {
      const value = values?.[key];
      if (typeof value === "string" && value.trim()) return value;
    }
  }
  return null;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function describeRecord(
  record: { kind: string; subjectId: number | null; before: Values; after: Values },
  timeZone: string,
  words: ValueWords = englishWords,
): AuditDescription {
  const noun = m.subjects[record.kind.split(".")[0]] ?? kindLabel(record.kind);
  const subject = record.subjectId === null ? noun : `${noun} #${record.subjectId}`;
  const { before, after } = record;
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const change = (key: string): AuditChange => ({
    field: key,
    label: fieldLabel(key),
    before: valueText(before?.[key], timeZone, words),
    after: valueText(after?.[key], timeZone, words),
  });
  const mode = before && after ? "changed" : after ? "created" : before ? "deleted" : "changed";
  const changed = keys.filter((key) => mode !== "changed" || !same(before?.[key], after?.[key])).map(change);
  const unchanged = mode === "changed" ? keys.filter((key) => same(before?.[key], after?.[key])).map(change) : [];
  return { subject, title: titleOf(before, after), mode, changed, unchanged };
}

/** The change in one line: "score 80 → 65; status pending → reviewed" (the CSV's "changes" column). */
export function changesText(description: AuditDescription): string {
  return description.changed
    .map((item) =>
      description.mode === "created" ? `${item.label} ${item.after}` : description.mode === "deleted" ? `${item.label} ${item.before} (removed)` : `${item.label} ${item.before} → ${item.after}`,
    )
    .join("; ");
}

export function viaText(actor: { via: string; tokenId: number | null }): string {
  const via = m.via[actor.via] ?? actor.via;
  return actor.via === "token" && actor.tokenId !== null ? `${via} #${actor.tokenId}` : via;
}

/** A record as the page shows it: every text made on the server, in the event's zone. */
export function presentRecord(record: AuditRecordRow, timeZone: string, words: ValueWords = englishWords) {
  const description = describeRecord(record, timeZone, words);
  return {
    id: record.id,
    at: record.at.toISOString(),
    atText: auditTimeText(record.at, timeZone, words.language),
    kind: record.kind,
    kindLabel: kindLabel(record.kind),
    subjectId: record.subjectId,
    actor: {
      id: record.actor.id,
      name: record.actor.name ?? "—",
      role: record.actor.role,
      via: viaText(record.actor),
      // The parts of `via`, for the page to say it in its language.
      viaKind: record.actor.via,
      tokenId: record.actor.tokenId,
      ip: record.actor.ip,
    },
    team: record.team ? { id: record.team.id, name: record.team.name ?? m.deletedTeam(record.team.id), deleted: record.team.name === null } : null,
    user: record.user ? { id: record.user.id, name: record.user.name ?? m.deletedUser(record.user.id), deleted: record.user.name === null } : null,
    ...description,
  };
}

export type AuditRecordView = ReturnType<typeof presentRecord>;
