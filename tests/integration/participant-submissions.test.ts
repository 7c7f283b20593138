import { Readable } from "node:stream";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { challenges, gates, standingsOutbox, submissions, submissionVersions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { objectExists, uploadStream, newObjectKey } from "../../app/infrastructure/s3.server.ts";
import {
  findDownloadableAttachment,
  findDownloadableSubmissionFile,
  saveSubmission,
  SubmissionError,
  type StoredFile,
} from "../../app/modules/submissions/submit.server.ts";
import { handleSubmissionPost } from "../../app/glue/submission-upload.server.ts";
import { getChallengeForSubmission, getGateBoard } from "../../app/modules/participant/board.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";
import { makeChallenge, makeTeam, makeUser, actorFor, callerOf } from "../support/fixtures.ts";
import { multipart } from "../support/multipart.ts";
import { expectNoIncompleteUploads } from "../support/buckets.ts";

const HOUR = 3_600_000;

beforeAll(async () => {
  const now = Date.now();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({
      number,
      title: `Gate ${number}`,
      description: "d",
      opensAt: new Date(number <= 2 ? now - HOUR : now + HOUR),
    })));
});

async function storedFile(content: string, name = "answer.txt"): Promise<StoredFile> {
  const key = newObjectKey("submissions");
  const { size } = await uploadStream({ key, body: Readable.from([Buffer.from(content)]), limitBytes: 1000 });
  return { key, name, type: "text/plain", size };
}

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SubmissionError) return error.code;
    throw error;
  }
  return "ok";
}

