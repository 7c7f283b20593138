/**
 * The compiler or runtime each language is judged with, as the runners report it (docs/operations.md "Code
 * runners"): a runner writes its own machine's versions when it starts, and the pages show those, so a team reads
 * what judges its program even when the runners have machines of their own (or the web's image has no compilers).
 * Nothing is shown for a language no runner has reported yet.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { runnerLanguages } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import type { LanguageId } from "../../infrastructure/sandbox/languages.server.ts";

/** How long a web process keeps what it read: a runner restarted with other packages is shown within it. */
export const REPORTED_VERSIONS_TTL_MS = 60_000;
/** ...and that no runner has reported yet: the first runner's start shows within it. */
export const NONE_REPORTED_TTL_MS = 5_000;

/** A runner's report at start: each language's package and version on its machine ("not installed" included). */
export async function reportLanguageVersions(versions: ReadonlyMap<LanguageId, string>, db: Queryable = getDb()): Promise<void> {
  const rows = [...versions].map(([language, version]) => ({ language, version }));
  if (rows.length === 0) return;
  await db
    .insert(runnerLanguages)
    .values(rows)
    .onConflictDoUpdate({ target: runnerLanguages.language, set: { version: sql`excluded.version`, reportedAt: sql`now()` } });
}

let kept: { at: number; ttl: number; versions: Promise<Map<LanguageId, string>> } | null = null;

/**
 * What the runners reported, read at most once a minute per process (every 5 s while none has), the same promise
 * for callers meanwhile.
 */
export function reportedLanguageVersions(now = Date.now()): Promise<Map<LanguageId, string>> {
  if (kept && now - kept.at < kept.ttl) return kept.versions;
  const entry = { at: now, ttl: REPORTED_VERSIONS_TTL_MS, versions: Promise.resolve(new Map<LanguageId, string>()) };
  const versions = getDb()
    .select({ language: runnerLanguages.language, version: runnerLanguages.version })
    .from(runnerLanguages)
    .then((rows) => {
      if (rows.length === 0) entry.ttl = NONE_REPORTED_TTL_MS;
      return new Map(rows.map((row) => [row.language as LanguageId, row.version]));
    });
  entry.versions = versions;
  kept = entry;
  // A failed read is not kept: the next page asks again.
  versions.catch(() => {
    if (kept === entry) kept = null;
  });
  return versions;
}

/** Forgets what was read, so the next page reads the reports again (tests). */
export function forgetReportedLanguageVersions(): void {
  kept = null;
}
