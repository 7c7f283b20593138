import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { challengeHints, challenges, flagAttempts, hintUnlocks } from "../../db/schema.ts";
import { replaceHints } from "../../app/modules/flags/hints.server.ts";
import { makeFlagChallenge } from "../support/flags.ts";
import { createChallenge, deleteChallenge, getChallenge, toggleChallengeStatus, updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { ChallengeFormSchema } from "../../app/modules/challenges/schema.ts";
import { parseChallengeForm } from "../../app/glue/challenge-form.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { objectExists } from "../../app/infrastructure/s3.server.ts";
import { makeChallenge, makeSubmission, makeTeam, testAdmin } from "../support/fixtures.ts";


const m = messages.dashboard;
const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
// "MZ": a Windows executable renamed to .docx.
const exe = Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]), Buffer.alloc(2000, 1)]);

function multipartRequest(fields: Record<string, string>, file?: { name: string; body: Buffer; type?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("attachment", new File([new Uint8Array(file.body)], file.name, { type: file.type ?? "application/octet-stream" }));
  return new Request("http://localhost/dashboard/challenges", { method: "POST", body: form });
}

const valid = { title: "Lost runes", description: "Decode them", points: "100", category: "AI" };

describe("challenge form validation", () => {
  it("uses the original platform's messages", () => {
    const result = ChallengeFormSchema.safeParse({});
    const byPath = Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
    expect(byPath).toEqual({ title: m.titleRequired, description: m.descriptionRequired, points: m.pointsRequired, category: m.categoryRequired });
    expect(ChallengeFormSchema.safeParse({ ...valid, points: "1.5" }).error?.issues[0].message).toBe(m.pointsInvalid);
    expect(ChallengeFormSchema.safeParse({ ...valid, wave: "6" }).error?.issues[0].message).toBe(m.waveInvalid);
    expect(ChallengeFormSchema.parse({ ...valid, wave: "3", difficulty: "Hard" })).toMatchObject({ points: 100, wave: 3, difficulty: "Hard" });
  });
});

describe("challenge attachments", () => {
  it("streams a real PDF to storage and keeps the text fields", async () => {
    const parsed = await parseChallengeForm(multipartRequest(valid, { name: "brief.pdf", body: pdf }));
    expect(parsed.attachmentError).toBeNull();
    expect(parsed.attachment).toMatchObject({ name: "brief.pdf", contentType: "application/pdf", size: pdf.length });
    expect(await objectExists(parsed.attachment!.key)).toBe(true);
    expect(Object.fromEntries(parsed.formData)).toMatchObject(valid);
  });

  it("refuses a .docx that is really an executable, stores nothing, keeps what was typed", async () => {
    const parsed = await parseChallengeForm(multipartRequest(valid, { name: "brief.docx", body: exe }));
    expect(parsed.attachment).toBeNull();
    expect(parsed.attachmentError).toBe(m.attachmentContent);
    expect(Object.fromEntries(parsed.formData)).toMatchObject(valid);
  });

  it("refuses other extensions and ignores an empty file input", async () => {
    const refused = await parseChallengeForm(multipartRequest(valid, { name: "tool.exe", body: exe }));
    expect(refused.attachmentError).toBe(m.attachmentType);
    const none = await parseChallengeForm(multipartRequest(valid, { name: "", body: Buffer.alloc(0) }));
    expect(none).toMatchObject({ attachment: null, attachmentError: null });
  });

  it("cuts an attachment past 20 MB and still keeps the text fields", async () => {
    const big = Buffer.concat([pdf, Buffer.alloc(20 * 1024 * 1024 + 10)]);
    const parsed = await parseChallengeForm(multipartRequest(valid, { name: "huge.pdf", body: big }));
    expect(parsed).toMatchObject({ attachment: null, attachmentError: m.attachmentTooLarge });
    expect(Object.fromEntries(parsed.formData)).toMatchObject(valid);
  });

  it("replacing an attachment hands the old object to the cleanup queue", async () => {
    const first = await parseChallengeForm(multipartRequest(valid, { name: "a.pdf", body: pdf }));
    const created = await createChallenge(testAdmin, ChallengeFormSchema.parse(valid), first.attachment);
    const second = await parseChallengeForm(multipartRequest(valid, { name: "b.pdf", body: pdf }));
    await updateChallenge(testAdmin, created.id, ChallengeFormSchema.parse(valid), second.attachment);
    const row = await getChallenge(created.id);
    expect(row).toMatchObject({ attachmentKey: second.attachment!.key, attachmentName: "b.pdf" });
    const { getQueue } = await import("../../app/infrastructure/queue.server.ts");
    const jobs = await getQueue("storageCleanup").getJobs(["waiting", "delayed", "active"]);
    expect(jobs.map((job) => job.data.key)).toContain(first.attachment!.key);
  });
});

describe("challenges", () => {
  it("is active by default, toggles, and a draft has no wave", async () => {
    const created = await createChallenge(testAdmin, ChallengeFormSchema.parse(valid), null);
    expect(await getChallenge(created.id)).toMatchObject({ status: "active", wave: null });
    expect((await toggleChallengeStatus(testAdmin, created.id)).status).toBe("inactive");
    expect((await toggleChallengeStatus(testAdmin, created.id)).status).toBe("active");
  });

  it("cannot delete a challenge with submissions", async () => {
    const challenge = await makeChallenge();
    const team = await makeTeam();
    await makeSubmission(team.id, challenge.id, null);
    await expect(deleteChallenge(testAdmin, challenge.id)).rejects.toThrow(m.challengeHasSubmissions);
    const free = await makeChallenge();
    await deleteChallenge(testAdmin, free.id);
    expect(await getDb().select().from(challenges).where(eq(challenges.id, free.id))).toHaveLength(0);
  });

  it("cannot delete a challenge teams answered by flag, or whose paid hint a team unlocked", async () => {
    const team = await makeTeam();
    const answered = await makeFlagChallenge([{ kind: "exact", value: "GK{keep}" }]);
    await getDb().insert(flagAttempts).values({ teamId: team.id, challengeId: answered.id, verdict: "incorrect", answer: "no" });
    await expect(deleteChallenge(testAdmin, answered.id)).rejects.toThrow(m.challengeHasAnswers);
    const hinted = await makeChallenge();
    await getDb().transaction((tx) => replaceHints(tx, hinted.id, [{ text: "t", costCenti: 100 }]));
    const [hint] = await getDb().select().from(challengeHints).where(eq(challengeHints.challengeId, hinted.id));
    await getDb().insert(hintUnlocks).values({ teamId: team.id, hintId: hint.id, costCenti: 100 });
    await expect(deleteChallenge(testAdmin, hinted.id)).rejects.toThrow(m.challengeHasAnswers);
    // A flag challenge nobody answered goes, its answers with it.
    const unanswered = await makeFlagChallenge([{ kind: "exact", value: "GK{gone}" }]);
    await deleteChallenge(testAdmin, unanswered.id);
    expect(await getDb().select().from(challenges).where(eq(challenges.id, unanswered.id))).toHaveLength(0);
  });
});
