/**
 * A participant answers a flag challenge (docs/domain.md "Flag challenges"): on the challenge page without
 * JavaScript (the page's own action, the verdict on the page, 4xx statuses for refusals), through the API
 * (POST /api/v1/challenges/{id}/flag), never with a judged upload; and no page, `.data` or API answer
 * carries an answer, a pattern, a secret or a team's flag. Real Postgres, Redis and a real web process.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { flagSolves } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { perTeamFlag } from "../../app/modules/flags/matching.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getGateBoard } from "../../app/modules/participant/board.server.ts";
import { getStatus } from "../../app/modules/participant/status.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import * as pageRoute from "../../app/routes/_app.submition.$id.tsx";
import * as uploadRoute from "../../app/routes/submition.$id.upload.tsx";
import * as flagApi from "../../app/routes/api.v1.challenges.$id.flag.tsx";
import * as submitApi from "../../app/routes/api.v1.challenges.$id.submission.tsx";
import * as challengeApi from "../../app/routes/api.v1.challenges.$id.tsx";
import { ORIGIN, send } from "../support/api.ts";
import { ensureEventSettings, openAllGates, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { makeFlagChallenge, moveWrongAnswersBack } from "../support/flags.ts";
import { multipart } from "../support/multipart.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";

const m = messages.flags;

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
});

async function member() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, user, cookie: await sessionCookie(user.id), token: (await createApiToken(testAdmin, user.id, "flags")).token };
}

interface FlagReply {
  verdict: string;
  message: string;
  answer: string;
}

/** The answer form's plain post (no JavaScript), as the page's action gets it. */
async function postAnswer(cookie: string, challengeId: number, answer: string) {
  const request = new Request(`${ORIGIN}/submition/${challengeId}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "flag", answer }),
  });
  const result = (await pageRoute.action({ request, params: { id: String(challengeId) }, context: { receivedAt: Date.now() } })) as unknown as {
    data: { flag: FlagReply };
    init: { status: number; headers?: Record<string, string> };
  };
  return { status: result.init.status, headers: result.init.headers ?? {}, reply: result.data.flag };
}

async function pageData(cookie: string, challengeId: number) {
  return (await pageRoute.loader({
    request: new Request(`${ORIGIN}/submition/${challengeId}`, { headers: { Cookie: cookie } }),
    params: { id: String(challengeId) },
    context: {},
  })) as Awaited<ReturnType<typeof pageRoute.loader>>;
}

const answerApi = (challengeId: number, caller: { token?: string; cookie?: string }, json: unknown) =>
  send(flagApi, "POST", `/challenges/${challengeId}/flag`, { ...caller, json }, { id: String(challengeId) });

describe("the challenge page without JavaScript", () => {
  it("answers a wrong flag 200 with the message and what was typed, a right one with the solve, then 409", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{page}" }], { points: 300, maxAttempts: 5 });
    const { team, cookie } = await member();
    expect((await pageData(cookie, challenge.id)).flag).toEqual({ solvedAt: null, attemptsLeft: 5, maxAttempts: 5, waitSeconds: 0 });

    const wrong = await postAnswer(cookie, challenge.id, "GK{guess}");
    expect(wrong).toMatchObject({ status: 200, reply: { verdict: "incorrect", message: m.incorrectAttemptsLeft(4), answer: "GK{guess}" } });
    expect((await pageData(cookie, challenge.id)).flag).toMatchObject({ solvedAt: null, attemptsLeft: 4 });

    const right = await postAnswer(cookie, challenge.id, " GK{page} ");
    expect(right).toMatchObject({ status: 200, reply: { verdict: "correct", message: m.correct(300), answer: "" } });
    const solved = await pageData(cookie, challenge.id);
    expect(solved.challenge.checking).toBe("flag");
    expect(solved.flag?.solvedAt).toEqual(expect.any(String));

    const again = await postAnswer(cookie, challenge.id, "GK{page}");
    expect(again).toMatchObject({ status: 409, reply: { verdict: "refused", message: m.alreadySolved, answer: "GK{page}" } });
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.teamId, team.id))).toHaveLength(1);
  });

  it("answers 429 with Retry-After during a wait, 400 for an empty answer and 413 for a long one, the typed text kept", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{slow}" }], { wrongPerMinute: 1 });
    const { cookie } = await member();
    const first = await postAnswer(cookie, challenge.id, "nope");
    expect(first).toMatchObject({ status: 200, reply: { verdict: "incorrect", message: m.incorrectWait(60) } });
    const waited = await postAnswer(cookie, challenge.id, "GK{slow}");
    expect(waited.status).toBe(429);
    expect(Number(waited.headers["Retry-After"])).toBeGreaterThan(50);
    expect(waited.reply).toMatchObject({ verdict: "refused", answer: "GK{slow}" });
    expect(waited.reply.message).toMatch(/^Too many wrong answers: wait/);
    expect((await pageData(cookie, challenge.id)).flag?.waitSeconds).toBeGreaterThan(50);

    expect(await postAnswer(cookie, challenge.id, "   ")).toMatchObject({ status: 400, reply: { message: m.empty } });
    const long = "x".repeat(2000);
    expect(await postAnswer(cookie, challenge.id, long)).toMatchObject({ status: 413, reply: { message: m.tooLong, answer: long } });
  });

  it("refuses a judged upload to a flag challenge with 409, from the page, the upload endpoint and the API", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{x}" }]);
    const { cookie, token } = await member();
    const parts = [{ name: "text", value: "my essay" }];
    const page = (await pageRoute.action({
      request: multipart(parts, `${ORIGIN}/submition/${challenge.id}`, { Cookie: cookie, Origin: ORIGIN }),
      params: { id: String(challenge.id) },
      context: { receivedAt: Date.now() },
    })) as unknown as { data: { error: string; text: string }; init: { status: number } };
    expect(page.init.status).toBe(409);
    expect(page.data).toEqual({ error: m.judgedByFlag, text: "my essay" });
    const upload = await uploadRoute.action({
      request: multipart(parts, `${ORIGIN}/submition/${challenge.id}/upload`, { Cookie: cookie, Origin: ORIGIN }),
      params: { id: String(challenge.id) },
      context: { receivedAt: Date.now() },
    });
    expect(upload.status).toBe(409);
    expect(await upload.json()).toEqual({ ok: false, message: m.judgedByFlag });
    const api = await submitApi.action({
      request: multipart(parts, `${ORIGIN}/api/v1/challenges/${challenge.id}/submission`, { Authorization: `Bearer ${token}` }),
      params: { id: String(challenge.id) },
      context: { receivedAt: Date.now() },
    });
    expect(api.status).toBe(409);
    expect(await api.json()).toMatchObject({ code: "conflict", message: m.judgedByFlag });
  });
});

describe("POST /api/v1/challenges/{id}/flag", () => {
  it("gives the verdicts; a wait is 429 with Retry-After; a solved challenge shows on the gate, its API object and the status board", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact_ci", value: "GK{Api}" }], { points: 150, maxAttempts: 3, wrongPerMinute: 2 });
    const { team, user, token } = await member();
    expect(await answerApi(challenge.id, { token }, { answer: "no" })).toMatchObject({
      status: 200,
      body: { verdict: "incorrect", attemptsLeft: 2, waitSeconds: 0, message: m.incorrectAttemptsLeft(2) },
    });
    const second = await answerApi(challenge.id, { token }, { answer: "still no" });
    expect(second.body).toMatchObject({ verdict: "incorrect", attemptsLeft: 1, waitSeconds: 60 });
    const throttled = await answerApi(challenge.id, { token }, { answer: "GK{api}" });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ code: "throttled", fieldErrors: { answer: [expect.stringMatching(/^Too many wrong answers/)] } });
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(50);

    // The wait over (the counted answers' times moved back a minute), the right answer is taken.
    await moveWrongAnswersBack(team.id, "2 minutes");
    const right = await answerApi(challenge.id, { token }, { answer: "gk{API}" });
    expect(right).toMatchObject({ status: 200, body: { verdict: "correct", points: 150, solvedAt: expect.any(String) } });
    expect(Object.keys(right.body!).sort()).toEqual(["message", "points", "solvedAt", "verdict"]);
    expect((await answerApi(challenge.id, { token }, { answer: "gk{API}" })).status).toBe(409);

    const object = await send(challengeApi, "GET", `/challenges/${challenge.id}`, { token }, { id: String(challenge.id) });
    expect(object.body).toMatchObject({ checking: "flag", solved: true, attemptsLeft: 1 });

    const board = await getGateBoard(1, team.id);
    const card = board?.challenges?.find((row) => row.id === challenge.id);
    expect(card).toMatchObject({ checking: "flag", solved: true });
    expect(board?.solvedPercent).toBeGreaterThan(0);

    await recomputeTeamStanding(team.id);
    const status = await getStatus({ id: user.id, role: "participant", teamId: team.id });
    const row = (JSON.parse(status.board.teamsJson) as Array<{ id: number; totalScore: number; solvedCount: number }>).find((standing) => standing.id === team.id);
    expect(row).toMatchObject({ totalScore: 150, solvedCount: 1 });
  });

  it("answers for the caller's own team only; admins and judges are 403; a 1 MB body is 413", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{mine}" }]);
    const mine = await member();
    const theirs = await member();
    // Another team's member answers with their own token: the solve is their team's, never mine.
    expect((await answerApi(challenge.id, { token: theirs.token }, { answer: "GK{mine}" })).body).toMatchObject({ verdict: "correct" });
    const solves = await getDb().select({ teamId: flagSolves.teamId }).from(flagSolves).where(eq(flagSolves.challengeId, challenge.id));
    expect(solves).toEqual([{ teamId: theirs.team.id }]);
    expect((await pageData(mine.cookie, challenge.id)).flag?.solvedAt).toBeNull();
    expect((await answerApi(challenge.id, { cookie: mine.cookie }, { answer: "GK{mine}" })).body).toMatchObject({ verdict: "correct" });

    for (const role of ["admin", "judge"] as const) {
      const staff = await makeUser(role);
      const { token } = await createApiToken(testAdmin, staff.id, "staff");
      expect(await answerApi(challenge.id, { token }, { answer: "GK{mine}" })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    }
    const loner = await makeUser("participant");
    const { token: lonerToken } = await createApiToken(testAdmin, loner.id, "loner");
    expect(await answerApi(challenge.id, { token: lonerToken }, { answer: "GK{mine}" })).toMatchObject({ status: 403, body: { message: m.noTeam } });

    const huge = await answerApi(challenge.id, { token: mine.token }, { answer: "a".repeat(1024 * 1024) });
    expect(huge).toMatchObject({ status: 413, body: { code: "payload_too_large" } });
    expect(await answerApi(challenge.id, { token: mine.token }, { answer: "é".repeat(600) })).toMatchObject({ status: 413, body: { message: m.tooLong } });
    expect(await answerApi(challenge.id, { token: mine.token }, {})).toMatchObject({ status: 400, body: { code: "validation_failed", fieldErrors: { answer: [m.empty] } } });
    const judged = (await makeFlagChallenge([{ kind: "exact", value: "z" }])).id;
    await getDb().execute(sql`update challenges set checking = 'judges' where id = ${judged}`);
    expect(await answerApi(judged, { token: mine.token }, { answer: "z" })).toMatchObject({ status: 409, body: { message: m.notFlag } });
  });
});

describe("what a participant's browser and scripts receive", () => {
  const state = {} as { url: string };
  beforeAll(async () => {
    state.url = (await startWebServer()).url;
    return () => stopAll();
  }, 90_000);

  it("never carries an answer, a pattern, the secret or the team's flag: the page, its .data, the API; the no-JavaScript post answers on the page", async () => {
    const challenge = await makeFlagChallenge([
      { kind: "exact", value: "GK{wire_exact_answer}" },
      { kind: "regex", value: "GK\\{pat+ern_[0-9]{3}\\}" },
      { kind: "per_team", value: "GK{team_<hmac>}" },
    ]);
    const { team, user } = await member();
    const cookie = await login(state.url, user.name, FIXTURE_PASSWORD);
    const secrets = ["wire_exact_answer", "pat+ern", "hmac>", "team_<", "team_&lt;", challenge.flagSecret!, perTeamFlag(challenge.flagSecret!, team.id, "GK{team_<hmac>}")];
    const read = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${state.url}${path}`, { ...init, headers: { Cookie: cookie, Origin: state.url, ...init.headers }, redirect: "manual" });
      return { status: response.status, body: await response.text() };
    };
    const expectClean = (body: string) => {
      for (const secret of secrets) expect(body).not.toContain(secret);
    };

    const page = await read(`/submition/${challenge.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="answer"');
    expect(page.body).toContain("Submit flag");
    expect(page.body).not.toContain('type="file"');
    expectClean(page.body);

    const post = (answer: string) =>
      read(`/submition/${challenge.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "flag", answer }),
      });
    const wrong = await post("GK{my_typo}");
    expect(wrong.status).toBe(200);
    expect(wrong.body).toContain("Incorrect answer.");
    expect(wrong.body).toContain('value="GK{my_typo}"');
    expectClean(wrong.body);

    for (const path of [`/submition/${challenge.id}.data`, `/api/v1/challenges/${challenge.id}`, "/api/v1/gates/1/challenges"]) {
      const answer = await read(path);
      expect(answer.status).toBe(200);
      expectClean(answer.body);
    }

    const right = await post(perTeamFlag(challenge.flagSecret!, team.id, "GK{team_<hmac>}"));
    expect(right.status).toBe(200);
    expect(right.body).toContain("Solved");
    expect(right.body).toContain(m.correct(200));
    expect(right.body).not.toContain('name="answer"');
    expectClean(right.body);
    expect((await post("GK{wire_exact_answer}")).status).toBe(409);
  });
});
