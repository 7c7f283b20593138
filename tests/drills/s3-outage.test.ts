/**
 * Drill: file storage (S3) goes away while people upload through the real web process — killed before a
 * participant's upload, killed in the middle of a large one, and down while an admin attaches a file to
 * a challenge. Each time the user gets a clear message (the form keeps what they typed), no submission or
 * challenge row points at a missing file, and once storage is back no partial object is listed and
 * uploads work again. The s3rver is the drill's own (free port, temporary folder): the shared one is
 * never touched.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challenges, submissions } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { DisposableS3 } from "../support/disposable-s3.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { countRows, FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { leaksInternals, login, postMultipart, type Part } from "./support/http.ts";
import { fullDrills, recordDrill } from "./support/report.ts";

const MiB = 1024 * 1024;
/** The upload cut in the middle: several 5 MiB parts, so storage dies with parts already stored. */
const LARGE_UPLOAD_BYTES = (fullDrills ? 120 : 24) * MiB;
const KILL_AFTER_BYTES = 12 * MiB;
/** The user must hear back promptly, not after the browser gives up. */
const ANSWER_LIMIT_MS = 10_000;

let s3: DisposableS3;

beforeAll(async () => {
  s3 = await DisposableS3.start();
});

afterAll(async () => {
  stopAll();
  await s3?.destroy();
});

