/**
 * Code runs and predictions files through the API (docs/API.md "Code challenges", "Prediction challenges"), on real
 * Postgres, Redis and S3, without a runner: a team's program queued and read back as its page shows it, another
 * team's run a 404, staff reading every run and rejudging; a team's predictions file, its public score only until
 * the reveal, its choice; the page's limits and refusals (429 with Retry-After, 409, 403, 413, 400).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challenges, codeRuns, predictionSubmissions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { scoreSubmission } from "../../app/modules/predictions/scoring.server.ts";
import * as runsRoute from "../../app/routes/api.v1.challenges.$id.runs.tsx";
import * as runRoute from "../../app/routes/api.v1.runs.$id.tsx";
import * as rejudgeRoute from "../../app/routes/api.v1.challenges.$id.rejudge.tsx";
import * as predictionsRoute from "../../app/routes/api.v1.challenges.$id.predictions.tsx";
import * as choiceRoute from "../../app/routes/api.v1.challenges.$id.predictions.choice.tsx";
import * as revealRoute from "../../app/routes/api.v1.challenges.$id.predictions.reveal.tsx";
import { send } from "../support/api.ts";
import { codeChallenge } from "../support/code.ts";
import { ensureEventSettings, ensureTwoOpenGates, makePlayer, makeUser, testAdmin } from "../support/fixtures.ts";
import { metricChallenge, predictionsOff } from "../support/predictions.ts";

afterAll(() => closeEmitter());

const tokenOf = async (user: { id: number }) => (await createApiToken(testAdmin, user.id, "test")).token;

async function player() {
  const { team, user } = await makePlayer();
  return { team, user, token: await tokenOf(user) };
}

let admin: string;
let judge: string;
beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  admin = await tokenOf(await makeUser("admin"));
  judge = await tokenOf(await makeUser("judge"));
});

function programFile(language: string, source: string, pasted = "") {
  const form = new FormData();
  form.set("language", language);
  if (pasted) form.set("source", pasted);
  form.set("file", new File([source], "main.py", { type: "text/x-python" }));
  return form;
}

describe("code runs through the API", () => {
  it("queues a team's program, pasted as JSON or as a file, and reads it back as the team's page shows it", async () => {
    const { challenge } = await codeChallenge();
    const id = String(challenge.id);
    const a = await player();
    const sent = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "python3", source: "print(sum(map(int, input().split())))" } }, { id });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ message: messages.code.sent, run: { challengeId: challenge.id, language: "python3", state: "queued", verdict: null, tests: [], points: null } });
    const runId = (sent.body!.run as { id: number }).id;
    const [row] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, runId));
    expect(row).toMatchObject({ teamId: a.team.id, userId: a.user.id, state: "queued", source: "print(sum(map(int, input().split())))" });

    const file = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, body: programFile("c", "int main(){return 0;}") }, { id });
    expect(file.status).toBe(201);

    const list = await send(runsRoute, "GET", `/challenges/${id}/runs`, { token: a.token }, { id });
    expect(list.status).toBe(200);
    expect(list.body!.points).toBe(0);
    expect(list.body!.languages).toEqual(["python3", "c"]);
    expect((list.body!.runs as Array<{ id: number; language: string }>).map((run) => run.language)).toEqual(["c", "python3"]);
    // Nothing of the tests, nor of who the team is, nor the platform's failures.
    expect(JSON.stringify(list.body)).not.toMatch(/4000000000|"team"|failure|"source"/);

    const one = await send(runRoute, "GET", `/runs/${runId}`, { token: a.token }, { id: String(runId) });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: runId, challengeId: challenge.id, state: "queued" });
    expect(one.body).not.toHaveProperty("team");
  });

  it("refuses what the page refuses, with its sentence: a bad language, both a text and a file, an oversize program, another encoding", async () => {
    const { challenge } = await codeChallenge();
    const id = String(challenge.id);
    const a = await player();
    const post = (options: Parameters<typeof send>[3]) => send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, ...options }, { id });
    expect(await post({ json: { language: "cobol", source: "x" } })).toMatchObject({ status: 400, body: { message: messages.code.languageInvalid } });
    expect(await post({ json: { language: "java", source: "class Main {}" } })).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: messages.code.languageNotAllowed, fieldErrors: { language: [messages.code.languageNotAllowed] } },
    });
    expect(await post({ json: { language: "python3", source: "   " } })).toMatchObject({ status: 400, body: { message: messages.code.sourceRequired } });
    expect(await post({ body: programFile("python3", "print(1)", "print(2)") })).toMatchObject({ status: 400, body: { message: messages.code.sourceTwice } });
    expect(await post({ json: { language: "python3", source: "#".repeat(70 * 1024) } })).toMatchObject({ status: 413, body: { code: "payload_too_large", message: "A program has at most 64 KB." } });
    expect(await post({ body: programFile("python3", "#".repeat(70 * 1024)) })).toMatchObject({ status: 413, body: { message: "A program has at most 64 KB." } });
    // Past the API's body limit: refused before it is read.
    expect((await post({ json: { language: "python3", source: "#".repeat(300 * 1024) } })).status).toBe(413);
    expect((await post({ body: "print(1)", headers: { "Content-Type": "text/plain" } })).status).toBe(415);
    expect(await getDb().select().from(codeRuns).where(eq(codeRuns.challengeId, challenge.id))).toEqual([]);
  });

  it("holds a team to its queued runs with a 429, its sentence and Retry-After", async () => {
    const { challenge } = await codeChallenge();
    const id = String(challenge.id);
    const a = await player();
    for (let i = 0; i < 3; i++) {
      expect((await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "c", source: `int main(){return ${i};}` } }, { id })).status).toBe(201);
    }
    const more = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "c", source: "int main(){}" } }, { id });
    expect(more).toMatchObject({ status: 429, body: { code: "throttled", message: messages.code.tooManyQueued(3) } });
    expect(more.headers.get("Retry-After")).toBe("10");
    // Another team is not held.
    const b = await player();
    expect((await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: b.token, json: { language: "c", source: "int main(){}" } }, { id })).status).toBe(201);
  });

  it("keeps a team's runs from another team (a 404, not a 403) and shows staff every run; a staff token sends nothing", async () => {
    const { challenge } = await codeChallenge();
    const id = String(challenge.id);
    const a = await player();
    const b = await player();
    const sent = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "python3", source: "print(1)" } }, { id });
    const runId = String((sent.body!.run as { id: number }).id);
    const stolen = await send(runRoute, "GET", `/runs/${runId}`, { token: b.token }, { id: runId });
    expect(stolen).toMatchObject({ status: 404, body: { code: "not_found", message: messages.code.runNotFound } });
    expect((await send(runsRoute, "GET", `/challenges/${id}/runs`, { token: b.token }, { id })).body!.runs).toEqual([]);
    expect((await send(runRoute, "GET", "/runs/2147483648", { token: a.token }, { id: "2147483648" })).status).toBe(404);

    for (const token of [admin, judge]) {
      const all = await send(runsRoute, "GET", `/challenges/${id}/runs`, { token }, { id });
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ points: null, runs: [{ id: Number(runId), team: { id: a.team.id, name: a.team.name }, failures: 0 }], pages: { page: 1, pages: 1, total: 1 } });
      // Only the runs failing on the platform's side: none here.
      const failing = await send(runsRoute, "GET", `/challenges/${id}/runs?failing=1`, { token }, { id });
      expect(failing.body).toMatchObject({ runs: [], pages: { page: 1, pages: 1, total: 0 } });
      expect((await send(runRoute, "GET", `/runs/${runId}`, { token }, { id: runId })).body).toMatchObject({ team: { id: a.team.id } });
      const refused = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token, json: { language: "python3", source: "print(1)" } }, { id });
      expect(refused).toMatchObject({ status: 403, body: { code: "forbidden" } });
    }
  });

  it("lets admins and judges rejudge (one judged run, or every one) as on the dashboard, refusing a participant, a run not judged and a bad id", async () => {
    const { challenge } = await codeChallenge();
    const id = String(challenge.id);
    const a = await player();
    const first = (await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "python3", source: "print(1)" } }, { id })).body!.run as { id: number };
    const rejudge = (token: string, json: unknown) => send(rejudgeRoute, "POST", `/challenges/${id}/rejudge`, { token, json }, { id });
    expect(await rejudge(judge, { run: first.id })).toMatchObject({ status: 409, body: { message: messages.code.notJudged } });
    await getDb().update(codeRuns).set({ state: "done", verdict: "wrong-answer", finishedAt: new Date() }).where(eq(codeRuns.challengeId, challenge.id));
    expect(await rejudge(a.token, {})).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await rejudge(judge, { run: "2147483648" })).toMatchObject({ status: 400, body: { fieldErrors: { run: [messages.errors.badRequest] } } });
    expect(await rejudge(judge, { run: first.id })).toMatchObject({ status: 200, body: { runs: 1, message: messages.code.rejudged(1) } });
    await getDb().update(codeRuns).set({ state: "done" }).where(eq(codeRuns.challengeId, challenge.id));
    expect(await rejudge(admin, {})).toMatchObject({ status: 200, body: { runs: 1 } });
    const [row] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, first.id));
    expect(row).toMatchObject({ state: "queued", verdict: "wrong-answer" });
  });

  it("refuses a closed gate (403) and hides its runs (404)", async () => {
    const { challenge } = await codeChallenge();
    await getDb().update(challenges).set({ wave: 3 }).where(eq(challenges.id, challenge.id));
    const id = String(challenge.id);
    const a = await player();
    const refused = await send(runsRoute, "POST", `/challenges/${id}/runs`, { token: a.token, json: { language: "python3", source: "print(1)" } }, { id });
    expect(refused).toMatchObject({ status: 403, body: { message: messages.participant.gateClosed } });
    expect((await send(runsRoute, "GET", `/challenges/${id}/runs`, { token: a.token }, { id })).status).toBe(404);
  });
});

function csv(text: string) {
  const form = new FormData();
  form.set("file", new File([text], "predictions.csv", { type: "text/csv" }));
  return form;
}

describe("predictions through the API", () => {
  it("takes a team's file, shows its public score only until the reveal, its choice, and the admin's reveal", async () => {
    const { challenge } = await metricChallenge(100);
    const id = String(challenge.id);
    const a = await player();
    const upload = (token: string, text: string) => send(predictionsRoute, "POST", `/challenges/${id}/predictions`, { token, body: csv(text) }, { id });
    const sent = await upload(a.token, predictionsOff(1));
    expect(sent).toMatchObject({ status: 201, body: { message: messages.predictions.sent } });
    const first = sent.body!.submissionId as number;
    const [row] = await getDb().select().from(predictionSubmissions).where(eq(predictionSubmissions.id, first));
    expect(row).toMatchObject({ teamId: a.team.id, userId: a.user.id, status: "queued" });
    expect(await scoreSubmission(first)).toBe("scored");
    const second = (await upload(a.token, predictionsOff(2))).body!.submissionId as number;
    await scoreSubmission(second);

    const list = await send(predictionsRoute, "GET", `/challenges/${id}/predictions`, { token: a.token }, { id });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ revealed: false, sentToday: 2, dailyLimit: 3 });
    expect(list.body!.files).toMatchObject([
      { id: second, status: "scored", publicScore: 2, publicPoints: 50, privateScore: null, privatePoints: null, counts: true },
      { id: first, status: "scored", publicScore: 1, publicPoints: 75, privateScore: null, privatePoints: null, counts: false },
    ]);

    const choose = (token: string, submission: unknown) => send(choiceRoute, "PUT", `/challenges/${id}/predictions/choice`, { token, json: { submission } }, { id });
    expect(await choose(a.token, first)).toMatchObject({ status: 200, body: { message: messages.predictions.chosen } });
    const b = await player();
    expect(await choose(b.token, first)).toMatchObject({ status: 404, body: { message: messages.predictions.notYours } });
    expect(await choose(a.token, "2147483648")).toMatchObject({ status: 400, body: { code: "validation_failed", message: messages.predictions.choiceInvalid } });
    expect(await choose(a.token, "best")).toMatchObject({ status: 400 });
    expect((await choose(admin, first)).status).toBe(403);
    expect((await send(predictionsRoute, "GET", `/challenges/${id}/predictions`, { token: a.token }, { id })).body!.files).toMatchObject([{ counts: false }, { id: first, chosen: true, counts: true }]);
    expect(await choose(a.token, "latest")).toMatchObject({ status: 200, body: { message: messages.predictions.latestChosen } });

    const reveal = (token: string) => send(revealRoute, "POST", `/challenges/${id}/predictions/reveal`, { token }, { id });
    expect((await reveal(a.token)).status).toBe(403);
    expect((await reveal(judge)).status).toBe(403);
    expect(await reveal(admin)).toMatchObject({ status: 200, body: { message: messages.predictions.revealedNow } });
    expect(await reveal(admin)).toMatchObject({ status: 409, body: { message: messages.predictions.alreadyRevealed } });
    const after = await send(predictionsRoute, "GET", `/challenges/${id}/predictions`, { token: a.token }, { id });
    expect(after.body).toMatchObject({ revealed: true, files: [{ id: second, privateScore: 2, privatePoints: 50 }, { id: first, privateScore: 1 }] });
    expect(await upload(a.token, predictionsOff(0))).toMatchObject({ status: 403, body: { message: messages.predictions.revealed } });
  });

  it("holds a team to its day's files (429), refuses JSON (415), staff (403), a missing file (400) and another kind of challenge (404)", async () => {
    const { challenge } = await metricChallenge(100);
    const id = String(challenge.id);
    const a = await player();
    const upload = (token: string, body: FormData) => send(predictionsRoute, "POST", `/challenges/${id}/predictions`, { token, body }, { id });
    expect(await upload(a.token, new FormData())).toMatchObject({ status: 400, body: { message: messages.predictions.fileRequired } });
    for (let i = 0; i < 3; i++) expect((await upload(a.token, csv(predictionsOff(i)))).status).toBe(201);
    expect(await upload(a.token, csv(predictionsOff(0)))).toMatchObject({ status: 429, body: { code: "throttled", message: messages.predictions.dailyLimit(3) } });
    expect(await getDb().select().from(predictionSubmissions).where(eq(predictionSubmissions.challengeId, challenge.id))).toHaveLength(3);
    const json = await send(predictionsRoute, "POST", `/challenges/${id}/predictions`, { token: a.token, json: { file: "id,y" } }, { id });
    expect(json).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    expect((await upload(admin, csv(predictionsOff(0)))).status).toBe(403);
    expect((await send(predictionsRoute, "GET", `/challenges/${id}/predictions`, { token: judge }, { id })).status).toBe(403);
    const { challenge: code } = await codeChallenge();
    const other = String(code.id);
    expect((await send(predictionsRoute, "GET", `/challenges/${other}/predictions`, { token: a.token }, { id: other })).status).toBe(404);
    expect((await send(revealRoute, "POST", `/challenges/${other}/predictions/reveal`, { token: admin }, { id: other })).status).toBe(404);
    expect((await send(runsRoute, "GET", `/challenges/${id}/runs`, { token: a.token }, { id })).status).toBe(404);
  });
});
