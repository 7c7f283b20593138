/**
 * Images that are the same picture re-encoded, through the worker (docs/domain.md "Integrity signals"): a real
 * BullMQ worker runs the `integrity` queue that saving a submission feeds. Two teams' uploads of one picture (one
 * re-encoded as JPEG and resized) make one 'image' signal with both pictures for the judge; a team's own versions,
 * a different picture, the challenge's own attachment sent back and a corrupt image make none, and the job goes on.
 */
import { Readable } from "node:stream";
import { Worker } from "bullmq";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challenges, gates, integritySignals, submissionPrints } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { signalsForSubmission } from "../../app/modules/integrity/signals.server.ts";
import { saveSubmission, type StoredFile } from "../../app/modules/submissions/submit.server.ts";
import { processIntegrity } from "../../workers/processors/integrity.ts";
import { ensureEventSettings, makeChallenge, makePlayer } from "../support/fixtures.ts";
import { picturePng, reencoded } from "../support/pictures.ts";

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

async function stored(bytes: Buffer, name: string): Promise<StoredFile> {
  const key = newObjectKey("submissions");
  const { size } = await uploadStream({ key, body: Readable.from([bytes]), limitBytes: 10_000_000 });
  return { key, name, type: "application/octet-stream", size };
}

async function sendFile(player: Player, challengeId: number, bytes: Buffer, name: string) {
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

describe("images compared by the worker", () => {
  it("finds another team's upload of the same picture re-encoded, and shows both pictures to the judge", async () => {
    const challenge = await makeChallenge();
    const [a, b, c] = [await makePlayer(), await makePlayer(), await makePlayer()];
    const original = await picturePng(11);
    const first = await sendFile(a, challenge.id, original, "diagram.png");
    await printed(first);
    // Team B's copy: resized, saved as JPEG at quality 60, under a name that claims something else.
    const copy = await sendFile(b, challenge.id, await reencoded(original), "our-own-drawing.txt");
    const [print] = await printed(copy);
    expect(print.kind).toBe("image");
    const own = await sendFile(c, challenge.id, await picturePng(12), "diagram.png");
    await printed(own);

    const signals = await signalsOfTeam(b.team.id);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ kind: "image", challengeId: challenge.id, otherTeamId: a.team.id, status: "open" });
    expect(signals[0].similarity).toBeGreaterThanOrEqual(90);
    expect(await signalsOfTeam(c.team.id)).toEqual([]);

    // The judge workspace's view of team A's submission: both pictures through the inline path, B's name for an admin.
    const [seen] = await signalsForSubmission(first, { role: "admin" });
    expect(seen).toMatchObject({ kind: "image", otherTeam: b.team.name, fileName: "diagram.png", otherFileName: "our-own-drawing.txt" });
    expect(seen.images).toEqual({ mine: { submissionId: first, versionId: null }, theirs: { submissionId: copy, versionId: null } });
    expect(seen.distance).toBeLessThanOrEqual(6);
  });

  it("leaves a team's own versions of its picture alone", async () => {
    const challenge = await makeChallenge();
    const a = await makePlayer();
    const original = await picturePng(21);
    const submission = await sendFile(a, challenge.id, original, "v1.png");
    await printed(submission);
    await sendFile(a, challenge.id, await reencoded(original), "v2.jpg");
    await printed(submission, 2);
    expect(await signalsOfTeam(a.team.id)).toEqual([]);
  });

  it("leaves out the challenge's own attachment sent back, and skips a corrupt image without stopping", async () => {
    const challenge = await makeChallenge();
    const given = await picturePng(31);
    const attachment = await stored(given, "template.png");
    await getDb().update(challenges).set({ attachmentKey: attachment.key, attachmentName: "template.png", attachmentType: "image/png" }).where(eq(challenges.id, challenge.id));
    const [a, b, c, d] = [await makePlayer(), await makePlayer(), await makePlayer(), await makePlayer()];
    // Sent back as it came (the same bytes twice), and re-encoded.
    await printed(await sendFile(a, challenge.id, given, "a.png"));
    await printed(await sendFile(b, challenge.id, given, "b.png"));
    const [copy] = await printed(await sendFile(c, challenge.id, await reencoded(given), "c.jpg"));
    expect(copy).toMatchObject({ kind: "file", imageHash: null });
    for (const team of [b, c]) expect(await signalsOfTeam(team.team.id)).toEqual([]);
    // A copy of the attachment made anew (re-encoded twice) and shared byte for byte by two teams is still an
    // identical file, though near the attachment.
    const [g, h] = [await makePlayer(), await makePlayer()];
    const marked = await reencoded(await reencoded(given));
    await printed(await sendFile(g, challenge.id, marked, "g.jpg"));
    await printed(await sendFile(h, challenge.id, marked, "h.jpg"));
    expect(await signalsOfTeam(h.team.id)).toMatchObject([{ kind: "identical-file", otherTeamId: g.team.id }]);

    // A PNG cut short: stored as a plain file (its bytes' hash still compared), no image hash, no crash.
    const broken = (await picturePng(32)).subarray(0, 2000);
    const [print] = await printed(await sendFile(d, challenge.id, broken, "broken.png"));
    expect(print).toMatchObject({ kind: "file", imageHash: null });
    // The worker goes on: the next uploads are compared as usual.
    const [e, f] = [await makePlayer(), await makePlayer()];
    await printed(await sendFile(e, challenge.id, await picturePng(33), "e.png"));
    await printed(await sendFile(f, challenge.id, await reencoded(await picturePng(33)), "f.jpg"));
    expect(await signalsOfTeam(f.team.id)).toMatchObject([{ kind: "image", otherTeamId: e.team.id }]);
  });
});
