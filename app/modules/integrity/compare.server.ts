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
import { challengeStarterFiles, challengeStarters, challenges, imageBands, integritySettings, integritySignals, printBands, submissionPrints, submissions } from "../../../db/schema.ts";
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

/** The most candidates of one fingerprint whose signatures are read (those sharing the most band keys first). */
export const CANDIDATES_MAX = 500;

/**
 * The candidates of a fingerprint: other teams' prints on the challenge sharing a band key, those sharing the
 * most first (an answer at similarity s shares 32·s⁴ bands on average), at most CANDIDATES_MAX; each one's
 * signature is compared here, the best per team at least as similar as the threshold kept.
 */
export async function similarPrints(db: Queryable, version: Pick<Version, "teamId" | "challengeId">, print: Fingerprint, threshold: number) {
  const rows = await db
    .select({ id: submissionPrints.id, teamId: submissionPrints.teamId, signature: submissionPrints.signature })
    .from(printBands)
    .innerJoin(submissionPrints, eq(submissionPrints.id, printBands.printId))
    .where(and(eq(printBands.challengeId, version.challengeId), anyOf(printBands.key, [...new Set(print.bands)]), ne(submissionPrints.teamId, version.teamId)))
    .groupBy(submissionPrints.id)
    .orderBy(sql`count(*) desc`, submissionPrints.id)
    .limit(CANDIDATES_MAX);
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

/** Other teams' files on the challenge with these very bytes, the earliest per team (by index). */
function identicalFiles(db: Queryable, version: Pick<Version, "teamId" | "challengeId">, contentHash: string) {
  return db
    .selectDistinctOn([submissionPrints.teamId], { id: submissionPrints.id, teamId: submissionPrints.teamId })
    .from(submissionPrints)
    .where(and(eq(submissionPrints.challengeId, version.challengeId), eq(submissionPrints.contentHash, contentHash), ne(submissionPrints.teamId, version.teamId)))
    .orderBy(submissionPrints.teamId, submissionPrints.versionAt);
}

type PrintKind = (typeof submissionPrints.$inferInsert)["kind"];

/** A signal a new print makes, found before it is written: its other team and print, its strength. */
interface Found {
  kind: "similar" | "identical-file" | "image";
  otherTeamId: number;
  otherPrintId: number;
  similarity: number;
  details: Record<string, number>;
}

/** A Postgres int4[] literal of whole numbers (band keys, a signature). */
const intArray = (values: readonly number[]) => `{${values.join(",")}}`;

/**
 * Stores a print with its band keys (and an image's) and the signals it makes, in ONE statement (one round trip,
 * its own transaction): none of it when this version's source was fingerprinted already (a retried job: the
 * unique key), then 0. Returns how many signals were new.
 */
async function storePrint(db: Queryable, version: Version, source: "text" | "file", print: { fingerprint: Fingerprint | null; contentHash: string | null; kind: PrintKind; image: bigint | null }, found: Found[]): Promise<number> {
  const bands = print.fingerprint ? [...new Set(print.fingerprint.bands)] : [];
  const imageKeys = print.image === null ? [] : imageBandKeys(print.image);
  const [row] = await db.execute<{ signals: number }>(sql`
    with print as (
      insert into ${submissionPrints} (submission_id, team_id, challenge_id, version_at, source, kind, content_hash, shingles, signature, image_hash)
      values (${version.submissionId}, ${version.teamId}, ${version.challengeId}, ${version.versionAt.toISOString()}::timestamptz, ${source}, ${print.kind}, ${print.contentHash},
        ${print.fingerprint?.shingles ?? 0}, ${print.fingerprint ? intArray(toStored(print.fingerprint.signature)) : null}::int[], ${print.image === null ? null : toStoredHash(print.image).toString()}::bigint)
      on conflict do nothing
      returning id
    ), bands as (
      insert into ${printBands} (challenge_id, key, print_id)
      select ${version.challengeId}, key, print.id from print, unnest(${intArray(bands)}::int[]) as key
      on conflict do nothing
    ), image_keys as (
      insert into ${imageBands} (challenge_id, key, print_id)
      select ${version.challengeId}, key, print.id from print, unnest(${intArray(imageKeys)}::int[]) as key
      on conflict do nothing
    ), signals as (
      insert into ${integritySignals} (kind, challenge_id, team_id, other_team_id, print_id, other_print_id, similarity, details, source_key)
      select found.kind, ${version.challengeId}, ${version.teamId}, found.other_team_id, print.id, found.other_print_id, found.similarity, found.details, found.kind || ':' || print.id || ':' || found.other_team_id
      from print, jsonb_to_recordset(${JSON.stringify(found.map((one) => ({ kind: one.kind, other_team_id: one.otherTeamId, other_print_id: one.otherPrintId, similarity: one.similarity, details: one.details })))}::jsonb)
        as found(kind text, other_team_id int, other_print_id int, similarity int, details jsonb)
      on conflict do nothing
      returning 1
    )
    select (select count(*) from signals)::int as signals`);
  return Number(row?.signals ?? 0);
}

/** What a file every team is given says: its bytes' SHA-256, its perceptual hash (an image), its text (a text file); each null when none. */
interface Given {
  content: string | null;
  image: bigint | null;
  text: string | null;
}

/** The files every team is given (a challenge's attachment, its starter files), by storage key: an object's bytes never change under one key. */
const givenFiles = new Map<string, Promise<Given>>();

/**
 * A given file, read once per worker process (then remembered, 256 at most; one that could not be read is
 * tried again next time). Attachments and starter files are at most 20 MB: read whole, in one request.
 */
function givenFile(key: string): Promise<Given> {
  let known = givenFiles.get(key);
  if (!known) {
    known = (async (): Promise<Given> => {
      const bytes = await readObjectStart(key, IMAGE_MAX_BYTES + 1);
      if (bytes.length > IMAGE_MAX_BYTES) return { content: await fileHash(key), image: null, text: null };
      const view = fileView(bytes);
      const image = view.kind === "image" ? await imageHash(bytes) : null;
      return {
        content: sha256(bytes),
        image: image && "hash" in image ? image.hash : null,
        text: view.kind === "text" && bytes.length <= TEXT_FILE_BYTES ? decodeText(bytes) : null,
      };
    })().catch((error: unknown) => {
      getLogger().warn({ err: error, key }, "a given file not read for the integrity signals");
      givenFiles.delete(key);
      return { content: null, image: null, text: null };
    });
    if (givenFiles.size >= 256) givenFiles.delete(givenFiles.keys().next().value!);
    givenFiles.set(key, known);
  }
  return known;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A file's SHA-256, streamed from storage (never held whole). */
async function fileHash(key: string): Promise<string> {
  const { body } = await openObject(key);
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * An uploaded file's SHA-256 and the bytes the comparison reads, in as few requests as it allows: a file up to
 * TEXT_FILE_BYTES is read whole once (its hash from memory); a bigger image up to IMAGE_MAX_BYTES too, after its
 * first bytes said it is one; anything else by its first bytes, its hash streamed.
 */
async function readUpload(key: string, size: number): Promise<{ hash: string; bytes: Uint8Array; whole: boolean }> {
  const first = size <= TEXT_FILE_BYTES ? TEXT_FILE_BYTES : SNIFF_BYTES;
  const start = await readObjectStart(key, first + 1);
  // Fewer bytes than asked: the object ended (whatever its recorded size said).
  if (start.length <= first) return { hash: sha256(start), bytes: start, whole: true };
  if (fileView(start).kind === "image" && size <= IMAGE_MAX_BYTES) {
    const bytes = await readObjectStart(key, IMAGE_MAX_BYTES + 1);
    if (bytes.length <= IMAGE_MAX_BYTES) return { hash: sha256(bytes), bytes, whole: true };
  }
  return { hash: await fileHash(key), bytes: start, whole: false };
}

/**
 * An uploaded file's perceptual hash when its bytes are an image (read whole); null for anything else, an image
 * too big, plain or corrupt (logged: the job goes on), or one within IMAGE_DISTANCE of a given image (what every
 * team was given, left out as starter code is for texts: no hash kept).
 */
async function uploadedImageHash(key: string, bytes: Uint8Array, whole: boolean, given: Given[]): Promise<bigint | null> {
  if (!whole || fileView(bytes).kind !== "image") return null;
  const result = await imageHash(bytes);
  if ("failed" in result) getLogger().warn({ key, reason: result.failed }, "image not hashed for the integrity signals");
  if (!("hash" in result)) return null;
  return given.some((one) => one.image !== null && hammingDistance(one.image, result.hash) <= IMAGE_DISTANCE) ? null : result.hash;
}

/** The best match per other team as 'similar' signals. */
const similarFound = (best: Map<number, { printId: number; similarity: number }>): Found[] =>
  [...best].map(([otherTeamId, match]) => ({ kind: "similar", otherTeamId, otherPrintId: match.printId, similarity: Math.round(match.similarity * 100), details: {} }));

/**
 * Fingerprints a submission's newest version and writes its signals; returns how many signals were new.
 * Called by the `integrity` queue's worker after each version a team sends. Three steps of round trips
 * (docs/PERFORMANCE.md "Integrity signals"): one read of the version, its challenge's starter text and files
 * and whether it was fingerprinted already; the candidates' reads, side by side; each print written with its
 * band keys and signals in one statement. Nothing is locked while storage is read or signatures compared.
 */
export async function compareSubmission(submissionId: number): Promise<{ signals: number }> {
  const db = getDb();
  const printed = (source: "text" | "file") =>
    sql<boolean>`exists (select 1 from ${submissionPrints} where ${submissionPrints.submissionId} = ${submissions.id} and ${submissionPrints.versionAt} = date_trunc('milliseconds', ${submissions.revisedAt}) and ${submissionPrints.source} = ${source})`;
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
      starterFiles: sql<string[]>`coalesce((select array_agg(${challengeStarterFiles.fileKey} order by ${challengeStarterFiles.id}) from ${challengeStarterFiles} where ${challengeStarterFiles.challengeId} = ${submissions.challengeId}), '{}')`,
      similarityPercent: integritySettings.similarityPercent,
      textPrinted: printed("text"),
      filePrinted: printed("file"),
    })
    .from(submissions)
    .leftJoin(challengeStarters, eq(challengeStarters.challengeId, submissions.challengeId))
    .leftJoin(challenges, eq(challenges.id, submissions.challengeId))
    .leftJoin(integritySettings, eq(integritySettings.id, 1))
    .where(eq(submissions.id, submissionId));
  if (!row) return { signals: 0 };
  const version: Version = { submissionId: row.submissionId, teamId: row.teamId, challengeId: row.challengeId, versionAt: row.versionAt };
  const similarityPercent = row.similarityPercent ?? DEFAULT_SIMILARITY_PERCENT;
  const withText = Boolean(row.text) && !row.textPrinted;
  const withFile = Boolean(row.fileKey) && (row.fileSize ?? 0) >= MIN_FILE_BYTES && !row.filePrinted;
  if (!withText && !withFile) return { signals: 0 };

  // What every team is given: the attachment and the starter files (read from storage once per process).
  const givenKeys = [row.attachmentKey, ...row.starterFiles].filter((key): key is string => Boolean(key));
  // One after another: each may be 20 MB read whole the first time (a process's memory holds one of them at once).
  const given: Given[] = [];
  for (const key of givenKeys) given.push(await givenFile(key));
  const starter = [row.starter, ...given.map((one) => one.text)].filter((text): text is string => Boolean(text?.trim())).join("\n") || null;

  // The file is read before anything is written (storage may be slow; nothing is locked meanwhile).
  let file: { hash: string; print: Fingerprint | null; kind: PrintKind; image: bigint | null; sentBack: boolean } | null = null;
  if (withFile && row.fileKey) {
    const upload = await readUpload(row.fileKey, row.fileSize ?? 0);
    const text = upload.whole && upload.bytes.length <= TEXT_FILE_BYTES && fileView(upload.bytes).kind === "text" ? decodeText(upload.bytes) : null;
    const print = text ? fingerprint(text, starter) : null;
    const image = await uploadedImageHash(row.fileKey, upload.bytes, upload.whole, given);
    // A team sending back a given file byte for byte: no identical-file signal.
    const sentBack = given.some((one) => one.content === upload.hash);
    file = { hash: upload.hash, print, kind: image !== null ? "image" : (print?.kind ?? "file"), image, sentBack };
  }
  const textPrint = withText && row.text ? fingerprint(row.text, starter) : null;

  // The candidates, read side by side.
  const [textSimilar, same, fileSimilar, near] = await Promise.all([
    textPrint ? similarPrints(db, version, textPrint, similarityPercent) : null,
    file && !file.sentBack ? identicalFiles(db, version, file.hash) : [],
    file?.print && !file.sentBack ? similarPrints(db, version, file.print, similarityPercent) : null,
    file?.image != null && !file.sentBack ? nearImages(db, version, file.image) : [],
  ]);
  const writes: Promise<number>[] = [];
  if (withText) writes.push(storePrint(db, version, "text", { fingerprint: textPrint, contentHash: null, kind: textPrint?.kind ?? "text", image: null }, textSimilar ? similarFound(textSimilar) : []));
  if (file) {
    const found: Found[] = same.map((other) => ({ kind: "identical-file", otherTeamId: other.teamId, otherPrintId: other.id, similarity: 100, details: {} }));
    // A text file byte for byte another team's has its identical-file signal; otherwise, its words are compared.
    if (fileSimilar && same.length === 0) found.push(...similarFound(fileSimilar));
    // The same picture re-encoded: teams whose file is byte for byte the same have their signal already.
    const identical = new Set(same.map((other) => other.teamId));
    for (const other of near) {
      if (!identical.has(other.teamId)) found.push({ kind: "image", otherTeamId: other.teamId, otherPrintId: other.id, similarity: imageSimilarity(other.distance), details: { distance: other.distance } });
    }
    writes.push(storePrint(db, version, "file", { fingerprint: file.print, contentHash: file.hash, kind: file.kind, image: file.image }, found));
  }
  const added = (await Promise.all(writes)).reduce((sum, count) => sum + count, 0);
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