describe("submission rules", () => {
  it("refuses a user without a team, an empty submission, a closed gate, an inactive or gateless challenge", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const open = await makeChallenge({ wave: 1 });
    const closed = await makeChallenge({ wave: 4 });
    const inactive = await makeChallenge({ wave: 1 });
    await getDb().update(challenges).set({ status: "inactive" }).where(eq(challenges.id, inactive.id));
    const draft = await makeChallenge({ wave: 1 });
    await getDb().update(challenges).set({ wave: null }).where(eq(challenges.id, draft.id));

    const base = { actor: actorFor(user.id, user.name, "participant"), teamId: team.id, file: null };
    expect(await codeOf(saveSubmission({ ...base, teamId: null, challengeId: open.id, text: "x" }))).toBe("noTeam");
    expect(await codeOf(saveSubmission({ ...base, challengeId: open.id, text: "   " }))).toBe("empty");
    expect(await codeOf(saveSubmission({ ...base, challengeId: closed.id, text: "x" }))).toBe("closed");
    expect(await codeOf(saveSubmission({ ...base, challengeId: inactive.id, text: "x" }))).toBe("inactive");
    expect(await codeOf(saveSubmission({ ...base, challengeId: draft.id, text: "x" }))).toBe("noGate");
    expect(await getDb().select().from(submissions).where(eq(submissions.teamId, team.id))).toHaveLength(0);

    // A file stored for a refused submission is removed again.
    const file = await storedFile("late");
    expect(await codeOf(saveSubmission({ ...base, challengeId: closed.id, text: null, file }))).toBe("closed");
    expect(await objectExists(file.key)).toBe(false);
  });

  it("creates, then updates the one submission of the team; a text update keeps the file, a new file replaces it", async () => {
    const team = await makeTeam();
    const [alice, bob] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const challenge = await makeChallenge({ wave: 2 });

    const outbox = async () => (await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).length;
    const first = await saveSubmission({ actor: actorFor(alice.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: "first", file: null });
    expect(first.created).toBe(true);
    // Not judged yet, whoever sends it: nothing in the standings or a member's statistics can move, no recompute asked.
    expect(await outbox()).toBe(0);

    const fileA = await storedFile("version A", "a.txt");
    const second = await saveSubmission({ actor: actorFor(bob.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: null, file: fileA });
    expect(second).toEqual({ submissionId: first.submissionId, created: false });
    expect(await outbox()).toBe(0);

    // Judged (credited to Bob), then sent again by Alice: the judged answer's points move to her statistics.
    await getDb().update(submissions).set({ status: "reviewed", scoreCenti: 8000, scoredAt: new Date() }).where(eq(submissions.id, first.submissionId));
    await saveSubmission({ actor: actorFor(alice.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: "second", file: null });
    expect(await outbox()).toBe(1);
    let [row] = await getDb().select().from(submissions).where(eq(submissions.id, first.submissionId));
    expect(row).toMatchObject({ text: "second", fileKey: fileA.key, fileName: "a.txt", userId: alice.id, status: "pending", scoreCenti: 8000 });

    const fileB = await storedFile("version B", "b.txt");
    await saveSubmission({ actor: actorFor(bob.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: null, file: fileB });
    [row] = await getDb().select().from(submissions).where(eq(submissions.id, first.submissionId));
    expect(row).toMatchObject({ text: "second", fileKey: fileB.key, fileName: "b.txt", userId: bob.id });
    // Every replaced version is kept, oldest first, with the file it had (its object stays in storage).
    const versions = await getDb()
      .select({ text: submissionVersions.text, fileKey: submissionVersions.fileKey, userId: submissionVersions.userId })
      .from(submissionVersions)
      .where(eq(submissionVersions.submissionId, first.submissionId))
      .orderBy(asc(submissionVersions.submittedAt), asc(submissionVersions.id));
    expect(versions).toEqual([
      { text: "first", fileKey: null, userId: alice.id },
      { text: "first", fileKey: fileA.key, userId: bob.id },
      { text: "second", fileKey: fileA.key, userId: alice.id },
    ]);
    expect(await objectExists(fileA.key)).toBe(true);
    expect(await objectExists(fileB.key)).toBe(true);
    expect(await getDb().select().from(submissions).where(eq(submissions.teamId, team.id))).toHaveLength(1);
  });

  it("asks a standings recompute only for a version that can move them: another member sending an answer already judged", async () => {
    const team = await makeTeam();
    const [alice, bob] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const challenge = await makeChallenge({ wave: 2 });
    const outbox = async () => (await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).length;
    const send = (user: { id: number }, text: string) => saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text, file: null });
    const { submissionId } = await send(alice, "first");
    // Rejected without a score: judged all the same (its time and its zero move with the member credited).
    await getDb().update(submissions).set({ status: "rejected", rejected: true, scoredAt: new Date() }).where(eq(submissions.id, submissionId));
    await send(alice, "again, by the member credited");
    expect(await outbox()).toBe(0);
    await send(bob, "by another member");
    expect(await outbox()).toBe(1);
  });

  it("keeps a replaced file for the earlier version instead of deleting it", async () => {
    const { getQueue } = await import("../../app/infrastructure/queue.server.ts");
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1 });
    const old = await storedFile("old");
    const { submissionId } = await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: null, file: old });
    await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: null, file: await storedFile("new") });
    const jobs = await getQueue("storageCleanup").getJobs(["waiting", "delayed", "active"]);
    expect(jobs.map((job) => job.data.key)).not.toContain(old.key);
    expect(await objectExists(old.key)).toBe(true);
    const [version] = await getDb().select().from(submissionVersions).where(eq(submissionVersions.submissionId, submissionId));
    expect(version).toMatchObject({ fileKey: old.key, fileName: "answer.txt", fileSize: 3 });
  });

  it("two members sending the first answer at the same instant: one row, one told 'created', the other 'updated', no object left without a row", async () => {
    // Several rounds: without the team's lock the race showed in most of them.
    for (let round = 0; round < 8; round++) {
      const team = await makeTeam();
      const [alice, bob] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
      const challenge = await makeChallenge({ wave: 1 });
      const [fileA, fileB] = [await storedFile(`alice ${round}`), await storedFile(`bob ${round}`)];
      const results = await Promise.all([
        saveSubmission({ actor: actorFor(alice.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: "from alice", file: fileA }),
        saveSubmission({ actor: actorFor(bob.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: "from bob", file: fileB }),
      ]);
      expect(results.map((result) => result.created).sort()).toEqual([false, true]);
      expect(results[0].submissionId).toBe(results[1].submissionId);
      const rows = await getDb().select().from(submissions).where(eq(submissions.teamId, team.id));
      expect(rows).toHaveLength(1);
      // The file the row keeps is the later writer's; the earlier one's is its earlier version's.
      const kept = rows[0].fileKey;
      const replaced = kept === fileA.key ? fileB.key : fileA.key;
      expect([fileA.key, fileB.key]).toContain(kept);
      const versions = await getDb().select({ fileKey: submissionVersions.fileKey }).from(submissionVersions).where(eq(submissionVersions.submissionId, rows[0].id));
      expect(versions).toEqual([{ fileKey: replaced }]);
    }
  });

  it("lets only the own team, judges and admins download a submission's file", async () => {
    const [mine, other] = [await makeTeam(), await makeTeam()];
    const user = await makeUser("participant", mine.id);
    const challenge = await makeChallenge({ wave: 1 });
    const file = await storedFile("secret");
    const { submissionId } = await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: mine.id, challengeId: challenge.id, text: null, file });
    expect(await findDownloadableSubmissionFile(submissionId, { role: "participant", teamId: mine.id })).toEqual({ key: file.key, name: "answer.txt", size: file.size });
    expect(await findDownloadableSubmissionFile(submissionId, { role: "participant", teamId: other.id })).toBeNull();
    expect(await findDownloadableSubmissionFile(submissionId, { role: "participant", teamId: null })).toBeNull();
    expect(await findDownloadableSubmissionFile(submissionId, { role: "judge", teamId: null })).not.toBeNull();
    expect(await findDownloadableSubmissionFile(submissionId, { role: "admin", teamId: null })).not.toBeNull();
  });

  it("shows a challenge's attachment only to those who may see the challenge", async () => {
    const participant = { role: "participant" as const, teamId: null };
    const withAttachment = async (wave: number) => {
      const challenge = await makeChallenge({ wave });
      await getDb().update(challenges).set({ attachmentKey: `challenges/${challenge.id}`, attachmentName: "brief.pdf" }).where(eq(challenges.id, challenge.id));
      return challenge;
    };
    const open = await withAttachment(1);
    const closed = await withAttachment(5);
    const inactive = await withAttachment(1);
    await getDb().update(challenges).set({ status: "inactive" }).where(eq(challenges.id, inactive.id));
    expect(await findDownloadableAttachment(open.id, participant)).toEqual({ key: `challenges/${open.id}`, name: "brief.pdf" });
    expect(await findDownloadableAttachment(closed.id, participant)).toBeNull();
    expect(await findDownloadableAttachment(inactive.id, participant)).toBeNull();
    expect(await findDownloadableAttachment(closed.id, { role: "admin", teamId: null })).not.toBeNull();
    expect(await findDownloadableAttachment((await makeChallenge({ wave: 1 })).id, { role: "admin", teamId: null })).toBeNull();
  });

  it("a closed gate lists no challenges; an open one shows solved flags and progress", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    expect(await getGateBoard(9, team.id)).toBeNull();
    const closedBoard = await getGateBoard(5, team.id);
    expect(closedBoard?.gate.open).toBe(false);
    expect(closedBoard?.challenges).toBeNull();

    const solvedOne = await makeChallenge({ wave: 2, points: 100 });
    const { submissionId } = await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: solvedOne.id, text: "x", file: null });
    await getDb().update(submissions).set({ status: "reviewed", scoreCenti: 6500 }).where(eq(submissions.id, submissionId));
    const board = await getGateBoard(2, team.id);
    const cards = board?.challenges ?? [];
    expect(cards.find((card) => card.id === solvedOne.id)?.solved).toBe(true);
    expect(cards.filter((card) => card.solved)).toHaveLength(1);
    expect(board?.solvedPercent).toBe(Math.round(100 / cards.length));
    // Another team sees it unsolved.
    const otherBoard = await getGateBoard(2, (await makeTeam()).id);
    expect(otherBoard?.challenges?.find((card) => card.id === solvedOne.id)?.solved).toBe(false);

    const closedChallenge = await makeChallenge({ wave: 5 });
    expect(await getChallengeForSubmission(closedChallenge.id, { role: "participant", teamId: team.id })).toBeNull();
    expect(await getChallengeForSubmission(solvedOne.id, { role: "participant", teamId: team.id })).toMatchObject({
      submission: { id: submissionId, text: "x" },
    });
  });
});

