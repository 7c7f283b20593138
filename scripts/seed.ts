/**
 * `npm run db:seed` (scripts/, not db/: the seed uses the app's modules, and db/ imports nothing from app/): creates the demo event. Seeding twice duplicates nothing (every row is keyed
 * by a natural key); `--reset-clock` moves gates, final timer and meals relative to now again.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { crc32, deflateSync } from "node:zlib";
import { tarGz } from "./lib/tar-gz.ts";
import { fileURLToPath } from "node:url";
import { and, eq, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../app/modules/auth/password.server.ts";
import { nameColumns } from "../app/modules/names/names.ts";
import { getEnv } from "../app/infrastructure/env.server.ts";
import { newObjectKey, uploadStream } from "../app/infrastructure/s3.server.ts";
import { rebuildStandings } from "../app/modules/standings/rebuild.server.ts";
import { recordAudit, systemActor } from "../app/modules/audit/audit.server.ts";
import { scoreSubmission } from "../app/modules/scoring/scoring.server.ts";
import { getRubric } from "../app/modules/challenges/challenges.server.ts";
import { newFlagSecret } from "../app/modules/flags/matching.server.ts";
import { readTestsArchive } from "../app/modules/code/tests-archive.server.ts";
import { storeVideoFile } from "../app/modules/videos/files.server.ts";
import { createDb, type Database } from "../db/client.ts";
import type { Role } from "../db/schema.ts";
import {
  demoChallenges,
  demoFinalAt,
  demoGates,
  demoLabels,
  demoLogins,
  demoTests,
  demoMeals,
  demoParticipants,
  demoTeams,
  demoVideos,
} from "./demo-event.ts";
import {
  challengeCriteria,
  challengeFlags,
  challengeHints,
  challengePrerequisites,
  challenges,
  codeChallenges,
  eventSettings,
  gates,
  meals,
  predictionChallenges,
  submissions,
  submissionVersions,
  teams,
  users,
} from "../db/schema.ts";

/** A tiny but real file of each attachment type, so downloads work in the demo. */
function demoAttachmentBody(type: string): Buffer {
  if (type === "image/png") {
    // 1×1 PNG.
    return Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
      "base64",
    );
  }
  const text = "Gatekeeper demo attachment";
  const stream = `BT /F1 18 Tf 50 780 Td (${text}) Tj ET`;
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n` +
      `4 0 obj<</Length ${stream.length}>>stream\n${stream}\nendstream endobj\n` +
      `5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

/** The home videos, once: an event whose videos were set (by an admin, or an earlier seed) keeps them. */
async function seedDemoVideos(db: Database) {
  const [settings] = await db.select({ video1: eventSettings.video1, video2: eventSettings.video2 }).from(eventSettings).where(eq(eventSettings.id, 1));
  if (!settings || settings.video1 || settings.video2) return;
  const file = readFileSync(fileURLToPath(new URL(demoVideos.file.path, import.meta.url)));
  const video2 = await storeVideoFile(file, demoVideos.file.type);
  await db.update(eventSettings).set({ video1: demoVideos.youtube, video2 }).where(eq(eventSettings.id, 1));
}

