/**
 * Prerequisites and release times (docs/domain.md "Gates and challenges"): a challenge a team must unlock by
 * solving others, and one that opens some minutes after its gate, refused the same way on every path.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { challengePrerequisites, challenges, flagAttempts, flagSolves, users } from "../../db/schema.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { missingPrerequisites } from "../../app/modules/challenges/visibility.server.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";
import { deleteTeam } from "../../app/modules/teams/teams.server.ts";
import * as challengeApi from "../../app/routes/api.v1.challenges.$id.tsx";
import { send } from "../support/api.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge, updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { FlagError, flagChallenge, sendFlag } from "../../app/modules/flags/guess.server.ts";
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
    // Named by its title in both languages (the page shows its reader's: app/modules/participant/board.server.ts).
    expect((await card())?.locked).toEqual([{ title: expect.stringMatching(/^First/), titleAr: null }]);
    const page = await getChallengeForSubmission(second.id, viewer);
    expect(page?.locked).toHaveLength(1);
    expect(JSON.stringify(page)).not.toContain("the Second");
    await expect(sendFlag({ actor, teamId: team.id, challengeId: second.id, answer: "GK{two}" })).rejects.toMatchObject({ code: "locked", status: 403, message: messages.participant.challengeLocked });
    // A wrong answer is refused alike (its batch's statement is the one that checks prerequisites), nothing counted.
    await expect(sendFlag({ actor, teamId: team.id, challengeId: second.id, answer: "GK{not-it}" })).rejects.toMatchObject({ code: "locked", status: 403 });
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.challengeId, second.id))).toEqual([]);
    await expect(assertCanSubmit({ teamId: team.id, challengeId: second.id })).rejects.toMatchObject({ code: "locked" });
    expect(await findDownloadableAttachment(second.id, viewer)).toBeNull();
    // Staff are never held back.
    expect((await getChallengeForSubmission(second.id, { role: "admin", teamId: null }))?.locked).toBeNull();

    // A prerequisite participants cannot see yet is not named.
    const hidden = await flag(`Hidden ${Date.now()}`, "GK{h}");
    await getDb().update(challenges).set({ status: "inactive", title: "HIDDEN-TITLE" }).where(eq(challenges.id, hidden.id));
    const third = await flag(`Third ${Date.now()}`, "GK{3}", { prerequisites: [hidden.id] });
    expect((await getGateBoard(5, team.id))?.challenges?.find((c) => c.id === third.id)?.locked).toEqual([null]);

    expect((await sendFlag({ actor, teamId: team.id, challengeId: first.id, answer: "GK{one}" })).verdict).toBe("correct");
    expect((await card())?.locked).toBeNull();
    expect((await getChallengeForSubmission(second.id, viewer))?.challenge.description).toContain("the Second");
    expect((await sendFlag({ actor, teamId: team.id, challengeId: second.id, answer: "GK{two}" })).verdict).toBe("correct");
  });

  it("lock a challenge that gains a prerequisite after this process remembered it, before the change is heard", async () => {
    const needed = await flag(`Needed ${Date.now()}`, "GK{needed}");
    for (const answer of ["GK{typo}", "GK{open}"]) {
      const open = await flag(`Open ${answer} ${Date.now()}`, "GK{open}");
      const team = await makeTeam();
      const user = await makeUser("participant", team.id);
      const actor = actorFor(user.id, user.name, "participant");
      await expect(sendFlag({ actor, teamId: team.id, challengeId: open.id, answer: "GK{first-typo}" })).resolves.toMatchObject({ verdict: "incorrect" });
      const before = await flagChallenge(open.id);
      expect(before?.hasPrerequisites).toBe(false);
      // The change as its trigger makes it (the challenges' version moved), but its notice not heard yet: triggers off
      // for the insert, the version moved by hand. This process still holds the challenge as it was, so the answer
      // goes through the statement that checks no prerequisites, whose version check alone sends it back to be read
      // again; then it is refused.
      await getDb().transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.insert(challengePrerequisites).values({ challengeId: open.id, requiresId: needed.id });
        await tx.execute(sql`update event_data_versions set version = version + 1 where table_name = 'challenges'`);
      });
      const remembered = flagChallenge(open.id);
      const sent = sendFlag({ actor, teamId: team.id, challengeId: open.id, answer });
      expect(await remembered).toBe(before);
      await expect(sent).rejects.toMatchObject({ code: "locked", status: 403 });
      expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.challengeId, open.id))).toHaveLength(1);
      expect(await getDb().select().from(flagSolves).where(eq(flagSolves.challengeId, open.id))).toEqual([]);
    }
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

describe("release times, and what unlocks and keeps", () => {
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

  it("hold a dynamic solve as solved, whatever its value falls to; a locked challenge is not the API's to show", async () => {
    const dynamic = await flag(`Dynamic ${Date.now()}`, "GK{dyn}");
    await getDb().update(challenges).set({ scoring: "dynamic", minimumPoints: 100, decay: 2, points: 500 }).where(eq(challenges.id, dynamic.id));
    const next = await flag(`Next ${Date.now()}`, "GK{next}", { prerequisites: [dynamic.id] });
    await getDb().update(challenges).set({ description: "SECRET BRIEF of next" }).where(eq(challenges.id, next.id));
    const [first, ...others] = await Promise.all([0, 1, 2].map(async () => {
      const team = await makeTeam();
      const user = await makeUser("participant", team.id);
      return { team, user, actor: actorFor(user.id, user.name, "participant") };
    }));
    const { token } = await createApiToken(testAdmin, first.user.id, "locked");
    const read = async () => (await send(challengeApi, "GET", `/challenges/${next.id}`, { token }, { id: String(next.id) }));
    const locked = await read();
    expect(locked.status).toBe(404);
    expect(JSON.stringify(locked.body)).not.toContain("SECRET BRIEF");

    await sendFlag({ actor: first.actor, teamId: first.team.id, challengeId: dynamic.id, answer: "GK{dyn}" });
    for (const other of others) await sendFlag({ actor: other.actor, teamId: other.team.id, challengeId: dynamic.id, answer: "GK{dyn}" });
    // Three solves at decay 2: the value is the minimum, 100 of 500, far below 65 %: still solved.
    expect((await missingPrerequisites(getDb(), first.team.id, [next.id])).size).toBe(0);
    expect((await getGateBoard(5, first.team.id))?.challenges?.find((c) => c.id === dynamic.id)?.solved).toBe(true);
    const standing = (await computeAllStandings(getDb())).standings.find((row) => row.teamId === first.team.id);
    expect(standing).toMatchObject({ totalCenti: 10_000, solvedCount: 1 });
    expect((await read()).status).toBe(200);
  });

  it("keep a team that answered by flag from being deleted, as one with submissions", async () => {
    const challenge = await flag(`Kept ${Date.now()}`, "GK{kept}");
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    await sendFlag({ actor: actorFor(user.id, user.name, "participant"), teamId: team.id, challengeId: challenge.id, answer: "GK{nope}" });
    await getDb().update(users).set({ teamId: null }).where(eq(users.id, user.id));
    await expect(deleteTeam(testAdmin, team.id)).rejects.toMatchObject({ status: 409, message: messages.dashboard.teamHasAnswers });
  });
});
