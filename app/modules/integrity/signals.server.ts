/**
 * Integrity signals as people read and decide them (docs/domain.md "Integrity signals"): the admin's list,
 * strongest first, with its filters and CSV; a submission's signals in the judge workspace, with both versions
 * side by side and the shared passages marked (blind judging: the other team is a label for judges); the two
 * decisions, each audited: dismiss with a reason, or confirm with a penalty award whose public reason is the
 * admin's own words (never the evidence nor the other team: the award form's reason is all a team reads).
 * Participants never reach any of it (the pages' roles, app/modules/auth/access.ts).
 */
import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { anyOf } from "../../../db/any-of.ts";
import type { Queryable } from "../../../db/client.ts";
import { challengeStarterFiles, challengeStarters, challenges, integritySettings, integritySignals, submissionPrints, submissions, submissionVersions, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { readObjectStart } from "../../infrastructure/s3.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { giveAwardIn } from "../awards/awards.server.ts";
import type { Role } from "../auth/access.ts";
import { DomainError } from "../errors.ts";
import { csvHead, csvRows } from "../exports/csv-format.server.ts";
import { anonymousTeamName, namesShownTo } from "../judging/blind.server.ts";
import { messages } from "../messages.ts";
import { nameKey } from "../names/names.ts";
import { requestStandingsRecompute } from "../standings/outbox.server.ts";
import { decodeText, fileView } from "../submissions/file-view.ts";
import { readIntegritySettings, TEXT_FILE_BYTES } from "./compare.server.ts";
import { SIGN_IN_RETENTION_DAYS } from "./sign-ins.server.ts";
import { getEventTimeZone } from "../settings/settings.server.ts";
import { evidence, type EvidenceLine } from "./fingerprint.ts";
import { STARTER_FILES_MAX, type SignalFilter, type SignalKind } from "./schema.ts";
import { cleanupObject } from "../challenges/challenges.server.ts";

const m = messages.integrity;

export class SignalError extends DomainError {
  constructor(message: string, status = 400, field?: string) {
    super(message, { status, field });
  }
}

const otherTeam = alias(teams, "other_team");
const decider = alias(users, "decider");
const print = alias(submissionPrints, "print");
const otherPrint = alias(submissionPrints, "other_print");

const signalColumns = {
  id: integritySignals.id,
  kind: integritySignals.kind,
  status: integritySignals.status,
  similarity: integritySignals.similarity,
  details: integritySignals.details,
  challengeId: integritySignals.challengeId,
  challenge: challenges.title,
  teamId: integritySignals.teamId,
  team: teams.name,
  otherTeamId: integritySignals.otherTeamId,
  otherTeam: otherTeam.name,
  submissionId: print.submissionId,
  versionAt: print.versionAt,
  otherSubmissionId: otherPrint.submissionId,
  otherVersionAt: otherPrint.versionAt,
  reason: integritySignals.reason,
  decidedBy: decider.name,
  decidedAt: integritySignals.decidedAt,
  awardId: integritySignals.awardId,
  createdAt: integritySignals.createdAt,
};

function signalQuery(where: SQL | undefined) {
  return getDb()
    .select(signalColumns)
    .from(integritySignals)
    .innerJoin(teams, eq(teams.id, integritySignals.teamId))
    .leftJoin(otherTeam, eq(otherTeam.id, integritySignals.otherTeamId))
    .leftJoin(challenges, eq(challenges.id, integritySignals.challengeId))
    .leftJoin(print, eq(print.id, integritySignals.printId))
    .leftJoin(otherPrint, eq(otherPrint.id, integritySignals.otherPrintId))
    .leftJoin(decider, eq(decider.id, integritySignals.decidedBy))
    .where(where);
}

export type SignalRow = Awaited<ReturnType<typeof signalQuery>>[number];

/** The most rows the admin's page lists (the CSV has them all). */
export const SIGNALS_PAGE_ROWS = 200;

function filterSql(filter: SignalFilter): SQL | undefined {
  return and(
    eq(integritySignals.status, filter.status ?? "open"),
    filter.challenge === undefined ? undefined : eq(integritySignals.challengeId, filter.challenge),
    filter.team === undefined ? undefined : or(eq(integritySignals.teamId, filter.team), eq(integritySignals.otherTeamId, filter.team)),
    filter.kind === undefined ? undefined : eq(integritySignals.kind, filter.kind),
  );
}

/** The admin's list: the filter's signals (open by default), strongest first, then newest. */
export async function listSignals(filter: SignalFilter): Promise<{ rows: SignalRow[]; total: number }> {
  const where = filterSql(filter);
  const [rows, [{ total }]] = await Promise.all([
    signalQuery(where).orderBy(desc(integritySignals.similarity), desc(integritySignals.createdAt), desc(integritySignals.id)).limit(SIGNALS_PAGE_ROWS),
    getDb().select({ total: sql<number>`count(*)::int`.mapWith(Number) }).from(integritySignals).where(where),
  ]);
  return { rows, total };
}

/** Every signal, any status, oldest first, as CSV for the organisers' records (names from users: defused cells). */
export async function signalsCsv(): Promise<string> {
  const rows = await signalQuery(undefined).orderBy(integritySignals.createdAt, integritySignals.id);
  const iso = (date: Date | null) => date?.toISOString() ?? "";
  return (
    csvHead(["Signal", "Kind", "Status", "Strength", "Challenge", "Team", "Other team", "Version (UTC)", "Other version (UTC)", "Found (UTC)", "Decided by", "Decided (UTC)", "Reason", "Award", "Details (JSON)"]) +
    csvRows(
      rows.map((row) => [
        row.id,
        row.kind,
        row.status,
        row.similarity,
        row.challenge ?? "",
        row.team,
        row.otherTeam ?? "",
        iso(row.versionAt),
        iso(row.otherVersionAt),
        iso(row.createdAt),
        row.decidedBy ?? "",
        iso(row.decidedAt),
        row.reason ?? "",
        row.awardId ?? "",
        JSON.stringify(row.details),
      ]),
    )
  );
}

/** The filters' choices: challenges and teams that have a signal. */
export async function signalChoices() {
  const [challengeRows, teamRows] = await Promise.all([
    getDb().selectDistinct({ id: challenges.id, title: challenges.title }).from(integritySignals).innerJoin(challenges, eq(challenges.id, integritySignals.challengeId)).orderBy(challenges.title),
    getDb()
      .selectDistinct({ id: teams.id, name: teams.name })
      .from(integritySignals)
      .innerJoin(teams, or(eq(teams.id, integritySignals.teamId), eq(teams.id, integritySignals.otherTeamId)))
      .orderBy(teams.name),
  ]);
  return { challenges: challengeRows, teams: teamRows };
}

/** A stored instant (microseconds) and a print's (a JS date: milliseconds, truncated) name the same version. */
const sameInstant = (column: typeof submissions.revisedAt | typeof submissionVersions.submittedAt, at: Date) => sql`date_trunc('milliseconds', ${column}) = ${at.toISOString()}::timestamptz`;

interface VersionContent {
  text: string | null;
  fileName: string | null;
  /** The file's version as the inline path names it (null: the submission's newest), when its bytes are an image. */
  image: { submissionId: number; versionId: number | null } | null;
}

/**
 * What one version of a submission said: its text, or its file's text (a text file up to TEXT_FILE_BYTES), the
 * file's name, and whether the file is an image a judge can see beside the other (by its first bytes).
 */
async function versionContent(p: { submissionId: number; versionAt: Date; source: "text" | "file" }): Promise<VersionContent> {
  const [current] = await getDb()
    .select({ text: submissions.text, fileKey: submissions.fileKey, fileName: submissions.fileName, versionId: sql<number | null>`null::int` })
    .from(submissions)
    .where(and(eq(submissions.id, p.submissionId), sameInstant(submissions.revisedAt, p.versionAt)));
  const [older] = current
    ? [current]
    : await getDb()
        .select({ text: submissionVersions.text, fileKey: submissionVersions.fileKey, fileName: submissionVersions.fileName, versionId: sql<number | null>`${submissionVersions.id}` })
        .from(submissionVersions)
        .where(and(eq(submissionVersions.submissionId, p.submissionId), sameInstant(submissionVersions.submittedAt, p.versionAt)))
        .limit(1);
  if (!older) return { text: null, fileName: null, image: null };
  if (p.source === "text") return { text: older.text, fileName: null, image: null };
  if (!older.fileKey) return { text: null, fileName: older.fileName, image: null };
  try {
    const bytes = await readObjectStart(older.fileKey, TEXT_FILE_BYTES);
    const view = fileView(bytes);
    return {
      text: view.kind === "text" ? decodeText(bytes) : null,
      fileName: older.fileName,
      image: view.kind === "image" ? { submissionId: p.submissionId, versionId: older.versionId === null ? null : Number(older.versionId) } : null,
    };
  } catch {
    return { text: null, fileName: older.fileName, image: null };
  }
}

/**
 * A challenge's starter text as the worker subtracts it (compare.server.ts): the typed starter code, and the text
 * of each file every team is given (its attachment, its starter files) that is a text file up to TEXT_FILE_BYTES;
 * one storage cannot give is left out.
 */
async function starterText(challengeId: number): Promise<string | null> {
  const [[typed], [challenge], files] = await Promise.all([
    getDb().select({ text: challengeStarters.text }).from(challengeStarters).where(eq(challengeStarters.challengeId, challengeId)),
    getDb().select({ key: challenges.attachmentKey }).from(challenges).where(eq(challenges.id, challengeId)),
    getDb().select({ key: challengeStarterFiles.fileKey }).from(challengeStarterFiles).where(eq(challengeStarterFiles.challengeId, challengeId)).orderBy(challengeStarterFiles.id),
  ]);
  const keys = [challenge?.key, ...files.map((file) => file.key)].filter((key): key is string => Boolean(key));
  const texts = await Promise.all(
    keys.map((key) =>
      readObjectStart(key, TEXT_FILE_BYTES + 1)
        .then((bytes) => (bytes.length <= TEXT_FILE_BYTES && fileView(bytes).kind === "text" ? decodeText(bytes) : null))
        .catch(() => null),
    ),
  );
  return [typed?.text, ...texts].filter((text): text is string => Boolean(text?.trim())).join("\n") || null;
}

/** The most lines of each side a judge's comparison shows. */
const EVIDENCE_LINES = 400;

export interface SubmissionSignal {
  id: number;
  kind: SignalKind;
  status: "open" | "dismissed" | "confirmed";
  similarity: number;
  otherTeam: string;
  versionAt: Date | null;
  otherVersionAt: Date | null;
  /** Both sides line by line, shared passages marked; null for a file that is not text (an identical file). */
  mine: EvidenceLine[] | null;
  theirs: EvidenceLine[] | null;
  fileName: string | null;
  otherFileName: string | null;
  /** Both files when they are images (shown side by side through the inline path), else null. */
  images: { mine: NonNullable<VersionContent["image"]>; theirs: NonNullable<VersionContent["image"]> } | null;
  /** An image signal's distance in bits (of 64). */
  distance: number | null;
}

/**
 * A submission's signals for the judge workspace (not dismissed ones), strongest first, at most 5, with the
 * evidence. While judging is blind a judge reads the other team as its label; an admin reads its name.
 */
export async function signalsForSubmission(submissionId: number, viewer: { role: Role }): Promise<SubmissionSignal[]> {
  const rows = await getDb()
    .select({
      id: integritySignals.id,
      kind: integritySignals.kind,
      status: integritySignals.status,
      similarity: integritySignals.similarity,
      details: integritySignals.details,
      teamId: integritySignals.teamId,
      team: teams.name,
      otherTeamId: integritySignals.otherTeamId,
      otherTeam: otherTeam.name,
      challengeId: integritySignals.challengeId,
      a: { submissionId: print.submissionId, versionAt: print.versionAt, source: print.source },
      b: { submissionId: otherPrint.submissionId, versionAt: otherPrint.versionAt, source: otherPrint.source },
    })
    .from(integritySignals)
    .innerJoin(teams, eq(teams.id, integritySignals.teamId))
    .innerJoin(otherTeam, eq(otherTeam.id, integritySignals.otherTeamId))
    .innerJoin(print, eq(print.id, integritySignals.printId))
    .innerJoin(otherPrint, eq(otherPrint.id, integritySignals.otherPrintId))
    .where(and(or(eq(print.submissionId, submissionId), eq(otherPrint.submissionId, submissionId)), anyOf(integritySignals.status, ["open", "confirmed"])))
    .orderBy(desc(integritySignals.similarity), desc(integritySignals.id))
    .limit(5);
  if (rows.length === 0) return [];
  const names = await namesShownTo(viewer);
  const starter = { text: await starterText(rows[0].challengeId ?? 0) };
  return Promise.all(
    rows.map(async (row) => {
      const mineIsA = row.a.submissionId === submissionId;
      const [mine, theirs] = mineIsA ? [row.a, row.b] : [row.b, row.a];
      const otherId = mineIsA ? row.otherTeamId! : row.teamId;
      const otherName = mineIsA ? row.otherTeam : row.team;
      const [mineContent, theirContent] = await Promise.all([versionContent(mine), versionContent(theirs)]);
      const shown = mineContent.text !== null && theirContent.text !== null ? evidence(mineContent.text, theirContent.text, starter?.text) : null;
      return {
        id: row.id,
        kind: row.kind,
        status: row.status,
        similarity: row.similarity,
        otherTeam: names.hidden ? anonymousTeamName(otherId) : otherName,
        versionAt: mine.versionAt,
        otherVersionAt: theirs.versionAt,
        mine: shown ? shown.a.slice(0, EVIDENCE_LINES) : null,
        theirs: shown ? shown.b.slice(0, EVIDENCE_LINES) : null,
        fileName: mineContent.fileName === null ? null : names.fileName(mineContent.fileName),
        otherFileName: theirContent.fileName === null ? null : names.fileName(theirContent.fileName),
        images: mineContent.image && theirContent.image ? { mine: mineContent.image, theirs: theirContent.image } : null,
        distance: typeof row.details.distance === "number" ? row.details.distance : null,
      };
    }),
  );
}

/** The admin page's data: the filter's signals, the filters' choices, the thresholds and the challenges' starters. */
export async function loadSignalsPage(filter: SignalFilter) {
  const [list, choices, thresholds, starters, timeZone] = await Promise.all([listSignals(filter), signalChoices(), readIntegritySettings(), listStarters(), getEventTimeZone()]);
  return { filter, ...list, choices, thresholds, starters, timeZone, retentionDays: SIGN_IN_RETENTION_DAYS };
}

export type SignalsPageData = Awaited<ReturnType<typeof loadSignalsPage>>;

/** Locks an open signal (the first of two admins deciding at once wins; the second is told). */
async function lockOpen(tx: Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0], id: number) {
  const [row] = await tx
    .select({ id: integritySignals.id, status: integritySignals.status, kind: integritySignals.kind, teamId: integritySignals.teamId, otherTeamId: integritySignals.otherTeamId, challengeId: integritySignals.challengeId, similarity: integritySignals.similarity })
    .from(integritySignals)
    .where(eq(integritySignals.id, id))
    .for("update");
  if (!row) throw new SignalError(m.notFound, 404);
  if (row.status !== "open") throw new SignalError(m.alreadyDecided, 409);
  return row;
}

