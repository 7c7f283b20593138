/**
 * What every participant's pages read alike (the gates, the challenges, the event's settings, the
 * announcements, the meals), read from Postgres once per change instead of once per request
 * (docs/decisions/029-shared-page-data.md).
 *
 * Each of these tables has a version that every statement changing it moves, in its own transaction
 * (migration 0016: a statement-level trigger per table, whoever writes: a page, the API, an import, an
 * operator's psql). A page reads the versions together with the viewer's own data, in one statement
 * (app/modules/participant/badges.server.ts), and a remembered read is used only while the versions of
 * the tables it depends on are still the ones it was read under: a change is seen by the very next
 * request, in every web process, with no notice to wait for. A read is labelled with the versions read
 * before it started, so it can only be newer than its label, never older.
 *
 * Without versions (the API, workers, scripts, tests calling modules directly) every read goes to Postgres.
 * Only data that is the same for every viewer goes here; what a viewer may see of it (an open gate, an
 * active challenge) is still decided per request, by server time.
 */
import { sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";

/** The tables whose versions are kept (migration 0016), in the order the versions are read. */
export const EVENT_TABLES = ["announcements", "challenges", "event_settings", "gates", "meals"] as const;
export type EventTable = (typeof EVENT_TABLES)[number];

/** The versions of the event's tables as one request read them. */
export type EventVersions = Readonly<Record<EventTable, string>>;

/** The versions, as one text column of a statement ("3,0,12,5,1" in EVENT_TABLES' order). */
export function eventVersionsSql(): SQL<string> {
  return sql<string>`(select string_agg(version::text, ',' order by table_name) from event_data_versions)`;
}

/** The column read by eventVersionsSql; null when it is missing (then nothing is remembered). */
export function parseEventVersions(column: string | null | undefined): EventVersions | null {
  const parts = column?.split(",") ?? [];
  if (parts.length !== EVENT_TABLES.length) return null;
  return Object.fromEntries(EVENT_TABLES.map((table, index) => [table, parts[index]])) as EventVersions;
}

interface Entry<T> {
  label: string;
  value: Promise<T>;
}

/**
 * `load(key)` remembered per key while `tables`' versions are unchanged; at most `maxKeys` keys (beyond,
 * the oldest are dropped). The value is shared by every request: never mutate it. A read that fails is
 * not remembered.
 */
export function sharedReadBy<K, T>(tables: readonly EventTable[], load: (key: K) => PromiseLike<T>, maxKeys = 1_000) {
  const entries = new Map<K, Entry<T>>();
  return (key: K, versions: EventVersions | null): Promise<T> => {
    // A real promise, run once: a drizzle query is a thenable that runs again at every await.
    if (versions === null) return Promise.resolve(load(key));
    const label = tables.map((table) => versions[table]).join(",");
    const hit = entries.get(key);
    if (hit && hit.label === label) return hit.value;
    if (hit) entries.delete(key);
    else if (entries.size >= maxKeys) entries.delete(entries.keys().next().value as K);
    const value = Promise.resolve(load(key));
    const entry = { label, value };
    entries.set(key, entry);
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  };
}

/** `load()` remembered while `tables`' versions are unchanged (see sharedReadBy). */
export function sharedRead<T>(tables: readonly EventTable[], load: () => PromiseLike<T>) {
  const read = sharedReadBy<null, T>(tables, () => load(), 1);
  return (versions: EventVersions | null): Promise<T> => read(null, versions);
}
