/**
 * The integrity worker's comparisons (docs/domain.md "Integrity signals", docs/decisions/045-integrity-signals.md).
 * After a team sends a version, its text (and its file: the bytes' SHA-256, and a text file's words) is
 * fingerprinted, an image file also by its perceptual hash (image-hash.ts); candidates are the prints of other
 * teams on the same challenge that share an LSH band key, the file's hash or an image band key, found by index —
 * never by reading every version; a candidate at least as similar as the threshold makes a signal. Idempotent: a retried job finds its print and stops.
 */
import { createHash } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { challengeStarters, challenges, imageBands, integritySettings, integritySignals, printBands, submissionPrints, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { openObject, readObjectStart } from "../../infrastructure/s3.server.ts";
import { decodeText, fileView, SNIFF_BYTES } from "../submissions/file-view.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { fingerprint, type Fingerprint } from "./fingerprint.ts";
import { estimatedSimilarity, fromStored, toStored } from "./minhash.ts";
import { IMAGE_MAX_BYTES, imageHash } from "./image-hash.server.ts";
import { hammingDistance, IMAGE_DISTANCE, imageBandKeys, imageSimilarity, toStoredHash } from "./image-hash.ts";

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

/**
 * Other teams' image prints on the challenge within IMAGE_DISTANCE bits of `hash`, the nearest per team: the
 * candidates share one of its band keys (by index), the distance is counted by Postgres.
 */
export async function nearImages(db: Queryable, version: Pick<Version, "teamId" | "challengeId">, hash: bigint) {
  const distance = sql<number>`bit_count((${submissionPrints.imageHash} # ${toStoredHash(hash).toString()}::bigint)::bit(64))::int`.mapWith(Number);
  return db
    .selectDistinctOn([submissionPrints.teamId], { id: submissionPrints.id, teamId: submissionPrints.teamId, distance })
    .from(imageBands)
    .innerJoin(submissionPrints, eq(submissionPrints.id, imageBands.printId))
    .where(and(eq(imageBands.challengeId, version.challengeId), anyOf(imageBands.key, imageBandKeys(hash)), ne(submissionPrints.teamId, version.teamId), sql`${distance} <= ${IMAGE_DISTANCE}`))
    .orderBy(submissionPrints.teamId, distance, submissionPrints.versionAt);
}

type PrintKind = (typeof submissionPrints.$inferInsert)["kind"];

/** Stores a print (none if this version's source was fingerprinted already: null), with its band keys (and an image's). */
async function storePrint(db: Queryable, version: Version, source: "text" | "file", print: Fingerprint | null, contentHash: string | null, kind: PrintKind, image: bigint | null = null) {
  const [row] = await db
    .insert(submissionPrints)
    .values({ ...version, source, kind, contentHash, shingles: print?.shingles ?? 0, signature: print ? toStored(print.signature) : null, imageHash: image === null ? null : toStoredHash(image) })
    .onConflictDoNothing()
    .returning({ id: submissionPrints.id });
  if (!row) return null;
  if (print) await db.insert(printBands).values([...new Set(print.bands)].map((key) => ({ challengeId: version.challengeId, key, printId: row.id }))).onConflictDoNothing();
  if (image !== null) await db.insert(imageBands).values(imageBandKeys(image).map((key) => ({ challengeId: version.challengeId, key, printId: row.id }))).onConflictDoNothing();
  return row.id;
}

/** The hashes of challenges' attachments (what every team is given), by storage key: an attachment's bytes never change under one key. */
const attachmentHashes = new Map<string, Promise<{ image: bigint | null; content: string | null }>>();

/**
 * A challenge's attachment's hashes: its perceptual hash when it is an image, and its content's (each null when
 * there is none, or it cannot be read).
 */
function attachmentHashesOf(key: string): Promise<{ image: bigint | null; content: string | null }> {
  let known = attachmentHashes.get(key);
  if (!known) {
    const image = readObjectStart(key, IMAGE_MAX_BYTES + 1)
      .then(imageHash)
      .then((result) => ("hash" in result ? result.hash : null))
      .catch(() => null);
    const content = fileHash(key).catch(() => null);
    known = Promise.all([image, content]).then(([image, content]) => ({ image, content }));
    if (attachmentHashes.size >= 256) attachmentHashes.delete(attachmentHashes.keys().next().value!);
    attachmentHashes.set(key, known);
  }
  return known;
}

/**
 * An uploaded file's perceptual hash when its bytes begin as an image (`start`: its first bytes, or all of a small
 * file); null for anything else, an image too big, plain or corrupt (logged: the job goes on). `given`: the
 * picture is near the challenge's own attachment (within IMAGE_DISTANCE of it): what every team was given, left
 * out of the image signals as starter code is for texts (no hash kept). Only a file byte for byte the attachment
 * is left out of the identical-file signal (a marked-up copy of it shared by two teams is still found).
 */
async function uploadedImageHash(key: string, size: number, start: Uint8Array, attachmentKey: string | null): Promise<{ image: bigint | null; given: boolean }> {
  if (fileView(start).kind !== "image" || size > IMAGE_MAX_BYTES) return { image: null, given: false };
  const bytes = start.length >= size ? start : await readObjectStart(key, IMAGE_MAX_BYTES);
  const result = await imageHash(bytes);
  if ("failed" in result) getLogger().warn({ key, reason: result.failed }, "image not hashed for the integrity signals");
  if (!("hash" in result)) return { image: null, given: false };
  const attachment = attachmentKey ? (await attachmentHashesOf(attachmentKey)).image : null;
  return attachment !== null && hammingDistance(attachment, result.hash) <= IMAGE_DISTANCE ? { image: null, given: true } : { image: result.hash, given: false };
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
      attachmentKey: challenges.attachmentKey,
      similarityPercent: integritySettings.similarityPercent,
    })
    .from(submissions)
    .leftJoin(challengeStarters, eq(challengeStarters.challengeId, submissions.challengeId))
    .leftJoin(challenges, eq(challenges.id, submissions.challengeId))
    .leftJoin(integritySettings, eq(integritySettings.id, 1))
    .where(eq(submissions.id, submissionId));
  if (!row) return { signals: 0 };
  const version: Version = { submissionId: row.submissionId, teamId: row.teamId, challengeId: row.challengeId, versionAt: row.versionAt };
  const similarityPercent = row.similarityPercent ?? DEFAULT_SIMILARITY_PERCENT;

  // The file is read before the transaction (storage may be slow; nothing is locked meanwhile).
  let file: { hash: string; print: Fingerprint | null; kind: PrintKind; image: bigint | null; sentBack: boolean } | null = null;
  if (row.fileKey && (row.fileSize ?? 0) >= MIN_FILE_BYTES) {
    const size = row.fileSize ?? 0;
    const hash = await fileHash(row.fileKey);
    let print: Fingerprint | null = null;
    // A small file is read whole (a text's words, a small image); a bigger one by its first bytes, to know it.
    const bytes = await readObjectStart(row.fileKey, size <= TEXT_FILE_BYTES ? TEXT_FILE_BYTES : SNIFF_BYTES);
    if (size <= TEXT_FILE_BYTES) {
      const text = fileView(bytes).kind === "text" ? decodeText(bytes) : null;
      if (text) print = fingerprint(text, row.starter);
    }
    const { image } = await uploadedImageHash(row.fileKey, size, bytes, row.attachmentKey);
    const sentBack = row.attachmentKey !== null && (await attachmentHashesOf(row.attachmentKey)).content === hash;
    file = { hash, print, kind: image !== null ? "image" : (print?.kind ?? "file"), image, sentBack };
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
      const printId = await storePrint(tx, version, "file", file.print, file.hash, file.kind, file.image);
      if (printId !== null && !file.sentBack) {
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
        // The same picture re-encoded: teams whose file is byte for byte the same have their signal already.
        if (file.image !== null) {
          const identical = new Set(same.map((other) => other.teamId));
          for (const other of await nearImages(tx, version, file.image)) {
            if (identical.has(other.teamId)) continue;
            signals += await addSignal(tx, {
              kind: "image",
              challengeId: version.challengeId,
              teamId: version.teamId,
              otherTeamId: other.teamId,
              printId,
              otherPrintId: other.id,
              similarity: imageSimilarity(other.distance),
              details: { distance: other.distance },
              sourceKey: `image:${printId}:${other.teamId}`,
            });
          }
        }
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