/** Dismisses an open signal with the admin's reason (audited). */
export async function dismissSignal(actor: Actor, input: { id: number; reason: string }) {
  await getDb().transaction(async (tx) => {
    const row = await lockOpen(tx, input.id);
    await tx.update(integritySignals).set({ status: "dismissed", reason: input.reason, decidedBy: actor.id, decidedAt: new Date() }).where(eq(integritySignals.id, row.id));
    await recordAudit(tx, actor, {
      kind: "signal.dismissed",
      teamId: row.teamId,
      subjectId: row.id,
      before: { status: "open" },
      after: { status: "dismissed", kind: row.kind, challengeId: row.challengeId, otherTeamId: row.otherTeamId, strength: row.similarity, reason: input.reason },
    });
  });
}

/** A name as a whole word of `text`, in any spelling the names rule counts as the same (case, full width, look-alikes). */
function mentions(textKey: string, name: string): boolean {
  const key = nameKey(name);
  if (!key) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u").test(textKey);
}

/**
 * Whether a public reason names the other team of a signal: its name, or the name of one of its members (a login is
 * public on Users Rank), each compared as names are (docs/domain.md "Names"), not letter for letter.
 */
async function namesOtherTeam(tx: Queryable, reason: string, otherTeamId: number): Promise<boolean> {
  const [team, members] = await Promise.all([
    tx.select({ name: teams.name }).from(teams).where(eq(teams.id, otherTeamId)),
    tx.select({ name: users.name }).from(users).where(eq(users.teamId, otherTeamId)),
  ]);
  const reasonKey = nameKey(reason);
  return [...team, ...members].some((one) => mentions(reasonKey, one.name));
}

