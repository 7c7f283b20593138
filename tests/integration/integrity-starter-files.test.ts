/**
 * Starter files (docs/decisions/048-starter-files.md), through the worker: a real BullMQ worker runs the
 * `integrity` queue that saving a submission feeds. What an admin sets as a challenge's starter files is what
 * every team is given: sent back byte for byte it is no identical file, re-encoded no image signal, and a
 * skeleton program's lines are left out before answers are compared. Another file is still found.
 */
import { Readable } from "node:stream";
import { Worker } from "bullmq";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeStarterFiles, gates, integritySignals, submissionPrints } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix, getQueue } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { addStarterFile, listStarters, removeStarterFile, SignalError } from "../../app/modules/integrity/signals.server.ts";
import { STARTER_FILES_MAX } from "../../app/modules/integrity/schema.ts";
import { saveSubmission, type StoredFile } from "../../app/modules/submissions/submit.server.ts";
import { processIntegrity } from "../../workers/processors/integrity.ts";
import { actorFor, ensureEventSettings, makeChallenge, makePlayer, makeUser } from "../support/fixtures.ts";
import { picturePng, reencoded } from "../support/pictures.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, type RouteModule } from "../support/route-manifest.ts";
import { createRouteWorld, type RouteWorld } from "../support/route-world.ts";
import { messages } from "../../app/modules/messages.ts";

const HOUR = 3_600_000;
let worker: Worker;

beforeAll(async () => {
  await ensureEventSettings();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - HOUR) })))
    .onConflictDoNothing();
  worker = new Worker(queues.integrity.name, processIntegrity, { connection: createRedis("worker"), prefix: bullPrefix(), concurrency: 2 });
});

afterAll(async () => {
  await worker.close();
});

type Player = Awaited<ReturnType<typeof makePlayer>>;

async function stored(bytes: Buffer | string, name: string, prefix = "submissions"): Promise<StoredFile> {
  const key = newObjectKey(prefix);
  const { size } = await uploadStream({ key, body: Readable.from([Buffer.from(bytes)]), limitBytes: 10_000_000 });
  return { key, name, type: "application/octet-stream", size };
}

async function sendFile(player: Player, challengeId: number, bytes: Buffer | string, name: string) {
  return (await saveSubmission({ actor: player.actor, teamId: player.team.id, challengeId, text: null, file: await stored(bytes, name) })).submissionId;
}

