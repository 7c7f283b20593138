/**
 * One team cannot fill the organisers' queue (docs/RELIABILITY.md): a team holds at most
 * THREADS_WAITING_PER_TEAM (20) threads waiting for an organiser and a user THREADS_WAITING_PER_USER (10);
 * one more is refused with 429 and a sentence, the form keeping what was typed; an answer frees a place.
 * The queue is paged (50 a page, oldest first): another team's question is on some page however many
 * threads one team has waiting, and the page counts every waiting thread.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { requests } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { createRequest } from "../../app/modules/requests/requests.server.ts";
import { answerThread, askQuestion, QUEUE_PAGE_SIZE, teamReply } from "../../app/modules/requests/threads.server.ts";
import { send, type RouteModule as ApiModule } from "../support/api.ts";
import { actorFor, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, type RouteModule } from "../support/route-manifest.ts";

const m = messages.threads;
const route = (id: string) => loadRouteModule(routeManifest.find((candidate) => candidate.id === id)!);

let askRoute: RouteModule;
let queueRoute: RouteModule;
let mentorsApi: ApiModule;

beforeAll(async () => {
  await ensureTwoOpenGates();
  [askRoute, queueRoute] = await Promise.all([route("routes/_app.submition_.$id.question"), route("routes/dashboard.questions")]);
  mentorsApi = (await route("routes/api.v1.mentors")) as ApiModule;
});

async function memberOf(team: { id: number; name: string }) {
  const user = await makeUser("participant", team.id);
  return { user, caller: { id: user.id, name: user.name, role: "participant" as const, teamId: team.id, teamName: team.name } };
}

/** The question form posted as a browser without JavaScript does. */
async function ask(cookie: string, challengeId: number, message: string) {
  const request = new Request(`http://localhost/submition/${challengeId}/question`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost", Cookie: cookie },
    body: new URLSearchParams({ message }),
  });
  return answerOf(await callRoute(askRoute, "action", { request, params: { id: String(challengeId) }, context: {} }));
}

const waitingOf = async (teamId: number) =>
  (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from requests where team_id = ${teamId} and status in ('open', 'claimed')`))[0].n;

describe("threads waiting for an organiser, per user and per team", () => {
  it("refuses a user's 11th waiting thread with 429 and a sentence, keeps the typed question, and takes it once one is answered", async () => {
    const team = await makeTeam();
    const { user, caller } = await memberOf(team);
    const challenge = await makeChallenge({ wave: 1 });
    const cookie = await sessionCookie(user.id);
    for (let i = 0; i < 5; i++) await askQuestion(caller, challenge.id, `question ${i}`);
    for (let i = 0; i < 5; i++) await createRequest(i % 2 ? "needs" : "mentor", `call ${i}`, { userId: user.id, userName: user.name, teamId: team.id, teamName: team.name });

    const refused = await ask(cookie, challenge.id, "Is the dataset's second column in UTC?");
    expect(refused.status).toBe(429);
    const reply = refused.body as { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
    expect(reply.error?.[""]).toEqual([m.userWaitingLimit(10)]);
    expect(m.userWaitingLimit(10)).toMatch(/wait for an answer/);
    expect(reply.initialValue).toMatchObject({ message: "Is the dataset's second column in UTC?" });
    expect(await waitingOf(team.id)).toBe(10);

    // A teammate still asks (the team has 10 of its 20).
    const mate = await memberOf(team);
    expect((await ask(await sessionCookie(mate.user.id), challenge.id, "mine")).status).toBe(302);

    // An organiser answers one of the user's threads: a place is free again.
    const mentor = await makeUser("mentor");
    const [oldest] = await getDb().execute<{ id: number }>(sql`select id from requests where user_id = ${user.id} order by id limit 1`);
    await answerThread(actorFor(mentor.id, mentor.name, "mentor"), oldest.id, "Yes.");
    expect((await ask(cookie, challenge.id, "Is the dataset's second column in UTC?")).status).toBe(302);
    expect((await ask(cookie, challenge.id, "one more")).status).toBe(429);
  });

  it("refuses a team's 21st waiting thread, whoever sends it, in the API too (429, throttled; Arabic on request)", async () => {
    const team = await makeTeam();
    const members = [await memberOf(team), await memberOf(team), await memberOf(team)];
    for (const { user } of members.slice(0, 2)) {
      for (let i = 0; i < 10; i++) await createRequest("mentor", `call ${i}`, { userId: user.id, userName: user.name, teamId: team.id, teamName: team.name });
    }
    const third = members[2].user;
    const cookie = await sessionCookie(third.id);
    const refused = await send(mentorsApi, "POST", "/mentors", { cookie, json: { message: "our laptop died" } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "throttled", message: m.teamWaitingLimit(20) });
    const arabic = await send(mentorsApi, "POST", "/mentors", { cookie, json: { message: "our laptop died" }, headers: { "Accept-Language": "ar" } });
    expect(arabic.status).toBe(429);
    expect(String(arabic.body?.message)).toMatch(/فريقك.*\(20\)/);
    expect(await waitingOf(team.id)).toBe(20);
    // Another team is not held up by this one.
    const other = await memberOf(await makeTeam());
    expect((await send(mentorsApi, "POST", "/mentors", { cookie: await sessionCookie(other.user.id), json: { message: "us too" } })).status).toBe(201);
  });

  it("refuses a reply that would put an answered thread back in a full queue: answering, then replying, frees no extra place", async () => {
    const team = await makeTeam();
    const { user, caller } = await memberOf(team);
    const from = { userId: user.id, userName: user.name, teamId: team.id, teamName: team.name };
    const mentor = actorFor((await makeUser("mentor")).id, "mentor", "mentor");
    // Ten threads, all answered (no longer waiting), then ten new ones: the user's ten places are taken.
    for (let i = 0; i < 10; i++) await createRequest("mentor", `old ${i}`, from);
    const answered = await getDb().execute<{ id: number }>(sql`select id from requests where user_id = ${user.id} order by id`);
    for (const { id } of answered) await answerThread(mentor, id, "Done.");
    for (let i = 0; i < 10; i++) await createRequest("needs", `new ${i}`, from);
    expect(await waitingOf(team.id)).toBe(10);

    // "?" to an answered thread would make it wait again: refused with the limit's sentence, nothing written.
    await expect(teamReply(caller, answered[0].id, "?")).rejects.toMatchObject({ status: 429, message: m.userWaitingLimit(10) });
    expect(await waitingOf(team.id)).toBe(10);
    const [{ n }] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from request_messages where request_id = ${answered[0].id} and from_team`);
    expect(n).toBe(0);

    // A reply to a thread still waiting takes no new place and goes through.
    const [waitingOne] = await getDb().execute<{ id: number }>(sql`select id from requests where user_id = ${user.id} and status = 'open' limit 1`);
    await expect(teamReply(caller, waitingOne.id, "More detail.")).resolves.toBeUndefined();
  });

  it("lets only one of two simultaneous posts take a user's last free place", async () => {
    const team = await makeTeam();
    const { user } = await memberOf(team);
    const from = { userId: user.id, userName: user.name, teamId: team.id, teamName: team.name };
    for (let i = 0; i < 9; i++) await createRequest("mentor", `call ${i}`, from);
    const results = await Promise.allSettled([createRequest("mentor", "a", from), createRequest("needs", "b", from), createRequest("mentor", "c", from)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await waitingOf(team.id)).toBe(10);
  });
});