/**
 * Confirms an open signal and gives the chosen team (one of the signal's two) a penalty award, in one
 * transaction (audited twice: the award, and the decision naming it). The award's reason is `publicReason`,
 * what the team reads on its status page; the signal's own record keeps the evidence's reference.
 */
export async function confirmSignal(actor: Actor, input: { id: number; teamId: number; points: string; publicReason: string }) {
  const award = await getDb().transaction(async (tx) => {
    const row = await lockOpen(tx, input.id);
    if (input.teamId !== row.teamId && input.teamId !== row.otherTeamId) throw new SignalError(m.teamNotInSignal, 400, "teamId");
    // The reason the team reads never names the other team nor one of its people (nor, by the form's hint, the evidence).
    const otherId = input.teamId === row.teamId ? row.otherTeamId : row.teamId;
    if (otherId !== null && (await namesOtherTeam(tx, input.publicReason, otherId))) throw new SignalError(m.reasonNamesTeam, 400, "publicReason");
    const points = input.points.trim().startsWith("-") ? input.points.trim() : `-${input.points.trim()}`;
    const award = await giveAwardIn(tx, actor, { teamId: input.teamId, points, reason: input.publicReason });
    await tx.update(integritySignals).set({ status: "confirmed", reason: input.publicReason, decidedBy: actor.id, decidedAt: new Date(), awardId: award.id }).where(eq(integritySignals.id, row.id));
    await recordAudit(tx, actor, {
      kind: "signal.confirmed",
      teamId: input.teamId,
      subjectId: row.id,
      before: { status: "open" },
      after: { status: "confirmed", kind: row.kind, challengeId: row.challengeId, teamId: row.teamId, otherTeamId: row.otherTeamId, strength: row.similarity, awardId: award.id, points },
    });
    return award;
  });
  await requestStandingsRecompute(award.teamId);
  return award;
}