/** A file body sent in 256 KiB chunks, paced like a fast browser; `onProgress` sees the bytes sent so far. */
async function* fileBody(bytes: number, onProgress: (sent: number) => Promise<void> = async () => {}) {
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    await onProgress(sent);
    yield chunk.subarray(0, Math.min(chunk.length, bytes - sent));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const submissionParts = (text: string, filename: string, body: AsyncIterable<Uint8Array>): Part[] => [
  { name: "text", value: text },
  { name: "file", filename, body },
];

describe("drill: S3 unavailable during uploads", () => {
  it("tells the user, keeps no row and no partial object, and uploads again once storage is back", async () => {
    const event = await seedDrillEvent({ teams: 1, judges: 0, challenges: 3, submittedChallenges: 0 });
    const { url: web } = await startWebServer(s3.env);
    const [player, admin] = await Promise.all([
      login(web, event.teams[0].participant.name, FIXTURE_PASSWORD),
      login(web, event.admin.name, FIXTURE_PASSWORD),
    ]);
    const uploadUrl = (challengeId: number) => `${web}/submition/${challengeId}/upload`;
    const [first, second, third] = event.challenges;

    // Working first: one upload stored, one row pointing at it.
    const baseline = await postMultipart(uploadUrl(first.id), player, submissionParts("baseline", "baseline.bin", fileBody(1 * MiB)));
    expect(baseline.status).toBe(200);
    const before = { submissions: await countRows(submissions), challenges: await countRows(challenges), objects: (await s3.listKeys()).length };

    // 1. Storage down before the upload starts: the JSON endpoint (the page's upload with progress)...
    await s3.kill();
    const refusedJson = await postMultipart(uploadUrl(second.id), player, submissionParts("typed before the outage", "answer.bin", fileBody(2 * MiB)));
    // ...and the same form without JavaScript: the page comes back with the message and the typed text.
    const refusedPage = await postMultipart(`${web}/submition/${second.id}`, player, submissionParts("typed without javascript", "answer.bin", fileBody(2 * MiB)));
    // 2. An admin attaching a brief to a new challenge while storage is down.
    const pdf = async function* () {
      yield Buffer.from("%PDF-1.4\n");
      yield* fileBody(1 * MiB);
    };
    const refusedAttachment = await postMultipart(`${web}/dashboard/challenges`, admin, [
      { name: "title", value: "Drill challenge" },
      { name: "description", value: "Written while storage was down" },
      { name: "points", value: "50" },
      { name: "category", value: "CS" },
      { name: "wave", value: "1" },
      { name: "attachment", filename: "brief.pdf", body: pdf() },
    ]);
    await s3.start();

    // 3. Storage killed in the middle of a large upload (parts already stored), back a moment later.
    let killedAt = 0;
    const cut = await postMultipart(uploadUrl(third.id), player, submissionParts("large one", "large.bin", fileBody(LARGE_UPLOAD_BYTES, async (sent) => {
      if (killedAt === 0 && sent >= KILL_AFTER_BYTES) {
        await s3.kill();
        killedAt = Date.now();
      }
    })));
    const cutAnsweredMs = Date.now() - killedAt;
    await s3.start();
    const storageBackAt = Date.now();
    const afterOutage = { submissions: await countRows(submissions), challenges: await countRows(challenges), objects: await s3.listKeys() };

    // 4. Back to normal: the same uploads go through.
    const retried = await postMultipart(uploadUrl(third.id), player, submissionParts("large one, again", "large.bin", fileBody(LARGE_UPLOAD_BYTES)));
    const retriedMs = Date.now() - storageBackAt;
    const retriedSmall = await postMultipart(uploadUrl(second.id), player, submissionParts("typed before the outage", "answer.bin", fileBody(2 * MiB)));
    const after = { submissions: await countRows(submissions), objects: await s3.listKeys() };
    const fileKeys = (await getDb().select({ key: submissions.fileKey }).from(submissions)).map((row) => row.key).filter((key) => key !== null).sort();
    const drillChallenge = await getDb().select().from(challenges).where(eq(challenges.title, "Drill challenge"));

    const outcome = (result: typeof cut) => (result.status === "network-error" ? `connection closed (${result.error})` : `HTTP ${result.status}`);
    recordDrill({
      drill: "s3-outage",
      faults: 2,
      fault: `s3rver killed (-9) before uploads and in the middle of a ${LARGE_UPLOAD_BYTES / MiB} MiB upload (after ${KILL_AFTER_BYTES / MiB} MiB)`,
      observations: [
        `upload with storage down: ${outcome(refusedJson)} "${messages.errors.storageUnavailable}"; the form without JavaScript: ${outcome(refusedPage)}, typed text kept`,
        `challenge attachment with storage down: ${outcome(refusedAttachment)}, form kept`,
        `upload cut in the middle: ${outcome(cut)} after ${cutAnsweredMs} ms`,
        `after storage returns: ${afterOutage.objects.length - before.objects} new objects listed (no partial object), uploads work again`,
      ],
      items: [
        { what: "submissions (rows)", before: before.submissions, added: 2, after: after.submissions },
        { what: "stored files (objects)", before: before.objects, added: 2, after: after.objects.length },
        { what: "challenges (rows)", before: before.challenges, added: 0, after: afterOutage.challenges },
      ],
      timings: [
        { what: "answer to an upload cut mid-stream", ms: cutAnsweredMs, limitMs: ANSWER_LIMIT_MS },
        { what: `a ${LARGE_UPLOAD_BYTES / MiB} MiB upload saved after storage is back`, ms: retriedMs },
      ],
    });

    // The user is told, clearly and promptly; nothing leaks.
    expect(refusedJson.status).toBe(503);
    if (refusedJson.status !== "network-error") expect(JSON.parse(refusedJson.body)).toEqual({ ok: false, message: messages.errors.storageUnavailable });
    expect(refusedPage.status).toBe(503);
    if (refusedPage.status !== "network-error") {
      expect(refusedPage.body).toContain(messages.errors.storageUnavailable);
      expect(refusedPage.body).toContain("typed without javascript");
      expect(leaksInternals(refusedPage.body)).toBe(false);
    }
    expect(refusedAttachment.status).toBe(503);
    if (refusedAttachment.status !== "network-error") {
      expect(refusedAttachment.body).toContain(messages.errors.storageUnavailable);
      expect(refusedAttachment.body).toContain("Written while storage was down");
    }
    // A mid-stream cut may end in the 503 or, while the browser is still sending, in a closed connection
    // (the page then says "Failed to submit challenge"); never in a success.
    expect(cut.status === 503 || cut.status === "network-error", `the cut upload answered ${outcome(cut)}`).toBe(true);
    expect(cutAnsweredMs).toBeLessThan(ANSWER_LIMIT_MS);

    // Nothing half-saved: no row for a refused upload, no partial object once storage is back.
    expect(afterOutage.submissions).toBe(before.submissions);
    expect(afterOutage.challenges).toBe(before.challenges);
    expect(drillChallenge).toEqual([]);
    expect(afterOutage.objects).toHaveLength(before.objects);

    // Working again, and every row's file is there (no orphan either way).
    expect(retried.status).toBe(200);
    expect(retriedSmall.status).toBe(200);
    expect(after.submissions).toBe(before.submissions + 2);
    expect(after.objects).toEqual(fileKeys);
  });
});