describe("an update after judging", () => {
  const totalOf = async (teamId: number) =>
    (await computeAllStandings(getDb())).standings.find((row) => row.teamId === teamId)?.totalCenti;

  it("keeps a rejected submission at 0 until a judge scores it again, and a reviewed one at its last score", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const judge = await makeUser("judge");
    const rejectedOne = await makeChallenge({ wave: 1, points: 100 });
    const reviewedOne = await makeChallenge({ wave: 1, points: 100 });
    const first = await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: rejectedOne.id, text: "v1", file: null });
    const second = await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: reviewedOne.id, text: "v1", file: null });
    await scoreSubmission({ submissionId: first.submissionId, judge: actorFor(judge.id), score: "90", verdict: "rejected" });
    await scoreSubmission({ submissionId: second.submissionId, judge: actorFor(judge.id), score: "70" });
    expect(await totalOf(team.id)).toBe(7000);

    // The team updates both: pending again, but the rejection still counts 0 and the review still 70.
    await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: rejectedOne.id, text: "v2", file: null });
    await saveSubmission({ actor: actorFor(user.id, undefined, "participant"), teamId: team.id, challengeId: reviewedOne.id, text: "v2", file: null });
    const [row] = await getDb().select().from(submissions).where(eq(submissions.id, first.submissionId));
    expect(row).toMatchObject({ status: "pending", rejected: true });
    expect(await totalOf(team.id)).toBe(7000);
    expect((await getGateBoard(1, team.id))?.challenges?.find((card) => card.id === rejectedOne.id)?.solved).toBe(false);

    // A judge scores the update: now it counts.
    await scoreSubmission({ submissionId: first.submissionId, judge: actorFor(judge.id), score: "80" });
    expect(await totalOf(team.id)).toBe(15000);
    expect((await getGateBoard(1, team.id))?.challenges?.find((card) => card.id === rejectedOne.id)?.solved).toBe(true);
  });
});