/** The challenges an admin may give a starter code or template, with the one each has and its starter files. */
export async function listStarters() {
  const [rows, files] = await Promise.all([
    getDb()
      .select({ id: challenges.id, title: challenges.title, starter: challengeStarters.text })
      .from(challenges)
      .leftJoin(challengeStarters, eq(challengeStarters.challengeId, challenges.id))
      .orderBy(challenges.title, challenges.id),
    getDb()
      .select({ id: challengeStarterFiles.id, challengeId: challengeStarterFiles.challengeId, name: challengeStarterFiles.name, size: challengeStarterFiles.size })
      .from(challengeStarterFiles)
      .orderBy(challengeStarterFiles.challengeId, challengeStarterFiles.id),
  ]);
  return rows.map((row) => ({ ...row, files: files.filter((file) => file.challengeId === row.id).map(({ challengeId: _challenge, ...file }) => file) }));
}

/**
 * Adds a starter file (already stored under `file.key`; the caller deletes it when this refuses) to a challenge,
 * at most STARTER_FILES_MAX each (audited). Later versions are compared without what it gives every team.
 */
export async function addStarterFile(actor: Actor, input: { challengeId: number; file: { key: string; name: string; size: number } }) {
  await getDb().transaction(async (tx) => {
    // The challenge's row is locked: two admins adding at once count each other's file.
    const [challenge] = await tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.id, input.challengeId)).for("no key update");
    if (!challenge) throw new SignalError(m.challengeNotFound, 404, "challengeId");
    const [{ held }] = await tx.select({ held: sql<number>`count(*)::int`.mapWith(Number) }).from(challengeStarterFiles).where(eq(challengeStarterFiles.challengeId, input.challengeId));
    if (held >= STARTER_FILES_MAX) throw new SignalError(m.starterFilesFull(STARTER_FILES_MAX), 409, "file");
    const [row] = await tx.insert(challengeStarterFiles).values({ challengeId: input.challengeId, name: input.file.name, fileKey: input.file.key, size: input.file.size }).returning({ id: challengeStarterFiles.id });
    await recordAudit(tx, actor, { kind: "signal.settings", subjectId: input.challengeId, after: { challengeId: input.challengeId, starterFile: { id: row.id, name: input.file.name, size: input.file.size } } });
  });
}