describe("the organisers' queue", () => {
  it("pages every waiting thread, 50 a page, oldest first: a team with 230 waiting hides no other team's question", async () => {
    const flooding = await makeTeam();
    const { user } = await memberOf(flooding);
    // Written straight to the table, as a team could before the limits: 230 waiting threads, all older.
    await getDb().execute(sql`insert into ${requests} (kind, message, user_id, team_id, status, created_at)
      select 'mentor', 'flood ' || n, ${user.id}, ${flooding.id}, 'open', now() - interval '1 hour' + n * interval '1 second' from generate_series(1, 230) n`);
    const other = await makeTeam();
    const asker = await memberOf(other);
    const challenge = await makeChallenge({ wave: 1 });
    const theirs = await askQuestion(asker.caller, challenge.id, "Where is the dataset?");
    const waitingInAll = (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from requests where status in ('open', 'claimed')`))[0].n;
    expect(waitingInAll).toBeGreaterThan(230);

    const mentor = await makeUser("mentor");
    const cookie = await sessionCookie(mentor.id);
    const load = async (search = "") => {
      const request = new Request(`http://localhost/dashboard/questions${search}`, { headers: { Cookie: cookie } });
      const answer = answerOf(await callRoute(queueRoute, "loader", { request, params: {}, context: {} }));
      expect(answer.status).toBe(200);
      return answer.body as { threads: Array<{ id: number; createdAt: string }>; pages: { page: number; pages: number; total: number; waiting: number; from: number; to: number } };
    };
    const first = await load();
    expect(first.threads).toHaveLength(QUEUE_PAGE_SIZE);
    expect(first.pages).toMatchObject({ page: 1, pages: Math.ceil(waitingInAll / 50), total: waitingInAll, waiting: waitingInAll, from: 1, to: 50 });
    expect(first.threads.map((thread) => thread.id)).not.toContain(theirs);

    const last = await load(`?page=${first.pages.pages}`);
    expect(last.threads.map((thread) => thread.id)).toContain(theirs);
    expect(last.pages.to).toBe(waitingInAll);
    // Every page together: each waiting thread once, oldest first.
    const seen: Array<{ id: number; createdAt: string }> = [];
    for (let page = 1; page <= first.pages.pages; page++) seen.push(...(await load(`?page=${page}`)).threads);
    expect(new Set(seen.map((thread) => thread.id)).size).toBe(waitingInAll);
    expect(seen.map((thread) => thread.createdAt)).toEqual([...seen.map((thread) => thread.createdAt)].sort());
    // A page past the last is the last; a filter pages too, and keeps counting every waiting thread.
    expect((await load("?page=999")).pages.page).toBe(first.pages.pages);
    const questions = await load("?kind=question");
    expect(questions.pages).toMatchObject({ total: questions.threads.length, waiting: waitingInAll });
    expect(questions.threads.map((thread) => thread.id)).toContain(theirs);
  });
});
