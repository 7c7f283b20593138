/**
 * Threads between teams and organisers (docs/domain.md "Questions and requests"): a question about a
 * challenge, claimed by one organiser and refused to another, answered, answered back, closed; teams read
 * only their own; a mentor reads nothing else; a published answer is an announcement of that challenge.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { announcements, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { challengeAnswers, createAnnouncement } from "../../app/modules/announcements/announcements.server.ts";
import { mayReadTeam, canOpen } from "../../app/modules/auth/access.ts";
import { maySeeChallenge } from "../../app/modules/challenges/visibility.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { createRequest } from "../../app/modules/requests/requests.server.ts";
import {
  answeredThreadCount,
  answerThread,
  askQuestion,
  claimThread,
  closeThread,
  getThread,
  isTeamThread,
  listThreads,
  publishAnswer,
  questionOf,
  releaseThread,
  teamReply,
  teamThreads,
} from "../../app/modules/requests/threads.server.ts";
import { actorFor, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";

const m = messages.threads;

async function member() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, user, caller: { id: user.id, name: user.name, role: "participant" as const, teamId: team.id, teamName: team.name } };
}

beforeAll(async () => {
  await ensureTwoOpenGates();
});

describe("a question's thread", () => {
  it("open → claimed (one organiser; the other is refused) → answered → answered back → closed", async () => {
    const { team, caller } = await member();
    const challenge = await makeChallenge({ wave: 1 });
    const [sara, omar] = [await makeUser("mentor"), await makeUser("mentor")];
    const saraActor = actorFor(sara.id, sara.name, "mentor");
    const omarActor = actorFor(omar.id, omar.name, "mentor");

    const id = await askQuestion(caller, challenge.id, "Is an external API allowed in CS-2? <b>bold?</b>");
    expect((await listThreads({ challengeId: challenge.id })).map((row) => [row.id, row.status])).toEqual([[id, "open"]]);
    expect(await teamThreads(team.id)).toMatchObject([{ id, kind: "question", status: "open", challenge: challenge.title }]);

    await claimThread(saraActor, id);
    expect(await getThread(id, {})).toMatchObject({ status: "claimed", claimedBy: sara.id, claimedByName: sara.name });
    // The other organiser sees it taken, and can neither claim nor answer it.
    await expect(claimThread(omarActor, id)).rejects.toMatchObject({ status: 409, message: m.claimedByAnother(sara.name) });
    await expect(answerThread(omarActor, id, "me too")).rejects.toMatchObject({ status: 409 });

    await answerThread(saraActor, id, "Yes, any public API.");
    expect(await answeredThreadCount(team.id)).toBe(1);
    const seen = await getThread(id, { teamId: team.id });
    expect(seen).toMatchObject({ status: "answered", message: "Is an external API allowed in CS-2? <b>bold?</b>" });
    expect(seen?.replies).toMatchObject([{ fromTeam: false, body: "Yes, any public API.", author: sara.name }]);

    // The team answers back: the thread waits for Sara again.
    await teamReply(caller, id, "Thanks! Rate limits?");
    expect(await getThread(id, {})).toMatchObject({ status: "claimed", claimedBy: sara.id });
    expect(await answeredThreadCount(team.id)).toBe(0);

    await closeThread(saraActor, id);
    expect(await getThread(id, {})).toMatchObject({ status: "closed" });
    await expect(teamReply(caller, id, "one more")).rejects.toMatchObject({ status: 409, message: m.closed });
    await expect(answerThread(saraActor, id, "late")).rejects.toMatchObject({ status: 409, message: m.closed });
    expect(await listThreads({ challengeId: challenge.id })).toEqual([]);
    expect((await listThreads({ challengeId: challenge.id, status: "closed" })).map((row) => row.id)).toEqual([id]);
  });

  it("an answer without a claim claims it; once answered, another organiser may take it over", async () => {
    const { caller } = await member();
    const challenge = await makeChallenge({ wave: 2 });
    const [a, b] = [await makeUser("admin"), await makeUser("mentor")];
    const id = await askQuestion(caller, challenge.id, "Where is the dataset?");
    await answerThread(actorFor(a.id, a.name, "admin"), id, "In the attachment.");
    expect(await getThread(id, {})).toMatchObject({ status: "answered", claimedBy: a.id });
    await claimThread(actorFor(b.id, b.name, "mentor"), id);
    expect(await getThread(id, {})).toMatchObject({ status: "answered", claimedBy: b.id });
  });

  it("two organisers claiming at once: one claim, one refusal naming the other", async () => {
    const { caller } = await member();
    const challenge = await makeChallenge({ wave: 1 });
    const [a, b] = [await makeUser("mentor"), await makeUser("mentor")];
    const id = await askQuestion(caller, challenge.id, "at once?");
    const outcomes = await Promise.allSettled([claimThread(actorFor(a.id, a.name, "mentor"), id), claimThread(actorFor(b.id, b.name, "mentor"), id)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const holder = (await getThread(id, {}))!.claimedBy;
    const refused = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, message: m.claimedByAnother(holder === a.id ? a.name : b.name) });
  });

  it("nobody's claim locks a thread: an admin takes it over, the holder releases it, a claim by a former organiser holds nothing", async () => {
    const { caller } = await member();
    const challenge = await makeChallenge({ wave: 1 });
    const [mentorUser, admin, other] = [await makeUser("mentor"), await makeUser("admin"), await makeUser("mentor")];
    const mentorActor = actorFor(mentorUser.id, mentorUser.name, "mentor");
    const id = await askQuestion(caller, challenge.id, "locked?");
    await claimThread(mentorActor, id);
    await answerThread(actorFor(admin.id, admin.name, "admin"), id, "An admin answers a claimed thread.");
    expect(await getThread(id, {})).toMatchObject({ status: "answered", claimedBy: admin.id });

    const second = await askQuestion(caller, challenge.id, "released?");
    await claimThread(mentorActor, second);
    await releaseThread(mentorActor, second);
    expect(await getThread(second, {})).toMatchObject({ status: "open", claimedBy: null });
    await claimThread(actorFor(other.id, other.name, "mentor"), second);
    await expect(releaseThread(mentorActor, second)).rejects.toMatchObject({ status: 409 });

    // The mentor is made a participant: their claims hold nothing any more.
    const third = await askQuestion(caller, challenge.id, "orphaned?");
    await claimThread(mentorActor, third);
    await getDb().update(users).set({ role: "participant" }).where(eq(users.id, mentorUser.id));
    await answerThread(actorFor(other.id, other.name, "mentor"), third, "Taken over.");
    expect(await getThread(third, {})).toMatchObject({ status: "answered", claimedBy: other.id });
  });

  it("a team reads and writes only its own threads", async () => {
    const [ours, theirs] = [await member(), await member()];
    const challenge = await makeChallenge({ wave: 1 });
    const id = await askQuestion(ours.caller, challenge.id, "ours");
    expect(await getThread(id, { teamId: theirs.team.id })).toBeNull();
    expect(await getThread(id, { teamId: null })).toBeNull();
    expect(await isTeamThread(id, theirs.team.id)).toBe(false);
    expect(await isTeamThread(id, ours.team.id)).toBe(true);
    await expect(teamReply(theirs.caller, id, "let me in")).rejects.toMatchObject({ status: 404 });
    expect(await teamThreads(theirs.team.id)).toEqual([]);
  });

  it("refuses a question about a challenge the team cannot see, and from a user without a team", async () => {
    const { caller } = await member();
    const closedGate = await makeChallenge({ wave: 4 });
    await expect(askQuestion(caller, closedGate.id, "what is it?")).rejects.toMatchObject({ status: 404, message: m.challengeNotFound });
    const open = await makeChallenge({ wave: 1 });
    const mentor = await makeUser("mentor");
    await expect(askQuestion({ id: mentor.id, name: mentor.name, role: "mentor", teamId: null, teamName: null }, open.id, "?")).rejects.toMatchObject({ status: 403 });
  });

  it("filters the queue by kind, gate and challenge, oldest first", async () => {
    const { caller } = await member();
    const [g1, g2] = [await makeChallenge({ wave: 1 }), await makeChallenge({ wave: 2 })];
    const first = await askQuestion(caller, g1.id, "first");
    const second = await askQuestion(caller, g2.id, "second");
    const call = await createRequest("mentor", "our laptop died", { userId: caller.id, userName: caller.name, teamId: caller.teamId, teamName: caller.teamName });
    const waiting = (await listThreads()).map((row) => row.id);
    expect(waiting.indexOf(first)).toBeLessThan(waiting.indexOf(second));
    expect(waiting.indexOf(second)).toBeLessThan(waiting.indexOf(call.id));
    expect((await listThreads({ kind: "mentor" })).map((row) => row.id)).toContain(call.id);
    expect((await listThreads({ kind: "mentor" })).map((row) => row.id)).not.toContain(first);
    expect((await listThreads({ gate: 2 })).map((row) => row.id)).toContain(second);
    expect((await listThreads({ gate: 2 })).map((row) => row.id)).not.toContain(first);
    expect((await listThreads({ challengeId: g1.id })).map((row) => row.id)).toEqual([first]);
  });

  it("publishes a question's answer as an announcement of its challenge", async () => {
    const { caller } = await member();
    const challenge = await makeChallenge({ wave: 1 });
    const admin = await makeUser("admin");
    const id = await askQuestion(caller, challenge.id, "Can we use Python 3.12?");
    const question = await questionOf(id);
    expect(question).toMatchObject({ challengeId: challenge.id });
    await createAnnouncement(actorFor(admin.id, admin.name, "admin"), { title: "Python versions", content: "Any Python 3 is fine.", challengeId: question.challengeId });
    expect((await challengeAnswers(challenge.id)).map((row) => row.title)).toEqual(["Python versions"]);
    const [row] = await getDb().select().from(announcements).where(eq(announcements.challengeId, challenge.id));
    expect(row.createdBy).toBe(admin.id);
    // Through the module that owns the rule: an admin publishes, a mentor is refused.
    const mentor = await makeUser("mentor");
    await expect(publishAnswer(actorFor(mentor.id, mentor.name, "mentor"), id, { title: "Mine", content: "x" })).rejects.toMatchObject({ status: 403 });
    await publishAnswer(actorFor(admin.id, admin.name, "admin"), id, { title: "Python 3.12", content: "Yes." });
    expect((await challengeAnswers(challenge.id)).map((row) => row.title)).toEqual(["Python 3.12", "Python versions"]);
    // A mentor call is not a question: nothing to publish.
    const call = await createRequest("needs", "chargers", { userId: caller.id, userName: caller.name, teamId: caller.teamId, teamName: caller.teamName });
    await expect(questionOf(call.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("the mentor role", () => {
  it("opens the questions and nothing else of the dashboard; reads no team's work and no challenge before its gate", async () => {
    const team = await makeTeam();
    expect(canOpen("mentor", "/dashboard/questions")).toBe(true);
    expect(canOpen("mentor", "/dashboard/questions/12")).toBe(true);
    for (const page of ["/dashboard", "/dashboard/submissions", "/dashboard/judge", "/dashboard/users", "/dashboard/awards", "/dashboard/settings"]) {
      expect(canOpen("mentor", page), page).toBe(false);
    }
    expect(mayReadTeam({ role: "mentor", teamId: null }, team.id)).toBe(false);
    const later = { status: "active" as const, opensAt: new Date(Date.now() + 3_600_000), releaseAfterMinutes: null };
    expect(maySeeChallenge({ role: "mentor" }, later, new Date())).toBe(false);
    expect(maySeeChallenge({ role: "judge" }, later, new Date())).toBe(true);
  });
});
