import { count, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client.ts";
import { demoLogins, demoVideos } from "../../scripts/demo-event.ts";
import { challengeFlags, challengeHints, challengePrerequisites, challenges, codeChallenges, gates, meals, teams, users, eventSettings } from "../../db/schema.ts";
import { seedDemoEvent } from "../../scripts/seed.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import { listGates } from "../../app/modules/gates/gates.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { objectExists } from "../../app/infrastructure/s3.server.ts";

async function counts() {
  const db = getDb();
  const one = async (table: typeof users | typeof teams | typeof challenges | typeof gates | typeof meals) =>
    (await db.select({ n: count() }).from(table))[0].n;
  return { users: await one(users), teams: await one(teams), challenges: await one(challenges), gates: await one(gates), meals: await one(meals) };
}

describe("demo seed", () => {
  it("creates a playable event, and seeding twice duplicates nothing", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 2 });
    const now = new Date();
    try {
      await seedDemoEvent(handle.db, { now });
      const first = await counts();
      expect(first).toEqual({ users: 3 + 12, teams: 4, challenges: 16, gates: 5, meals: 8 });
      const [videos] = await getDb().select({ video1: eventSettings.video1, video2: eventSettings.video2 }).from(eventSettings);
      await seedDemoEvent(handle.db, { now });
      expect(await counts()).toEqual(first);
      // The home videos: a YouTube link and a file of ours, in S3; a second seed keeps them (no new upload).
      expect(videos.video1).toBe(demoVideos.youtube);
      expect(videos.video2).toMatch(/^\/media\/[0-9a-f-]{36}$/);
      expect(await objectExists(`videos/${videos.video2!.split("/").pop()}`)).toBe(true);
      expect(await getDb().select({ video1: eventSettings.video1, video2: eventSettings.video2 }).from(eventSettings)).toEqual([videos]);
    } finally {
      await handle.close();
    }

    // Gates 1-3 open, 4-5 closed, relative to now; the final timer is ahead.
    const gateViews = await listGates(now);
    expect(gateViews.map((gate) => gate.open)).toEqual([true, true, true, false, false]);
    const [settings] = await getDb().select().from(eventSettings);
    expect(settings.finalAt.getTime()).toBeGreaterThan(now.getTime());

    // Every team has 3 participants; at least 2 challenges per gate, all four categories present.
    const perTeam = await getDb().select({ teamId: users.teamId, n: count() }).from(users).where(eq(users.role, "participant")).groupBy(users.teamId);
    expect(perTeam.map((row) => row.n)).toEqual([3, 3, 3, 3]);
    const all = await getDb().select().from(challenges);
    for (const wave of [1, 2, 3, 4, 5]) expect(all.filter((c) => c.wave === wave).length).toBeGreaterThanOrEqual(2);
    expect(new Set(all.map((c) => c.category))).toEqual(new Set(["AI", "CS", "PS", "GD"]));
    // Some content has its Arabic beside the English, some is English only (docs/domain.md "Event content in two languages").
    expect(gateViews.map((gate) => gate.titleAr !== null && gate.descriptionAr !== null)).toEqual([true, true, true, false, false]);
    expect(all.filter((c) => c.titleAr !== null && c.descriptionAr !== null).map((c) => c.title).sort()).toEqual(["Bridge of Trials", "Census of the Gate", "Oracle's First Sight", "Sealed Scroll", "Sum at the Gate", "Whisper in the Logs"]);

    // Flag challenges of each kind, checked by the platform; a per-team one has its key.
    const flagged = all.filter((c) => c.checking === "flag");
    expect(flagged).toHaveLength(4);
    const kinds = await getDb().select({ kind: challengeFlags.kind }).from(challengeFlags);
    expect(new Set(kinds.map((row) => row.kind))).toEqual(new Set(["exact", "exact_ci", "regex", "per_team"]));
    expect(flagged.filter((c) => c.flagSecret !== null)).toHaveLength(1);
    expect(flagged.find((c) => c.title === "Case of the Lost Key")?.maxAttempts).toBe(3);
    expect(flagged.filter((c) => c.scoring === "dynamic").map((c) => [c.title, c.minimumPoints, c.decay])).toEqual([["Pattern of the Serpent", 50, 4]]);
    expect(await getDb().select({ costCenti: challengeHints.costCenti }).from(challengeHints)).toEqual([{ costCenti: 2000 }]);
    expect(await getDb().select().from(challengePrerequisites)).toHaveLength(1);

    // A code challenge with its hidden tests in S3 (two subtasks, 30 and 70).
    const coded = all.filter((c) => c.checking === "tests");
    expect(coded.map((c) => c.title)).toEqual(["Sum at the Gate"]);
    const [code] = await getDb().select().from(codeChallenges).where(eq(codeChallenges.challengeId, coded[0].id));
    expect(code).toMatchObject({ totalShare: 100, subtasks: [{ name: "large", share: 70, tests: 3 }, { name: "small", share: 30, tests: 3 }] });
    expect(await objectExists(code.testsKey!)).toBe(true);

    // Attachments are real objects in S3.
    const withFiles = await getDb().select().from(challenges).where(isNotNull(challenges.attachmentKey));
    expect(withFiles.length).toBeGreaterThan(0);
    for (const challenge of withFiles) expect(await objectExists(challenge.attachmentKey!)).toBe(true);

    // The printed demo logins work.
    expect(await verifyLogin(demoLogins.admin.name, demoLogins.admin.password)).toMatchObject({ role: "admin" });
    expect(await verifyLogin(demoLogins.judge.name, demoLogins.judge.password)).toMatchObject({ role: "judge" });
    expect(await verifyLogin(demoLogins.mentor.name, demoLogins.mentor.password)).toMatchObject({ role: "mentor" });
    expect(await verifyLogin("phoenix1", demoLogins.participantPassword)).toMatchObject({ role: "participant", teamName: "Phoenix" });
  });
});
