/**
 * Judging feedback returned to teams (docs/domain.md "Feedback to teams"): nothing of it leaves the server
 * until an admin publishes the gate's; then the team reads, on its own submission only, the mean per rubric
 * criterion, each judge's score and comment under "Judge N" (by score id, never who), and the mean.
 * Publishing and withdrawing are audited once; an unchanged save records nothing.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeCriteria, eventSettings, gates } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getFeedbackGates, updateFeedbackGates } from "../../app/modules/judging/feedback.server.ts";
import { FeedbackGatesSchema } from "../../app/modules/judging/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { saveSubmission } from "../../app/modules/submissions/submit.server.ts";
import * as pageRoute from "../../app/routes/_app.submition.$id.tsx";
import * as settingsRoute from "../../app/routes/dashboard.settings.tsx";
import * as apiRoute from "../../app/routes/api.v1.teams.$id.challenges.$challengeId.submission.tsx";
import { parseWithZod } from "@conform-to/zod/v4";
import { actorFor, ensureEventSettings, makeChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { ORIGIN, send } from "../support/api.ts";

const HOUR = 3_600_000;

let world: Awaited<ReturnType<typeof makeWorld>>;

async function lastAuditId(): Promise<number> {
  const [row] = await getDb().select({ id: sql<string>`coalesce(max(${auditLog.id}), 0)` }).from(auditLog);
  return Number(row.id);
}

async function feedbackRecordsSince(id: number) {
  return getDb()
    .select()
    .from(auditLog)
    .where(and(gt(auditLog.id, id), eq(auditLog.kind, "event.feedback")));
}

/** What the browser would get for the submission page (its loader's data, as `.data` serialises it). */
async function pageData(cookie: string, challengeId: number) {
  const result = (await pageRoute.loader({
    request: new Request(`${ORIGIN}/submition/${challengeId}`, { headers: { Cookie: cookie } }),
    params: { id: String(challengeId) },
    context: {},
  })) as Awaited<ReturnType<typeof pageRoute.loader>>;
  return { data: result, text: JSON.stringify(result) };
}

async function makeWorld() {
  const team = await makeTeam();
  const member = await makeUser("participant", team.id);
  const otherTeam = await makeTeam();
  const outsider = await makeUser("participant", otherTeam.id);
  const admin = await makeUser("admin");
  const [early, late, third] = [await makeUser("judge"), await makeUser("judge"), await makeUser("judge")];
  const memberActor = actorFor(member.id, member.name, "participant");
  const send = (challengeId: number, text: string) => saveSubmission({ actor: memberActor, teamId: team.id, challengeId, text, file: null });

  // Gate 1: a rubric challenge scored by two judges (the later-registered judge scores first).
  const rubric = await makeChallenge({ points: 10, wave: 1 });
  const [correctness, clarity] = await getDb()
    .insert(challengeCriteria)
    .values([
      { challengeId: rubric.id, position: 0, name: "Correctness", weight: 2, maxPoints: 5 },
      { challengeId: rubric.id, position: 1, name: "Clarity", weight: 1, maxPoints: 10 },
    ])
    .returning();
  const { submissionId: rubricSubmission } = await send(rubric.id, "our rubric answer");
  await scoreSubmission({ submissionId: rubricSubmission, judge: actorFor(late.id, late.name), criteria: { [correctness.id]: "5", [clarity.id]: "4" }, comment: "Feedback from the first scorer" });
  await scoreSubmission({ submissionId: rubricSubmission, judge: actorFor(early.id, early.name), criteria: { [correctness.id]: "4", [clarity.id]: "7" } });

  // Gate 1: a rejected one (still commented), and one nobody scored.
  const rejected = await makeChallenge({ points: 20, wave: 1 });
  const { submissionId: rejectedSubmission } = await send(rejected.id, "copied answer");
  await scoreSubmission({ submissionId: rejectedSubmission, judge: actorFor(third.id, third.name), score: "12", comment: "Rejected: this was copied", verdict: "rejected" });
  const unscored = await makeChallenge({ points: 20, wave: 1 });
  await send(unscored.id, "not looked at yet");

  // Gate 2: scored and commented, never published here.
  const gateTwo = await makeChallenge({ points: 20, wave: 2 });
  const { submissionId: gateTwoSubmission } = await send(gateTwo.id, "gate two answer");
  await scoreSubmission({ submissionId: gateTwoSubmission, judge: actorFor(early.id, early.name), score: "15", comment: "Gate two comment stays unpublished" });

  return {
    team,
    member,
    outsider,
    admin,
    judges: [early, late, third],
    rubric,
    rejected,
    unscored,
    gateTwo,
    send,
    cookies: { member: await sessionCookie(member.id), outsider: await sessionCookie(outsider.id), admin: await sessionCookie(admin.id) },
  };
}