/** Waits until the worker has fingerprinted `versions` versions of the submission. */
async function printed(submissionId: number, versions = 1) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await getDb().select().from(submissionPrints).where(eq(submissionPrints.submissionId, submissionId));
    if (rows.length >= versions) return rows;
    if (Date.now() > deadline) throw new Error(`submission ${submissionId} not fingerprinted`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const signalsOfTeam = (teamId: number) => getDb().select().from(integritySignals).where(eq(integritySignals.teamId, teamId));

const admin = async () => {
  const user = await makeUser("admin");
  return actorFor(user.id, user.name, "admin");
};

/** A skeleton program every team is given, then each team's own few lines. */
const SKELETON = Array.from({ length: 24 }, (_, i) => `def step_${i}(values, limit=${i * 7}):\n    total = sum(v * ${i + 3} for v in values if v > ${i})\n    return min(total, limit + ${i * 11})`).join("\n");
const withOwn = (lines: string[]) => `${SKELETON}\n${lines.join("\n")}\n`;

describe("starter files set by the admin", () => {
  it("leaves a starter picture out: sent back byte for byte it is no identical file, re-encoded no image signal", async () => {
    const challenge = await makeChallenge();
    const picture = await picturePng(31);
    const by = await admin();
    await addStarterFile(by, { challengeId: challenge.id, file: await stored(picture, "board.png", "starters") });
    const [a, b, c, d] = [await makePlayer(), await makePlayer(), await makePlayer(), await makePlayer()];
    await printed(await sendFile(a, challenge.id, picture, "board.png"));
    await printed(await sendFile(b, challenge.id, picture, "ours.png"));
    await printed(await sendFile(c, challenge.id, await reencoded(picture), "board.jpg"));
    // Another picture shared by two teams is still found.
    const other = await picturePng(32);
    await printed(await sendFile(d, challenge.id, other, "x.png"));
    await printed(await sendFile(a, challenge.id, await reencoded(other), "y.jpg"), 2);

    expect(await signalsOfTeam(b.team.id)).toEqual([]);
    expect(await signalsOfTeam(c.team.id)).toEqual([]);
    const found = await signalsOfTeam(a.team.id);
    expect(found.map((signal) => [signal.kind, signal.otherTeamId])).toEqual([["image", d.team.id]]);

    const [record] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "signal.settings"), eq(auditLog.subjectId, challenge.id)));
    expect(record.after).toMatchObject({ challengeId: challenge.id, starterFile: { name: "board.png", size: picture.length } });
  });

  it("leaves a starter program's lines out, as the starter code is", async () => {
    const challenge = await makeChallenge();
    await addStarterFile(await admin(), { challengeId: challenge.id, file: await stored(SKELETON, "skeleton.py", "starters") });
    const [a, b] = [await makePlayer(), await makePlayer()];
    // Each team's own three lines after the skeleton: alike only in what they were given.
    const first = await sendFile(a, challenge.id, withOwn(["print('alpha', 1)", "x = read(2)", "solve(x, 3)"]), "answer.py");
    await printed(first);
    const second = (await saveSubmission({ actor: b.actor, teamId: b.team.id, challengeId: challenge.id, text: withOwn(["print('omega', 9)", "y = parse(8)", "answer(y, 7)"]), file: null })).submissionId;
    await printed(second);
    expect(await signalsOfTeam(b.team.id)).toEqual([]);
    expect(await signalsOfTeam(a.team.id)).toEqual([]);
  });

  it("lists, caps and removes starter files (the object's deletion queued once the row is gone)", async () => {
    const challenge = await makeChallenge();
    const by = await admin();
    for (let i = 0; i < STARTER_FILES_MAX; i++) await addStarterFile(by, { challengeId: challenge.id, file: await stored(`file ${i}`, `f${i}.txt`, "starters") });
    await expect(addStarterFile(by, { challengeId: challenge.id, file: await stored("one more", "more.txt", "starters") })).rejects.toThrow(SignalError);
    const listed = (await listStarters()).find((row) => row.id === challenge.id)!;
    expect(listed.files).toHaveLength(STARTER_FILES_MAX);
    const [first] = await getDb().select().from(challengeStarterFiles).where(eq(challengeStarterFiles.id, listed.files[0].id));
    await removeStarterFile(by, { id: first.id });
    await expect(removeStarterFile(by, { id: first.id })).rejects.toThrow(SignalError);
    expect((await listStarters()).find((row) => row.id === challenge.id)!.files).toHaveLength(STARTER_FILES_MAX - 1);
    const cleanup = (await getQueue("storageCleanup").getJobs(["waiting", "delayed", "active", "completed"])).map((job) => job.data.key);
    expect(cleanup).toContain(first.fileKey);
  });
});

describe("the signals page's starter file form", () => {
  let world: RouteWorld;
  let signalsPage: RouteModule;
  beforeAll(async () => {
    world = await createRouteWorld();
    signalsPage = await loadRouteModule(routeManifest.find((route) => route.id === "routes/dashboard.signals")!);
  });

  const post = (role: "admin" | "participant", fields: Record<string, string>, file?: { name: string; body: string }) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) form.append("file", new File([file.body], file.name));
    const request = new Request("http://localhost/dashboard/signals", { method: "POST", headers: { Cookie: world.cookies[role]! }, body: form });
    return callRoute(signalsPage, "action", { request, params: {}, context: {} }).then(answerOf, answerOf);
  };

  it("stores an admin's file (a form without JavaScript: multipart), refuses one without a file with a sentence, and a participant", async () => {
    const challenge = await makeChallenge();
    const fields = { intent: "starter-file", challengeId: String(challenge.id) };
    const added = await post("admin", fields, { name: "template.txt", body: "every team's template, long enough to count\n" });
    expect(added.status).toBe(302);
    const rows = await getDb().select().from(challengeStarterFiles).where(eq(challengeStarterFiles.challengeId, challenge.id));
    expect(rows.map((row) => row.name)).toEqual(["template.txt"]);

    const empty = await post("admin", fields);
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain(messages.integrity.starterFileRequired);

    const refused = await post("participant", fields, { name: "mine.txt", body: "a participant's file" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await getDb().select().from(challengeStarterFiles).where(eq(challengeStarterFiles.challengeId, challenge.id))).toHaveLength(1);
  });
});