/** Removes a starter file (audited); its object is deleted once the row is gone. */
export async function removeStarterFile(actor: Actor, input: { id: number }) {
  const key = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .delete(challengeStarterFiles)
      .where(eq(challengeStarterFiles.id, input.id))
      .returning({ challengeId: challengeStarterFiles.challengeId, name: challengeStarterFiles.name, size: challengeStarterFiles.size, key: challengeStarterFiles.fileKey });
    if (!row) throw new SignalError(m.starterFileNotFound, 404, "id");
    await recordAudit(tx, actor, { kind: "signal.settings", subjectId: row.challengeId, before: { challengeId: row.challengeId, starterFile: { id: input.id, name: row.name, size: row.size } }, after: null });
    return row.key;
  });
  await cleanupObject(key);
}

/** Sets (or, empty, removes) a challenge's starter code; later versions are compared without it. */
export async function saveStarter(actor: Actor, input: { challengeId: number; starter: string }) {
  await getDb().transaction(async (tx) => {
    const [challenge] = await tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.id, input.challengeId)).for("key share");
    if (!challenge) throw new SignalError(m.challengeNotFound, 404, "challengeId");
    if (input.starter.trim() === "") await tx.delete(challengeStarters).where(eq(challengeStarters.challengeId, input.challengeId));
    else
      await tx
        .insert(challengeStarters)
        .values({ challengeId: input.challengeId, text: input.starter })
        .onConflictDoUpdate({ target: challengeStarters.challengeId, set: { text: input.starter, updatedAt: new Date() } });
    await recordAudit(tx, actor, { kind: "signal.settings", subjectId: input.challengeId, after: { challengeId: input.challengeId, starterLength: input.starter.trim().length } });
  });
}

/** Saves the thresholds (audited with what they were). */
export async function saveThresholds(actor: Actor, input: { similarityPercent: number; devicesPerAccount: number }) {
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select().from(integritySettings).where(eq(integritySettings.id, 1));
    await tx.insert(integritySettings).values({ id: 1, ...input }).onConflictDoUpdate({ target: integritySettings.id, set: { ...input, updatedAt: new Date() } });
    await recordAudit(tx, actor, {
      kind: "signal.settings",
      before: before ? { similarityPercent: before.similarityPercent, devicesPerAccount: before.devicesPerAccount } : null,
      after: input,
    });
  });
}
