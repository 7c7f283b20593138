/**
 * `npm run db:seed` (scripts/, not db/: the seed uses the app's modules, and db/ imports nothing from app/): creates the demo event. Seeding twice duplicates nothing (every row is keyed
 * by a natural key); `--reset-clock` moves gates, final timer and meals relative to now again.
 */
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { and, eq, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../app/modules/auth/password.server.ts";
import { nameColumns } from "../app/modules/names/names.ts";
import { getEnv } from "../app/infrastructure/env.server.ts";
import { newObjectKey, uploadStream } from "../app/infrastructure/s3.server.ts";
import { rebuildStandings } from "../app/modules/standings/rebuild.server.ts";
import { createDb, type Database } from "../db/client.ts";
import {
  demoChallenges,
  demoFinalAt,
  demoGates,
  demoLogins,
  demoMeals,
  demoParticipants,
  demoTeams,
} from "./demo-event.ts";
import { challenges, eventSettings, gates, meals, submissionScores, submissions, teams, users } from "../db/schema.ts";

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

async function upsertUser(db: Database, name: string, password: string, role: "admin" | "judge" | "participant", teamId: number | null) {
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.name}) = lower(${name})`);
  if (existing) return existing.id;
  const [created] = await db
    .insert(users)
    .values({ ...nameColumns(name), passwordHash: await hashPassword(password), role, teamId })
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
    const { attachment: _ignored, ...fields } = challenge;
    await db.insert(challenges).values({ ...fields, ...attachment });
  }

  await seedDemoSubmissions(db, teamIds, now);
}

/** A few judged text submissions so the demo scoreboard has a race to show. */
async function seedDemoSubmissions(db: Database, teamIds: Map<string, number>, now: Date) {
  const [judge] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.name}) = lower(${demoLogins.judge.name})`);
  const byTitle = new Map((await db.select({ id: challenges.id, title: challenges.title }).from(challenges)).map((c) => [c.title, c.id]));
  const plan: Array<[team: string, member: string, challenge: string, percent: number | null]> = [
    ["Phoenix", "phoenix1", "Runes of Order", 90],
    ["Phoenix", "phoenix2", "Sealed Scroll", 70],
    ["Kraken", "kraken1", "Runes of Order", 80],
    ["Kraken", "kraken3", "Oracle's First Sight", 40],
    ["Griffin", "griffin2", "Banner of the Clan", 60],
    ["Basilisk", "basilisk1", "Oracle's First Sight", null],
  ];
  for (const [index, [team, member, title, percent]] of plan.entries()) {
    const challengeId = byTitle.get(title);
    const teamId = teamIds.get(team);
    const [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.name}) = ${member}`);
    if (!challengeId || !teamId || !user) continue;
    const [points] = await db.select({ points: challenges.points }).from(challenges).where(eq(challenges.id, challengeId));
    const scoreCenti = percent === null ? null : percent * points.points;
    const scoredAt = percent === null ? null : new Date(now.getTime() - (60 - index * 7) * 60 * 1000);
    const [created] = await db
      .insert(submissions)
      .values({
        teamId,
        challengeId,
        userId: user.id,
        text: `Our answer to "${title}": see the attached reasoning.`,
        status: percent === null ? "pending" : "reviewed",
        scoreCenti,
        scoredAt,
      })
      .onConflictDoNothing()
      .returning({ id: submissions.id });
    if (created && scoreCenti !== null && judge) {
      await db.insert(submissionScores).values({ submissionId: created.id, judgeId: judge.id, scoreCenti, comment: "Demo score" });
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
