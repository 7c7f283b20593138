/**
 * The integrity worker's comparisons (docs/domain.md "Integrity signals", docs/decisions/045-integrity-signals.md).
 * After a team sends a version, its text (and its file: the bytes' SHA-256, and a text file's words) is
 * fingerprinted; candidates are the prints of other teams on the same challenge that share an LSH band key or the
 * file's hash, found by index — never by reading every version; a candidate at least as similar as the
 * threshold makes a signal. Idempotent: a retried job finds its print and stops.
 */
import { createHash } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { challengeStarters, integritySettings, integritySignals, printBands, submissionPrints, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { openObject, readObjectStart } from "../../infrastructure/s3.server.ts";
import { decodeText, fileView } from "../submissions/file-view.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { fingerprint, type Fingerprint } from "./fingerprint.ts";
import { estimatedSimilarity, fromStored, toStored } from "./minhash.ts";

/** A text file up to this size is also compared by its words (bigger ones by their bytes only). */
export const TEXT_FILE_BYTES = 256 * 1024;
/** A file smaller than this is too small for two teams' identical copies to mean anything. */
export const MIN_FILE_BYTES = 64;

export const DEFAULT_SIMILARITY_PERCENT = 50;
export const DEFAULT_DEVICES_PER_ACCOUNT = 4;

/** The thresholds (the defaults until an admin saves them). */
export async function readIntegritySettings(db: Queryable = getDb()) {
  const [row] = await db.select().from(integritySettings).where(eq(integritySettings.id, 1));
  return { similarityPercent: row?.similarityPercent ?? DEFAULT_SIMILARITY_PERCENT, devicesPerAccount: row?.devicesPerAccount ?? DEFAULT_DEVICES_PER_ACCOUNT };
}

interface Version {
  submissionId: number;
  teamId: number;
  challengeId: number;
  versionAt: Date;
}

/** The candidates of a fingerprint: other teams' prints on the challenge sharing a band key, best per team. */
export async function similarPrints(db: Queryable, version: Version, print: Fingerprint, threshold: number) {
  const rows = await db
    .selectDistinct({ id: submissionPrints.id, teamId: submissionPrints.teamId, signature: submissionPrints.signature })
    .from(printBands)
    .innerJoin(submissionPrints, eq(submissionPrints.id, printBands.printId))
    .where(and(eq(printBands.challengeId, version.challengeId), anyOf(printBands.key, print.bands), ne(submissionPrints.teamId, version.teamId)));
  const best = new Map<number, { printId: number; similarity: number }>();
  for (const row of rows) {
    if (!row.signature) continue;
    const similarity = estimatedSimilarity(print.signature, fromStored(row.signature));
    if (similarity * 100 < threshold) continue;
    const known = best.get(row.teamId);
    if (!known || similarity > known.similarity) best.set(row.teamId, { printId: row.id, similarity });
  }
  return best;
}

/** Stores a print (none if this version's source was fingerprinted already: null), with its band keys. */
async function storePrint(db: Queryable, version: Version, source: "text" | "file", print: Fingerprint | null, contentHash: string | null, kind: "text" | "code" | "file") {
  const [row] = await db
    .insert(submissionPrints)
    .values({ ...version, source, kind, contentHash, shingles: print?.shingles ?? 0, signature: print ? toStored(print.signature) : null })
    .onConflictDoNothing()
    .returning({ id: submissionPrints.id });
  if (!row) return null;
  if (print) await db.insert(printBands).values([...new Set(print.bands)].map((key) => ({ challengeId: version.challengeId, key, printId: row.id }))).onConflictDoNothing();
  return row.id;
}

async function addSignal(db: Queryable, values: typeof integritySignals.$inferInsert) {
  const [row] = await db.insert(integritySignals).values(values).onConflictDoNothing().returning({ id: integritySignals.id });
  return row ? 1 : 0;
}

/** A file's SHA-256, streamed from storage (never held whole). */
async function fileHash(key: string): Promise<string> {
  const { body } = await openObject(key);
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Fingerprints a submission's newest version and writes its signals; returns how many signals were new.
 * Called by the `integrity` queue's worker after each version a team sends.
 */
export async function compareSubmission(submissionId: number): Promise<{ signals: number }> {
  const db = getDb();
  const [row] = await db
    .select({
      submissionId: submissions.id,
      teamId: submissions.teamId,
      challengeId: submissions.challengeId,
      versionAt: submissions.revisedAt,
      text: submissions.text,
      fileKey: submissions.fileKey,
      fileSize: submissions.fileSize,
      starter: challengeStarters.text,
      similarityPercent: integritySettings.similarityPercent,
    })
    .from(submissions)
    .leftJoin(challengeStarters, eq(challengeStarters.challengeId, submissions.challengeId))
    .leftJoin(integritySettings, eq(integritySettings.id, 1))
    .where(eq(submissions.id, submissionId));
  if (!row) return { signals: 0 };
  const version: Version = { submissionId: row.submissionId, teamId: row.teamId, challengeId: row.challengeId, versionAt: row.versionAt };
  const similarityPercent = row.similarityPercent ?? DEFAULT_SIMILARITY_PERCENT;

  // The file is read before the transaction (storage may be slow; nothing is locked meanwhile).
  let file: { hash: string; print: Fingerprint | null; kind: "text" | "code" | "file" } | null = null;
  if (row.fileKey && (row.fileSize ?? 0) >= MIN_FILE_BYTES) {
    const hash = await fileHash(row.fileKey);
    let print: Fingerprint | null = null;
    if ((row.fileSize ?? 0) <= TEXT_FILE_BYTES) {
      const bytes = await readObjectStart(row.fileKey, TEXT_FILE_BYTES);
      const text = fileView(bytes).kind === "text" ? decodeText(bytes) : null;
      if (text) print = fingerprint(text, row.starter);
    }
    file = { hash, print, kind: print?.kind ?? "file" };
  }
  const textPrint = row.text ? fingerprint(row.text, row.starter) : null;

  const added = await db.transaction(async (tx) => {
    let signals = 0;
    const similar = async (printId: number, print: Fingerprint) => {
      for (const [otherTeamId, match] of await similarPrints(tx, version, print, similarityPercent)) {
        signals += await addSignal(tx, {
          kind: "similar",
          challengeId: version.challengeId,
          teamId: version.teamId,
          otherTeamId,
          printId,
          otherPrintId: match.printId,
          similarity: Math.round(match.similarity * 100),
          sourceKey: `similar:${printId}:${otherTeamId}`,
        });
      }
    };
    if (row.text) {
      const printId = await storePrint(tx, version, "text", textPrint, null, textPrint?.kind ?? "text");
      if (printId !== null && textPrint) await similar(printId, textPrint);
    }
    if (file) {
      const printId = await storePrint(tx, version, "file", file.print, file.hash, file.kind);
      if (printId !== null) {
        const same = await tx
          .selectDistinctOn([submissionPrints.teamId], { id: submissionPrints.id, teamId: submissionPrints.teamId })
          .from(submissionPrints)
          .where(and(eq(submissionPrints.challengeId, version.challengeId), eq(submissionPrints.contentHash, file.hash), ne(submissionPrints.teamId, version.teamId)))
          .orderBy(submissionPrints.teamId, submissionPrints.versionAt);
        for (const other of same) {
          signals += await addSignal(tx, {
            kind: "identical-file",
            challengeId: version.challengeId,
            teamId: version.teamId,
            otherTeamId: other.teamId,
            printId,
            otherPrintId: other.id,
            similarity: 100,
            sourceKey: `identical-file:${printId}:${other.teamId}`,
          });
        }
        if (file.print && same.length === 0) await similar(printId, file.print);
      }
    }
    return signals;
  });
  if (added > 0) broadcastJudgingChanged();
  return { signals: added };
}

/**
 * The flag-sharing records (app/modules/flags/guess.server.ts writes one when a team sends another team's
 * per-team flag) surfaced as signals: one each, the detection stays where it is. Run by the worker's sweep.
 */
export async function surfaceFlagSharing(db: Queryable = getDb()): Promise<number> {
  const rows = await db.execute<{ id: number }>(sql`
    insert into integrity_signals (kind, challenge_id, team_id, other_team_id, similarity, details, source_key, created_at)
    select 'flag-shared', fs.challenge_id, fs.team_id, fs.owner_team_id, 100, jsonb_build_object('userId', fs.user_id, 'at', fs.at), 'flag-shared:' || fs.id, fs.at
    from flag_sharing fs
    where not exists (select 1 from integrity_signals s where s.source_key = 'flag-shared:' || fs.id)
    on conflict (source_key) do nothing
    returning id`);
  if (rows.length > 0) broadcastJudgingChanged();
  return rows.length;
}