async function upsertUser(db: Database, name: string, password: string, role: Role, teamId: number | null) {
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.name}) = lower(${name})`);
  if (existing) return existing.id;
  const [created] = await db
    .insert(users)
    // An address on a reserved domain: "Forgot your password?" works in the demo, its mail in Dashboard → Mailbox.
    .values({ ...nameColumns(name), passwordHash: await hashPassword(password), role, teamId, email: `${name}@demo.gatekeeper.example`, emailConfirmed: true })
    .returning({ id: users.id });
  return created.id;
}

export async function seedDemoEvent(db: Database, options: { now?: Date; resetClock?: boolean } = {}) {
  const now = options.now ?? new Date();

  // Event settings and the clock.
  await db
    .insert(eventSettings)
    .values({ id: 1, name: "Gatekeeper Demo Event", finalAt: demoFinalAt(now) })
    .onConflictDoNothing();
  for (const gate of demoGates(now)) {
    await db
      .insert(gates)
      .values(gate)
      .onConflictDoUpdate({
        target: gates.number,
        // Without --reset-clock an existing gate keeps everything, including an admin's edits.
        set: options.resetClock ? { opensAt: gate.opensAt } : { number: gate.number },
      });
  }
  if (options.resetClock) {
    await db.update(eventSettings).set({ finalAt: demoFinalAt(now) }).where(eq(eventSettings.id, 1));
    await db.delete(meals);
  }
  await seedDemoVideos(db);
  const [{ mealCount }] = await db.select({ mealCount: sql<number>`count(*)::int` }).from(meals);
  if (mealCount === 0) await db.insert(meals).values(demoMeals(now));

  // Teams, staff and participants.
  const teamIds = new Map<string, number>();
  for (const name of demoTeams) {
    await db.insert(teams).values(nameColumns(name)).onConflictDoNothing();
    const [team] = await db.select({ id: teams.id }).from(teams).where(sql`lower(${teams.name}) = lower(${name})`);
    teamIds.set(name, team.id);
  }
  await upsertUser(db, demoLogins.admin.name, demoLogins.admin.password, "admin", null);
  await upsertUser(db, demoLogins.judge.name, demoLogins.judge.password, "judge", null);
  await upsertUser(db, demoLogins.mentor.name, demoLogins.mentor.password, "mentor", null);
  for (const participant of demoParticipants()) {
    await upsertUser(db, participant.name, participant.password, "participant", teamIds.get(participant.team) ?? null);
  }

  // Challenges, some with an attachment stored in S3.
  for (const challenge of demoChallenges) {
    const [existing] = await db
      .select({ id: challenges.id })
      .from(challenges)
      .where(and(eq(challenges.title, challenge.title), challenge.wave ? eq(challenges.wave, challenge.wave) : isNull(challenges.wave)));
    if (existing) continue;
    let attachment = {};
    if (challenge.attachment) {
      const body = demoAttachmentBody(challenge.attachment.type);
      const stored = await uploadStream({
        key: newObjectKey("attachments"),
        body: Readable.from([body]),
        contentType: challenge.attachment.type,
        limitBytes: body.length,
      });
      attachment = {
        attachmentKey: stored.key,
        attachmentName: challenge.attachment.name,
        attachmentType: challenge.attachment.type,
      };
    }
    const { attachment: _ignored, rubric, flag, paidHints, requires: _requires, predictions, code, ...fields } = challenge;
    const checked = flag
      ? {
          checking: "flag" as const,
          maxAttempts: flag.maxAttempts ?? null,
          flagSecret: flag.answers.some((answer) => answer.kind === "per_team") ? newFlagSecret() : null,
          ...(flag.dynamic ? { scoring: "dynamic" as const, minimumPoints: flag.dynamic.minimum, decay: flag.dynamic.decay } : {}),
        }
      : predictions
        ? { checking: "metric" as const }
        : code
          ? { checking: "tests" as const }
          : {};
    const [created] = await db.insert(challenges).values({ ...fields, ...attachment, ...checked }).returning({ id: challenges.id });
    if (predictions) {
      // Its hidden labels in storage, as an admin's upload leaves them (app/modules/predictions).
      const body = Buffer.from(demoLabels(predictions.rows));
      const stored = await uploadStream({ key: newObjectKey("labels"), body: Readable.from([body]), contentType: "text/csv", limitBytes: body.length });
      const { rows, ...scoring } = predictions;
      await db.insert(predictionChallenges).values({
        challengeId: created.id,
        ...scoring,
        seed: randomBytes(32).toString("hex"),
        labelsKey: stored.key,
        labelsName: "census-labels.csv",
        labelsRows: rows,
        idColumn: "id",
        targetColumn: "kind",
      });
    }
    if (code) {
      // Its hidden tests in storage, as an admin's upload leaves them (app/modules/code), read back by the same reader.
      const body = await tarGz(demoTests());
      const stored = await uploadStream({ key: newObjectKey("tests"), body: Readable.from([body]), contentType: "application/gzip", limitBytes: body.length });
      const read = await readTestsArchive(body);
      await db.insert(codeChallenges).values({
        challengeId: created.id,
        ...code,
        testsKey: stored.key,
        testsName: "sum-tests.tar.gz",
        subtasks: read.subtasks.map((subtask) => ({ name: subtask.name, share: subtask.share, tests: subtask.tests.length })),
        totalShare: read.totalShare,
      });
    }
    if (rubric) await db.insert(challengeCriteria).values(rubric.map((criterion, position) => ({ challengeId: created.id, position, ...criterion })));
    if (flag) await db.insert(challengeFlags).values(flag.answers.map((answer, index) => ({ challengeId: created.id, position: index + 1, ...answer })));
    if (paidHints) await db.insert(challengeHints).values(paidHints.map((hint, index) => ({ challengeId: created.id, position: index + 1, text: hint.text, costCenti: hint.cost * 100 })));
  }
  // Prerequisites by title, once every challenge exists (a second seed finds them there).
  const ids = new Map((await db.select({ id: challenges.id, title: challenges.title }).from(challenges)).map((row) => [row.title, row.id]));
  for (const challenge of demoChallenges) {
    for (const title of challenge.requires ?? []) {
      const [challengeId, requiresId] = [ids.get(challenge.title), ids.get(title)];
      if (challengeId && requiresId) await db.insert(challengePrerequisites).values({ challengeId, requiresId }).onConflictDoNothing();
    }
  }


  await seedDemoSubmissions(db, teamIds, now);
}

/** A PNG of `width` × `height` pixels drawn by `colour(x, y)` (RGB): the demo's submitted banner. */
function drawPng(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "ascii"), body])));
    return Buffer.concat([length, Buffer.from(type, "ascii"), body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x += 1) rows.set(colour(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A team's banner in one colour: a wave across a field, readable at a distance. */
function demoBanner(): Buffer {
  return drawPng(480, 240, (x, y) => {
    const wave = 120 + Math.round(40 * Math.sin(x / 38));
    if (Math.abs(y - wave) < 14) return [242, 201, 76];
    return y < wave ? [12, 30, 72] : [6, 14, 40];
  });
}

const demoCode = `"""Sealed Scroll: recover the plain text by frequency analysis."""
from collections import Counter

