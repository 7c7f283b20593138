/**
 * Prerequisites and release times (docs/domain.md "Gates and challenges"): a challenge a team must unlock by
 * solving others, and one that opens some minutes after its gate, refused the same way on every path.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge, updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { FlagError, sendFlag } from "../../app/modules/flags/guess.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getChallengeForSubmission, getGateBoard } from "../../app/modules/participant/board.server.ts";
import { assertCanSubmit, findDownloadableAttachment } from "../../app/modules/submissions/submit.server.ts";
import { actorFor, ensureEventSettings, makeTeam, makeUser, openAllGates, testAdmin } from "../support/fixtures.ts";

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
});

const flag = (title: string, answer: string, over: Record<string, unknown> = {}) =>
  createChallenge(testAdmin, { title, description: `the ${title} brief`, points: 100, category: "CS" as const, wave: 5, checking: "flag" as const, answers: `exact: ${answer}`, ...over }, null);

describe("prerequisites", () => {
  it("lock a challenge for a team until it solved them, on the gate, the page, the answer, the upload and the file", async () => {
    const first = await flag(`First ${Date.now()}`, "GK{one}");
    const second = await flag(`Second ${Date.now()}`, "GK{two}", { prerequisites: [first.id] });
    await getDb().update(challenges).set({ attachmentKey: "k", attachmentName: "brief.pdf" }).where(eq(challenges.id, second.id));
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const actor = actorFor(user.id, user.name, "participant");
    const viewer = { role: "participant" as const, teamId: team.id };

    const card = async () => (await getGateBoard(5, team.id))?.challenges?.find((c) => c.id === second.id);
    expect((await card())?.locked).toEqual([expect.stringMatching(/^First/)]);
    const page = await getChallengeForSubmission(second.id, viewer);
    expect(page?.locked).toHaveLength(1);
    expect(JSON.stringify(page)).not.toContain("the Second");
    await expect(sendFlag({ actor, teamId: team.id, challengeId: second.id, answer: "GK{two}" })).rejects.toMatchObject({ code: "locked", status: 403, message: messages.participant.challengeLocked });
    await expect(assertCanSubmit({ teamId: team.id, challengeId: second.id })).rejects.toMatchObject({ code: "locked" });
    expect(await findDownloadableAttachment(second.id, viewer)).toBeNull();
    // Staff are never held back.
    expect((await getChallengeForSubmission(second.id, { role: "admin", teamId: null }))?.locked).toBeNull();

    expect((await sendFlag({ actor, teamId: team.id, challengeId: first.id, answer: "GK{one}" })).verdict).toBe("correct");
    expect((await card())?.locked).toBeNull();
    expect((await getChallengeForSubmission(second.id, viewer))?.challenge.description).toContain("the Second");
    expect((await sendFlag({ actor, teamId: team.id, challengeId: second.id, answer: "GK{two}" })).verdict).toBe("correct");
  });

  it("refuses a challenge that requires itself, directly or through others", async () => {
    const a = await flag(`A ${Date.now()}`, "GK{a}");
    const b = await flag(`B ${Date.now()}`, "GK{b}", { prerequisites: [a.id] });
    const base = { title: "A again", description: "d", points: 100, category: "CS" as const, wave: 5, checking: "flag" as const, answers: "exact: GK{a}" };
    await expect(updateChallenge(testAdmin, a.id, { ...base, prerequisites: [a.id] }, null)).rejects.toMatchObject({ status: 400, field: "prerequisites", message: messages.dashboard.prerequisiteSelf });
    await expect(updateChallenge(testAdmin, a.id, { ...base, prerequisites: [b.id] }, null)).rejects.toMatchObject({ status: 400, message: messages.dashboard.prerequisiteCycle });
    await expect(updateChallenge(testAdmin, a.id, { ...base, prerequisites: [999_999] }, null)).rejects.toMatchObject({ status: 400, message: messages.dashboard.prerequisiteUnknown });
  });
});

describe("release times", () => {
  it("keep a challenge hidden until its minutes after the gate have passed, for every path", async () => {
    const later = await flag(`Later ${Date.now()}`, "GK{later}", { releaseAfterMinutes: 120 });
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const actor = actorFor(user.id, user.name, "participant");
    // Gates opened an hour ago: released in an hour.
    expect((await getGateBoard(5, team.id))?.challenges?.some((c) => c.id === later.id)).toBe(false);
    expect(await getChallengeForSubmission(later.id, { role: "participant", teamId: team.id })).toBeNull();
    const refused = await sendFlag({ actor, teamId: team.id, challengeId: later.id, answer: "GK{later}" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FlagError);
    expect(refused).toMatchObject({ code: "notReleased", status: 403, message: messages.participant.challengeNotReleased });
    await getDb().update(challenges).set({ releaseAfterMinutes: 30 }).where(eq(challenges.id, later.id));
    expect((await sendFlag({ actor, teamId: team.id, challengeId: later.id, answer: "GK{later}" })).verdict).toBe("correct");
  });
});