describe("streamed upload", () => {
  it("stores a small multipart file with its original name and the text", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1 });
    const request = multipart([
      { name: "text", value: "see file" },
      { name: "file", value: { filename: "report final.pdf", body: new TextEncoder().encode("%PDF-1.4 tiny") } },
    ]);
    const outcome = await handleSubmissionPost(request, { caller: callerOf(user), challengeId: challenge.id, maxBytes: 1000, begunAt: new Date() });
    expect(outcome).toMatchObject({ ok: true, created: true });
    const [row] = await getDb().select().from(submissions).where(eq(submissions.teamId, team.id));
    expect(row).toMatchObject({ text: "see file", fileName: "report final.pdf", fileSize: 13 });
    expect(row.fileKey).toMatch(/^submissions\//);
    expect(await objectExists(row.fileKey!)).toBe(true);
  });

  it("keeps a hostile file name as a plain name, and stores a zero-byte file as no file", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [traversal, empty] = [await makeChallenge({ wave: 1 }), await makeChallenge({ wave: 1 })];
    const post = (challengeId: number, parts: Parameters<typeof multipart>[0]) =>
      handleSubmissionPost(multipart(parts), { caller: callerOf(user), challengeId, maxBytes: 1000, begunAt: new Date() });

    expect(await post(traversal.id, [{ name: "file", value: { filename: "../../etc/passwd", body: new TextEncoder().encode("x") } }])).toMatchObject({ ok: true });
    const [row] = await getDb().select().from(submissions).where(eq(submissions.challengeId, traversal.id));
    expect(row.fileName).toBe("passwd");
    expect(row.fileKey).toMatch(/^submissions\/[0-9a-f-]{36}$/);

    // Nothing to store: refused as empty when there is no text either, and no object is left behind.
    expect(await post(empty.id, [{ name: "file", value: { filename: "nothing.pdf", body: new Uint8Array() } }])).toMatchObject({ ok: false, status: 400 });
    expect(await post(empty.id, [{ name: "text", value: "see below" }, { name: "file", value: { filename: "nothing.pdf", body: new Uint8Array() } }])).toMatchObject({ ok: true });
    const [textOnly] = await getDb().select().from(submissions).where(eq(submissions.challengeId, empty.id));
    expect(textOnly).toMatchObject({ text: "see below", fileKey: null, fileName: null });
  });

  it(
    "cuts a 201 MB body at the real 200 MB limit: nothing stored, memory bounded",
    async () => {
      const team = await makeTeam();
      const user = await makeUser("participant", team.id);
      const challenge = await makeChallenge({ wave: 1 });
      const chunk = new Uint8Array(1024 * 1024).fill(97);
      async function* body() {
        for (let i = 0; i < 201; i++) yield chunk;
      }
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 50);
      const request = multipart([
        { name: "text", value: "big" },
        { name: "file", value: { filename: "huge.bin", body: body() } },
      ]);
      const outcome = await handleSubmissionPost(request, {
        caller: callerOf(user),
        challengeId: challenge.id,
        maxBytes: 209_715_200,
        begunAt: new Date(),
      }).finally(() => clearInterval(sampler));
      expect(outcome).toMatchObject({ ok: false, status: 413, message: "File size exceeds 200MB limit", text: "big" });
      expect(await getDb().select().from(submissions).where(eq(submissions.teamId, team.id))).toHaveLength(0);
      const { getS3 } = await import("../../app/infrastructure/s3.server.ts");
      const { ListObjectsV2Command } = await import("@aws-sdk/client-s3");
      const { getEnv } = await import("../../app/infrastructure/env.server.ts");
      // This file's own bucket (tests/setup/per-file.ts): nothing of another test is listed.
      const listed = await getS3().send(new ListObjectsV2Command({ Bucket: getEnv().S3_BUCKET, Prefix: "submissions/" }));
      const leftovers = (listed.Contents ?? []).filter((object) => (object.Size ?? 0) > 100 * 1024 * 1024);
      expect(leftovers).toHaveLength(0);
      // Nor its 5 MiB parts: the multipart upload was aborted, not left for a lifecycle rule.
      await expectNoIncompleteUploads(getEnv().S3_BUCKET);
      expect(rssPeak - rssBefore).toBeLessThan(120 * 1024 * 1024);
    },
    120_000,
  );
});