ENGLISH = "etaoinshrdlcumwfgypbvkjxqz"


def crack(sealed: str) -> str:
    letters = [c for c in sealed.lower() if c.isalpha()]
    ranked = [letter for letter, _ in Counter(letters).most_common()]
    key = {cipher: plain for cipher, plain in zip(ranked, ENGLISH)}
    return "".join(key.get(c, c) for c in sealed.lower())


if __name__ == "__main__":
    print(crack(open("scroll.txt").read()))
`;

interface DemoSubmission {
  team: string;
  member: string;
  challenge: string;
  /** Percent of the challenge's points the demo judge gave, or null: left for the judge to score. */
  percent: number | null;
  text?: string;
  file?: { name: string; type: string; body: () => Buffer };
  /** The team changed it after the judge's score: this was the text the judge scored. */
  earlierText?: string;
}

/**
 * Judged submissions so the demo scoreboard has a race to show, a few with files left for the demo judge
 * to score (an image, a PDF, code), and one the team changed after its score: the judging workspace shows
 * each kind.
 */
async function seedDemoSubmissions(db: Database, teamIds: Map<string, number>, now: Date) {
  const [judgeRow] = await db.select({ id: users.id, name: users.name }).from(users).where(sql`lower(${users.name}) = lower(${demoLogins.judge.name})`);
  const judge = judgeRow ? { ...systemActor(judgeRow.name), id: judgeRow.id, role: "judge" as const } : null;
  const byTitle = new Map((await db.select({ id: challenges.id, title: challenges.title }).from(challenges)).map((c) => [c.title, c.id]));
  const plan: DemoSubmission[] = [
    { team: "Phoenix", member: "phoenix1", challenge: "Runes of Order", percent: 90 },
    { team: "Phoenix", member: "phoenix2", challenge: "Sealed Scroll", percent: 70 },
    { team: "Kraken", member: "kraken1", challenge: "Runes of Order", percent: 80 },
    {
      team: "Kraken",
      member: "kraken3",
      challenge: "Oracle's First Sight",
      percent: 40,
      earlierText: `Our answer to "Oracle's First Sight": a baseline only, tuning to come.`,
      text: `Our answer to "Oracle's First Sight": the tuned classifier reaches 0.91 accuracy on the held-out guardians.`,
    },
    { team: "Griffin", member: "griffin2", challenge: "Banner of the Clan", percent: 60 },
    { team: "Basilisk", member: "basilisk1", challenge: "Oracle's First Sight", percent: null },
    {
      team: "Kraken",
      member: "kraken2",
      challenge: "Banner of the Clan",
      percent: null,
      text: "Our banner: the kraken's wave in gold on the deep, one colour on one field.",
      file: { name: "kraken-banner.png", type: "image/png", body: demoBanner },
    },
    {
      team: "Basilisk",
      member: "basilisk2",
      challenge: "Runes of Order",
      percent: null,
      text: "The runes sorted with a stable sort; our reasoning is in the PDF.",
      file: { name: "runes-reasoning.pdf", type: "application/pdf", body: () => demoAttachmentBody("application/pdf") },
    },
    {
      team: "Basilisk",
      member: "basilisk1",
      challenge: "Sealed Scroll",
      percent: null,
      text: "Frequency analysis broke the seal: see crack.py. Plain text: https://example.org/the-sealed-scroll/plain-text-recovered-by-frequency-analysis-of-the-old-seal-0123456789",
      file: { name: "crack.py", type: "text/x-python", body: () => Buffer.from(demoCode) },
    },
  ];
  for (const [index, item] of plan.entries()) {
    const challengeId = byTitle.get(item.challenge);
    const teamId = teamIds.get(item.team);
    const [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.name}) = ${item.member}`);
    if (!challengeId || !teamId || !user) continue;
    const [exists] = await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.teamId, teamId), eq(submissions.challengeId, challengeId)));
    if (exists) continue;
    const [points] = await db.select({ points: challenges.points }).from(challenges).where(eq(challenges.id, challengeId));
    const scoreCenti = item.percent === null ? null : item.percent * points.points;
    const scoredAt = item.percent === null ? null : new Date(now.getTime() - (60 - index * 7) * 60 * 1000);
    const sentAt = new Date((scoredAt ?? now).getTime() - 20 * 60 * 1000);
    let file = {};
    if (item.file) {
      const body = item.file.body();
      const stored = await uploadStream({ key: newObjectKey("submissions"), body: Readable.from([body]), contentType: item.file.type, limitBytes: body.length });
      file = { fileKey: stored.key, fileName: item.file.name, fileType: item.file.type, fileSize: body.length };
    }
    const text = item.text ?? `Our answer to "${item.challenge}": see the attached reasoning.`;
    const member = { id: user.id, name: item.member, role: "participant" as const, via: "system" as const, sessionId: null, tokenId: null, ip: null };
    const [created] = await db
      .insert(submissions)
      .values({ teamId, challengeId, userId: user.id, text: item.earlierText ?? text, ...file, revisedAt: sentAt, createdAt: sentAt })
      .onConflictDoNothing()
      .returning({ id: submissions.id });
    if (!created) continue;
    await recordAudit(db, member, { kind: "submission.created", teamId, userId: user.id, subjectId: created.id, at: sentAt, after: { challengeId, status: "pending", textLength: (item.earlierText ?? text).length } });
    if (scoreCenti !== null && scoredAt && judge) {
      // Scored the way a judge scores (the audit trail has the demo's history), at the story's time.
      // A rubric challenge gets the same share on every criterion: the same score in the end.
      const rubric = await getRubric(challengeId);
      const criteria = Object.fromEntries(rubric.map((criterion) => [String(criterion.id), ((item.percent! * criterion.maxPoints) / 100).toFixed(2)]));
      await scoreSubmission({
        submissionId: created.id,
        judge,
        ...(rubric.length ? { criteria } : { score: (scoreCenti / 100).toFixed(2) }),
        comment: "Demo score",
        at: scoredAt,
      });
    }
    if (item.earlierText) {
      // The team changed it after the judge's score: the judged text is kept as the earlier version.
      const revisedAt = new Date(now.getTime() - 5 * 60 * 1000);
      await db.insert(submissionVersions).values({ submissionId: created.id, userId: user.id, text: item.earlierText, submittedAt: sentAt, replacedAt: revisedAt });
      await db.update(submissions).set({ text, status: "pending", revisedAt }).where(eq(submissions.id, created.id));
      await recordAudit(db, member, {
        kind: "submission.updated",
        teamId,
        userId: user.id,
        subjectId: created.id,
        at: revisedAt,
        before: { challengeId, status: "reviewed", textLength: item.earlierText.length },
        after: { challengeId, status: "pending", textLength: text.length },
      });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const handle = createDb(getEnv().DATABASE_URL, { max: 2 });
  try {
    await seedDemoEvent(handle.db, { resetClock: process.argv.includes("--reset-clock") });
    // The demo's submissions were scored directly: derive standings and the Redis snapshot once.
    await rebuildStandings();
    console.log("demo event seeded");
  } finally {
    await handle.close();
  }
  process.exit(0);
}