const adminActor = () => actorFor(world.admin.id, world.admin.name, "admin");

beforeAll(async () => {
  await ensureEventSettings();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() + (number <= 2 ? -HOUR : HOUR)) })))
    .onConflictDoNothing();
  world = await makeWorld();
});

describe("judging feedback", () => {
  it("is off by default: nothing of it in the page's data", async () => {
    expect(await getFeedbackGates()).toEqual([]);
    for (const challenge of [world.rubric, world.rejected, world.gateTwo]) {
      const { data, text } = await pageData(world.cookies.member, challenge.id);
      expect(data.submission).toMatchObject({ feedback: null });
      for (const secret of ["Feedback from the first scorer", "Rejected: this was copied", "Gate two comment", "Judge 1", "Correctness"]) expect(text).not.toContain(secret);
    }
  });

  it("published for gate 1: the criteria's means, the judges by number in the order they scored, the mean; not gate 2's", async () => {
    const since = await lastAuditId();
    expect(await updateFeedbackGates(adminActor(), [1])).toEqual([1]);
    const [record, ...more] = await feedbackRecordsSince(since);
    expect(more).toEqual([]);
    expect(record).toMatchObject({ actorId: world.admin.id, before: { gates: [] }, after: { gates: [1] } });

    const { data, text } = await pageData(world.cookies.member, world.rubric.id);
    // Judge "late" scored first: 2×5/5 + 1×4/10 over 3 → 10 × 2.4/3 = 8; "early": 2×4/5 + 1×7/10 = 2.3 → 7.67. Mean 7.84 (rounded half up).
    expect(data.submission?.feedback).toEqual({
      meanCenti: 784,
      points: 10,
      rejected: false,
      criteria: [
        { name: "Correctness", maxPoints: 5, meanCenti: 450 },
        { name: "Clarity", maxPoints: 10, meanCenti: 550 },
      ],
      judges: [
        { number: 1, scoreCenti: 800, comment: "Feedback from the first scorer", earlierVersion: false },
        { number: 2, scoreCenti: 767, comment: null, earlierVersion: false },
      ],
    });
    // Anonymous: no judge's name or id anywhere in the page's data.
    for (const judge of world.judges) {
      expect(text).not.toContain(judge.name);
      expect(text).not.toMatch(new RegExp(`"(judge|judgeId|userId|id)":${judge.id}\\b`));
    }

    const gateTwo = await pageData(world.cookies.member, world.gateTwo.id);
    expect(gateTwo.data.submission).toMatchObject({ feedback: null });
    expect(gateTwo.text).not.toContain("Gate two comment");
  });

  it("a rejected submission says so and keeps its comments; an unscored one has none", async () => {
    await updateFeedbackGates(adminActor(), [1]);
    const rejected = (await pageData(world.cookies.member, world.rejected.id)).data.submission?.feedback;
    expect(rejected).toMatchObject({ rejected: true, meanCenti: 1200, judges: [{ number: 1, comment: "Rejected: this was copied" }] });
    const unscored = (await pageData(world.cookies.member, world.unscored.id)).data.submission?.feedback;
    expect(unscored).toEqual({ meanCenti: null, points: 20, rejected: false, criteria: [], judges: [] });
  });

  it("a score given to an earlier version is marked so", async () => {
    await updateFeedbackGates(adminActor(), [1]);
    const challenge = await makeChallenge({ points: 10, wave: 1 });
    const { submissionId } = await world.send(challenge.id, "first version");
    await scoreSubmission({ submissionId, judge: actorFor(world.judges[0].id), score: "6", comment: "first look" });
    await world.send(challenge.id, "second version");
    const feedback = (await pageData(world.cookies.member, challenge.id)).data.submission?.feedback;
    expect(feedback?.judges).toEqual([{ number: 1, scoreCenti: 600, comment: "first look", earlierVersion: true }]);
  });

  it("another team's members never read it: the page shows their own (none), the API refuses", async () => {
    await updateFeedbackGates(adminActor(), [1, 2]);
    const page = await pageData(world.cookies.outsider, world.rubric.id);
    expect(page.data.submission).toBeNull();
    expect(page.text).not.toContain("Feedback from the first scorer");
    const path = `/teams/${world.team.id}/challenges/${world.rubric.id}/submission`;
    const params = { id: String(world.team.id), challengeId: String(world.rubric.id) };
    const refused = await send(apiRoute, "GET", path, { cookie: world.cookies.outsider }, params);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain("Feedback from the first scorer");

    // The team itself reads the same feedback through the API, in points.
    const own = await send(apiRoute, "GET", path, { cookie: world.cookies.member }, params);
    expect(own.status).toBe(200);
    expect(own.body?.feedback).toEqual({
      score: 7.84,
      points: 10,
      rejected: false,
      criteria: [
        { name: "Correctness", maxPoints: 5, score: 4.5 },
        { name: "Clarity", maxPoints: 10, score: 5.5 },
      ],
      judges: [
        { judge: "Judge 1", score: 8, comment: "Feedback from the first scorer", earlierVersion: false },
        { judge: "Judge 2", score: 7.67, comment: null, earlierVersion: false },
      ],
    });
    await updateFeedbackGates(adminActor(), [1]);
    const unpublished = await send(apiRoute, "GET", `/teams/${world.team.id}/challenges/${world.gateTwo.id}/submission`, { cookie: world.cookies.member }, { id: String(world.team.id), challengeId: String(world.gateTwo.id) });
    expect(unpublished.body).toMatchObject({ feedback: null });
  });

  it("an unchanged save records nothing (order and repeats do not matter); withdrawing is recorded", async () => {
    await updateFeedbackGates(adminActor(), [1, 2]);
    const since = await lastAuditId();
    expect(await updateFeedbackGates(adminActor(), [2, 1, 2])).toEqual([1, 2]);
    expect(await feedbackRecordsSince(since)).toEqual([]);
    await updateFeedbackGates(adminActor(), []);
    const records = await feedbackRecordsSince(since);
    expect(records.map((record) => [record.before, record.after])).toEqual([[{ gates: [1, 2] }, { gates: [] }]]);
    expect((await pageData(world.cookies.member, world.rubric.id)).data.submission).toMatchObject({ feedback: null });
  });

  it("the settings form: ticked gates published, none ticked withdraws, anything else refused", async () => {
    const post = (fields: Array<[string, string]>) =>
      settingsRoute.action({
        request: new Request(`${ORIGIN}/dashboard/settings`, {
          method: "POST",
          headers: { Cookie: world.cookies.admin, Origin: ORIGIN },
          body: new URLSearchParams([["intent", "feedback"], ...fields]),
        }),
        params: {},
        context: {},
      });
    const saved = (await post([["gates", "3"], ["gates", "1"]])) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/dashboard/settings");
    const [row] = await getDb().select({ gates: eventSettings.feedbackGates }).from(eventSettings);
    expect(row.gates).toEqual([1, 3]);
    const settings = (await settingsRoute.loader({ request: new Request(`${ORIGIN}/dashboard/settings`, { headers: { Cookie: world.cookies.admin } }), params: {}, context: {} })) as Awaited<
      ReturnType<typeof settingsRoute.loader>
    >;
    expect(settings.feedbackGates).toEqual([1, 3]);

    const single = (await post([["gates", "2"]])) as Response;
    expect(single.status).toBe(302);
    expect(await getFeedbackGates()).toEqual([2]);
    expect(((await post([])) as Response).status).toBe(302);
    expect(await getFeedbackGates()).toEqual([]);

    const refused = (await post([["gates", "6"]])) as unknown as { init: { status: number } };
    expect(refused.init.status).toBe(400);
    expect(await getFeedbackGates()).toEqual([]);
    expect(parseWithZod(new URLSearchParams([["gates", "x"]]), { schema: FeedbackGatesSchema }).status).toBe("error");
    expect(messages.judging.feedbackSaved([1, 3])).toBe("Judging feedback published for gates 1, 3");
  });

  it("the page follows every change of the published gates on its next read, however it was made", async () => {
    const feedbackOnPage = async () => (await pageData(world.cookies.member, world.rubric.id)).data.submission?.feedback ?? null;
    await updateFeedbackGates(adminActor(), [1]);
    expect(await feedbackOnPage()).toMatchObject({ meanCenti: 784 });
    expect(await feedbackOnPage()).toMatchObject({ meanCenti: 784 });
    await updateFeedbackGates(adminActor(), []);
    expect(await feedbackOnPage()).toBeNull();
    // An operator's statement in psql: the version moves all the same.
    await getDb().update(eventSettings).set({ feedbackGates: [1] }).where(eq(eventSettings.id, 1));
    expect(await feedbackOnPage()).toMatchObject({ meanCenti: 784 });
    await getDb().update(eventSettings).set({ feedbackGates: [] }).where(eq(eventSettings.id, 1));
    expect(await feedbackOnPage()).toBeNull();
  });
});
