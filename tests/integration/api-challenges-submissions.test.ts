/**
 * Challenges, gates, submissions and scoring through the API: the participant screens' visibility
 * rules, the streaming upload handlers (413 past the limit) and the judge's score.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { gates } from "../../db/schema.ts";
import {
  CategoryScoresSchema,
  ChallengeListItemSchema,
  ChallengeOutSchema,
  GateBoardSchema,
  GateOutSchema,
  OwnSubmissionSchema,
  SubmissionOutSchema,
  SubmitResultSchema,
  TeamSubmissionSchema,
} from "../../app/modules/api/schemas.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import * as challengesRoute from "../../app/routes/api.v1.challenges.tsx";
import * as challengeRoute from "../../app/routes/api.v1.challenges.$id.tsx";
import * as statusRoute from "../../app/routes/api.v1.challenges.$id.status.tsx";
import * as attachmentRoute from "../../app/routes/api.v1.challenges.$id.attachment.tsx";
import * as submitRoute from "../../app/routes/api.v1.challenges.$id.submission.tsx";
import * as gatesRoute from "../../app/routes/api.v1.gates.tsx";
import * as boardRoute from "../../app/routes/api.v1.gates.$wave.challenges.tsx";
import * as submissionsRoute from "../../app/routes/api.v1.submissions.tsx";
import * as scoreRoute from "../../app/routes/api.v1.submissions.$id.score.tsx";
import * as fileRoute from "../../app/routes/api.v1.submissions.$id.file.tsx";
import * as teamSubmissionsRoute from "../../app/routes/api.v1.teams.$id.submissions.tsx";
import * as teamScoresRoute from "../../app/routes/api.v1.teams.$id.scores.tsx";
import * as teamChallengeRoute from "../../app/routes/api.v1.teams.$id.challenges.$challengeId.submission.tsx";
import { makeChallenge, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";
import { apiRequest, call, makeCallers, send } from "../support/api.ts";

// A small upload limit for this file, so the 413 test streams 1 KiB past it, not 200 MB.
process.env.SUBMISSION_MAX_BYTES = "1024";
resetEnvForTests();

const HOUR = 3_600_000;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
let callers: Awaited<ReturnType<typeof makeCallers>>;

beforeAll(async () => {
  const now = Date.now();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(number <= 2 ? now - HOUR : now + HOUR) })));
  callers = await makeCallers();
});

function multipart(method: string, path: string, token: string, fields: Record<string, string | Blob>, filename = "file.bin") {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, filename);
  }
  return apiRequest(method, path, { token, body: form });
}

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("challenges", () => {
  it("creates one from JSON (numbers accepted) and from the dashboard's multipart form with an attachment", async () => {
    const token = callers.tokens.admin;
    const created = await send(challengesRoute, "POST", "/challenges", { token, json: { title: "Maze", description: "Find the way", points: 150, category: "PS", wave: 1, difficulty: "Hard" } });
    expect(created.status).toBe(201);
    expect(ChallengeOutSchema.parse(created.body)).toMatchObject({ title: "Maze", points: 150, category: "PS", wave: 1, status: "active", attachmentName: null });
    expect(created.body).not.toHaveProperty("attachmentKey");

    const withFile = await json(
      await call(challengesRoute, multipart("POST", "/challenges", token, { title: "Logo", description: "Draw", points: "80", category: "GD", wave: "1", attachment: new Blob([PNG]) }, "brief.png")),
    );
    expect(withFile.status).toBe(201);
    expect(withFile.body).toMatchObject({ title: "Logo", attachmentName: "brief.png" });

    const download = await call(attachmentRoute, apiRequest("GET", `/challenges/${withFile.body.id}/attachment`, { token: callers.tokens.participant }), { id: String(withFile.body.id) });
    expect(download.status).toBe(302);
    expect(download.headers.get("Location")).toMatch(/^http/);

    const list = z.array(ChallengeListItemSchema).parse((await send(challengesRoute, "GET", "/challenges", { token })).body);
    expect(list.map((row) => row.title)).toEqual(expect.arrayContaining(["Maze", "Logo"]));
  });

  it("answers the form's messages per field, a refused attachment as 400, an oversize one as 413", async () => {
    const token = callers.tokens.admin;
    const invalid = await send(challengesRoute, "POST", "/challenges", { token, json: { title: "", points: "ten", category: "XX" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      code: "validation_failed",
      fieldErrors: {
        title: [messages.dashboard.titleRequired],
        description: [messages.dashboard.descriptionRequired],
        points: [messages.dashboard.pointsInvalid],
        category: [messages.dashboard.categoryRequired],
      },
    });

    const fields = { title: "T", description: "D", points: "10", category: "AI" };
    const renamed = await json(await call(challengesRoute, multipart("POST", "/challenges", token, { ...fields, attachment: new Blob([new Uint8Array([0x4d, 0x5a, 0, 0, 0, 0, 0, 0])]) }, "tool.pdf")));
    expect(renamed).toMatchObject({ status: 400, body: { fieldErrors: { attachment: [messages.dashboard.attachmentContent] } } });

    const huge = new Blob([PNG, new Uint8Array(20 * 1024 * 1024)]);
    const tooLarge = await json(await call(challengesRoute, multipart("POST", "/challenges", token, { ...fields, attachment: huge }, "big.png")));
    expect(tooLarge).toMatchObject({ status: 413, body: { code: "payload_too_large", message: messages.dashboard.attachmentTooLarge } });
  });

  it("sets the status outright, and participants then lose sight of an inactive challenge", async () => {
    const challenge = await makeChallenge({ wave: 1 });
    const id = String(challenge.id);
    const participant = { token: callers.tokens.participant };
    expect((await send(challengeRoute, "GET", `/challenges/${id}`, participant, { id })).status).toBe(200);

    for (let i = 0; i < 2; i++) {
      const set = await send(statusRoute, "PATCH", `/challenges/${id}/status`, { token: callers.tokens.admin, json: { status: "inactive" } }, { id });
      expect(set).toMatchObject({ status: 200, body: { id: challenge.id, status: "inactive" } });
    }
    expect((await send(challengeRoute, "GET", `/challenges/${id}`, participant, { id })).status).toBe(404);
    expect((await send(challengeRoute, "GET", `/challenges/${id}`, { token: callers.tokens.admin }, { id })).body).toMatchObject({ status: "inactive" });

    const bad = await send(statusRoute, "PATCH", `/challenges/${id}/status`, { token: callers.tokens.admin, json: { status: "paused" } }, { id });
    expect(bad).toMatchObject({ status: 400, body: { code: "validation_failed" } });
  });
});

describe("gates", () => {
  it("lists the gates, and a closed gate's board lists no challenge", async () => {
    const token = callers.tokens.participant;
    const list = z.array(GateOutSchema).parse((await send(gatesRoute, "GET", "/gates", { token })).body);
    expect(list.map((gate) => gate.open)).toEqual([true, true, false, false, false]);

    await makeChallenge({ wave: 3 });
    const closed = GateBoardSchema.parse((await send(boardRoute, "GET", "/gates/3/challenges", { token }, { wave: "3" })).body);
    expect(closed.challenges).toBeNull();
    const open = GateBoardSchema.parse((await send(boardRoute, "GET", "/gates/1/challenges", { token }, { wave: "1" })).body);
    expect(open.challenges?.length).toBeGreaterThan(0);
    expect((await send(boardRoute, "GET", "/gates/9/challenges", { token }, { wave: "9" })).status).toBe(404);
  });
});

describe("content in two languages", () => {
  it("a challenge and a gate carry their Arabic beside their English; the API answers both to everyone", async () => {
    const admin = callers.tokens.admin;
    const json = { title: "Lantern", description: "Light it.", titleAr: "الفانوس", descriptionAr: "أشعله.", points: 40, category: "PS", wave: 1 };
    const created = await send(challengesRoute, "POST", "/challenges", { token: admin, json });
    expect(ChallengeOutSchema.parse(created.body)).toMatchObject({ title: "Lantern", titleAr: "الفانوس", descriptionAr: "أشعله." });
    const id = String(ChallengeOutSchema.parse(created.body).id);
    const read = await send(challengeRoute, "GET", `/challenges/${id}`, { token: callers.tokens.participant }, { id });
    expect(read.body).toMatchObject({ title: "Lantern", description: "Light it.", titleAr: "الفانوس", descriptionAr: "أشعله." });
    const board = GateBoardSchema.parse((await send(boardRoute, "GET", "/gates/1/challenges", { token: callers.tokens.participant }, { wave: "1" })).body);
    expect(board.challenges?.find((card) => card.id === Number(id))).toMatchObject({ title: "Lantern", titleAr: "الفانوس" });
    // An edit sets the Arabic as given: left out, there is none.
    const edited = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: admin, json: { ...json, titleAr: undefined, descriptionAr: "" } }, { id });
    expect(edited.body).toMatchObject({ title: "Lantern", titleAr: null, descriptionAr: null });

    await getDb().update(gates).set({ titleAr: "البوابة الأولى", descriptionAr: "ادخل." }).where(eq(gates.number, 1));
    const list = z.array(GateOutSchema).parse((await send(gatesRoute, "GET", "/gates", { token: callers.tokens.participant })).body);
    expect(list[0]).toMatchObject({ title: "Gate 1", titleAr: "البوابة الأولى", descriptionAr: "ادخل." });
    expect(list[1]).toMatchObject({ titleAr: null, descriptionAr: null });
  });
});

describe("submissions", () => {
  it("a participant submits a file and a text (201), then updates (200); closed gates and teamless users are refused", async () => {
    const challenge = await makeChallenge({ wave: 2, points: 100, category: "CS" });
    const id = String(challenge.id);
    const token = callers.tokens.participant;

    const first = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, token, { text: "answer", file: new Blob(["hello"]) }, "a.txt"), { id }));
    expect(first.status).toBe(201);
    expect(SubmitResultSchema.parse(first.body)).toMatchObject({ created: true, message: messages.participant.created });
    const again = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, token, { text: "better" }), { id }));
    expect(again).toMatchObject({ status: 200, body: { created: false, message: messages.participant.updated, submissionId: first.body.submissionId } });

    const empty = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, token, { text: "" }), { id }));
    expect(empty).toMatchObject({ status: 400, body: { message: messages.participant.emptySubmission } });

    const closed = await makeChallenge({ wave: 4 });
    const refused = await json(await call(submitRoute, multipart("POST", `/challenges/${closed.id}/submission`, token, { text: "early" }), { id: String(closed.id) }));
    expect(refused).toMatchObject({ status: 403, body: { code: "forbidden", message: messages.participant.gateClosed } });

    const judge = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, callers.tokens.judge, { text: "x" }), { id }));
    expect(judge).toMatchObject({ status: 403, body: { message: messages.participant.noTeam } });

    const asJson = await send(submitRoute, "POST", `/challenges/${id}/submission`, { token, json: { text: "x" } }, { id });
    expect(asJson.status).toBe(415);
  });

  it("cuts a file past the limit: 413 with the original platform's message, nothing stored", async () => {
    const challenge = await makeChallenge({ wave: 1 });
    const id = String(challenge.id);
    const response = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, callers.tokens.participant, { text: "t", file: new Blob([new Uint8Array(4096)]) }), { id }));
    expect(response).toMatchObject({ status: 413, body: { code: "payload_too_large", message: messages.participant.fileTooLarge } });
    const list = z.array(TeamSubmissionSchema).parse((await send(teamSubmissionsRoute, "GET", `/teams/${callers.team.id}/submissions`, { token: callers.tokens.participant }, { id: String(callers.team.id) })).body);
    expect(list.find((row) => row.challengeId === challenge.id)).toBeUndefined();
  });

  it("a judge lists and scores; the team reads its submissions, scores per category and its submission to a challenge", async () => {
    const challenge = await makeChallenge({ wave: 1, points: 50, category: "AI" });
    const id = String(challenge.id);
    const participant = callers.tokens.participant;
    const submitted = await json(await call(submitRoute, multipart("POST", `/challenges/${id}/submission`, participant, { text: "t", file: new Blob(["data"]) }, "sol.txt"), { id }));
    const submissionId = String(submitted.body.submissionId);

    const judge = callers.tokens.judge;
    const listed = z.array(SubmissionOutSchema).parse((await send(submissionsRoute, "GET", "/submissions?mine=unscored&category=AI", { token: judge })).body);
    expect(listed.map((row) => row.id)).toContain(Number(submissionId));

    const outOfRange = await send(scoreRoute, "PUT", `/submissions/${submissionId}/score`, { token: judge, json: { score: 51 } }, { id: submissionId });
    expect(outOfRange).toMatchObject({ status: 400, body: { code: "validation_failed", fieldErrors: { score: [messages.scoring.range(50)] } } });
    // Past what the score column holds (a plain score is stored with the row lock, before the range check):
    // the same 400, not a 500 from Postgres.
    const huge = await send(scoreRoute, "PUT", `/submissions/${submissionId}/score`, { token: judge, json: { score: 99999999999 } }, { id: submissionId });
    expect(huge).toMatchObject({ status: 400, body: { code: "validation_failed", fieldErrors: { score: [messages.scoring.range(50)] } } });
    const scored = await send(scoreRoute, "PUT", `/submissions/${submissionId}/score`, { token: judge, json: { score: 40.5, comment: "good" } }, { id: submissionId });
    expect(scored).toMatchObject({ status: 200, body: { submissionId: Number(submissionId), score: 40.5, status: "reviewed" } });
    const missing = await send(scoreRoute, "PUT", "/submissions/999999/score", { token: judge, json: { score: 1 } }, { id: "999999" });
    expect(missing).toMatchObject({ status: 404, body: { message: messages.scoring.submissionNotFound } });
    const beyond = await send(scoreRoute, "PUT", "/submissions/99999999999/score", { token: judge, json: { score: 1 } }, { id: "99999999999" });
    // An id past the column's range never reaches Postgres.
    expect(beyond.status).toBe(404);

    const teamId = String(callers.team.id);
    const own = z.array(TeamSubmissionSchema).parse((await send(teamSubmissionsRoute, "GET", `/teams/${teamId}/submissions`, { token: participant }, { id: teamId })).body);
    expect(own.find((row) => row.id === Number(submissionId))).toMatchObject({ score: 40.5, fileName: "sol.txt", challengeId: challenge.id });
    expect(own[0]).not.toHaveProperty("judgeScores");

    const scores = CategoryScoresSchema.parse((await send(teamScoresRoute, "GET", `/teams/${teamId}/scores`, { token: participant }, { id: teamId })).body);
    expect(scores.AI).toEqual([40.5]);

    const one = await send(teamChallengeRoute, "GET", `/teams/${teamId}/challenges/${id}/submission`, { token: participant }, { id: teamId, challengeId: id });
    expect(OwnSubmissionSchema.parse(one.body)).toMatchObject({ text: "t", fileName: "sol.txt", hasFile: true, status: "reviewed" });

    const file = await call(fileRoute, apiRequest("GET", `/submissions/${submissionId}/file`, { token: participant }), { id: submissionId });
    expect(file.status).toBe(302);
    const stranger = await makeUser("participant", (await makeTeam()).id);
    const strangerToken = (await createApiToken(testAdmin, stranger.id, "t")).token;
    const hidden = await call(fileRoute, apiRequest("GET", `/submissions/${submissionId}/file`, { token: strangerToken }), { id: submissionId });
    expect(hidden.status).toBe(404);
    const notTheirs = await send(teamSubmissionsRoute, "GET", `/teams/${teamId}/submissions`, { token: strangerToken }, { id: teamId });
    expect(notTheirs).toMatchObject({ status: 403, body: { message: messages.api.notYourTeam } });
    expect((await send(teamScoresRoute, "GET", "/teams/999999/scores", { token: judge }, { id: "999999" })).status).toBe(404);
  });
});
