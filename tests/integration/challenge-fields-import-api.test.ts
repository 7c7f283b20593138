/**
 * Every field of a flag challenge travels through the bulk import and the API (docs/domain.md "Writing a flag
 * challenge", docs/API.md): its checking and answers, its points' curve, its limits, its release, its hints that
 * cost points and its prerequisites. Admins read them all back (never an answer); a participant reads each paid
 * hint's cost, and its text only once their team unlocked it, which the API's unlock does by the page's rule
 * (charged once, audited, on the board).
 */
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeHints, challengePrerequisites, challenges, standings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { importChallenges, previewChallengesImport } from "../../app/modules/imports/challenges-import.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import * as challengesRoute from "../../app/routes/api.v1.challenges.tsx";
import * as challengeRoute from "../../app/routes/api.v1.challenges.$id.tsx";
import * as unlockRoute from "../../app/routes/api.v1.challenges.$id.hints.$number.unlock.tsx";
import { makeCallers, send } from "../support/api.ts";
import { ensureEventSettings, ensureTwoOpenGates, testAdmin } from "../support/fixtures.ts";

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

const byTitle = async (title: string) => (await getDb().select().from(challenges).where(eq(challenges.title, title)))[0];
const hintsOf = (challengeId: number) =>
  getDb().select({ position: challengeHints.position, costCenti: challengeHints.costCenti, text: challengeHints.text }).from(challengeHints).where(eq(challengeHints.challengeId, challengeId)).orderBy(asc(challengeHints.position));
const requiresOf = async (challengeId: number) =>
  (await getDb().select({ id: challengePrerequisites.requiresId }).from(challengePrerequisites).where(eq(challengePrerequisites.challengeId, challengeId))).map((row) => row.id).sort((a, b) => a - b);

describe("the challenge import", () => {
  it("carries the points' curve, the release, paid hints and prerequisites (a saved challenge's title or another row's)", async () => {
    const stamp = Date.now();
    const saved = await createChallenge(testAdmin, { title: `Saved base ${stamp}`, description: "d", points: 10, category: "CS", wave: 1 }, null);
    const first = `Imported warm-up ${stamp}`;
    const second = `Imported dynamic ${stamp}`;
    const csv = [
      "title,description,points,category,wave,checking,answers,max_attempts,scoring,minimum_points,decay,release_after_minutes,paid_hints,prerequisites",
      `"${first}",d,50,CS,1,flag,"exact: GK{warm}",,,,,,,"Saved base ${stamp}"`,
      `"${second}",d,500,CS,1,flag,"exact: GK{dyn}",5,dynamic,100,12,30,"25 | Look at the logs\n0.5 | It is in base64","${first}\nSaved base ${stamp}"`,
    ].join("\r\n");
    const preview = await previewChallengesImport(csv, "fields.csv");
    expect(preview.issues).toEqual([]);
    expect(preview.rows).toMatchObject([
      { title: first, dynamic: null, releaseAfterMinutes: null, paidHints: 0, prerequisites: 1 },
      { title: second, dynamic: { minimumPoints: 100, decay: 12 }, releaseAfterMinutes: 30, paidHints: 2, prerequisites: 2 },
    ]);
    // The preview names how many hints, never what they say; never an answer.
    expect(JSON.stringify(preview)).not.toMatch(/Look at the logs|GK\{/);
    expect(await importChallenges(testAdmin, csv, "fields.csv")).toEqual({ ok: true, created: 2 });
    const [one, two] = [await byTitle(first), await byTitle(second)];
    expect(two).toMatchObject({ checking: "flag", scoring: "dynamic", minimumPoints: 100, decay: 12, releaseAfterMinutes: 30, maxAttempts: 5 });
    expect(await hintsOf(two.id)).toEqual([
      { position: 1, costCenti: 2500, text: "Look at the logs" },
      { position: 2, costCenti: 50, text: "It is in base64" },
    ]);
    expect(await requiresOf(one.id)).toEqual([saved.id]);
    expect(await requiresOf(two.id)).toEqual([saved.id, one.id].sort((a, b) => a - b));

    // JSON: hints as a list of { cost, text }, prerequisites as a list of titles.
    const json = JSON.stringify([
      {
        title: `${second} json`,
        description: "d",
        points: 80,
        category: "AI",
        wave: 1,
        checking: "flag",
        answers: ["GK{json}"],
        paid_hints: [{ cost: 10, text: "First" }, "2.25 | Second"],
        prerequisites: [first],
      },
    ]);
    expect(await importChallenges(testAdmin, json, "c.json")).toEqual({ ok: true, created: 1 });
    const three = await byTitle(`${second} json`);
    expect(await hintsOf(three.id)).toEqual([
      { position: 1, costCenti: 1000, text: "First" },
      { position: 2, costCenti: 225, text: "Second" },
    ]);
    expect(await requiresOf(three.id)).toEqual([one.id]);
  });

  it("refuses, by row, a prerequisite that names nothing, two challenges, the row itself or a circle, and a bad curve or hint", async () => {
    const stamp = Date.now();
    await createChallenge(testAdmin, { title: `Twin ${stamp}`, description: "d", points: 10, category: "CS", wave: 1 }, null);
    await createChallenge(testAdmin, { title: `Twin ${stamp}`, description: "d", points: 10, category: "CS", wave: 1 }, null);
    const csv = [
      "title,description,points,category,checking,answers,scoring,minimum_points,decay,paid_hints,prerequisites",
      `Lone ${stamp},d,10,CS,,,,,,,Nobody ${stamp}`,
      `Pair ${stamp},d,10,CS,,,,,,,Twin ${stamp}`,
      `Self ${stamp},d,10,CS,,,,,,,Self ${stamp}`,
      `Ring A ${stamp},d,10,CS,,,,,,,Ring B ${stamp}`,
      `Ring B ${stamp},d,10,CS,,,,,,,Ring A ${stamp}`,
      `Judged curve ${stamp},d,10,CS,,,dynamic,5,3,,`,
      `Low ${stamp},d,10,CS,flag,GK{x},dynamic,50,3,,`,
      `Hinted ${stamp},d,10,CS,,,,,,free hint,`,
    ].join("\r\n");
    const { issues } = await previewChallengesImport(csv, "bad.csv");
    const im = messages.imports;
    const fm = messages.flagAnswers;
    expect(issues).toEqual([
      { row: 2, messages: [`prerequisites: ${im.prerequisiteUnknown(`Nobody ${stamp}`)}`] },
      { row: 3, messages: [`prerequisites: ${im.prerequisiteAmbiguous(`Twin ${stamp}`)}`] },
      { row: 4, messages: [`prerequisites: ${messages.dashboard.prerequisiteSelf}`] },
      { row: 5, messages: [`prerequisites: ${messages.dashboard.prerequisiteCycle}`] },
      { row: 6, messages: [`prerequisites: ${messages.dashboard.prerequisiteCycle}`] },
      { row: 7, messages: [`scoring: ${fm.dynamicForFlags}`] },
      { row: 8, messages: [`minimum_points: ${fm.minimumAbovePoints}`] },
      { row: 9, messages: [`paid_hints: ${messages.hints.lineShape(1)}`] },
    ]);
    expect(await importChallenges(testAdmin, csv, "bad.csv")).toMatchObject({ ok: false });
    expect(await byTitle(`Lone ${stamp}`)).toBeUndefined();
  });
});

describe("the API's challenge objects and the hint unlock", () => {
  it("writes and shows every field to admins; a participant reads hint costs, and a text once unlocked through the API", async () => {
    const { tokens, team } = await makeCallers();
    const stamp = Date.now();
    const required = await createChallenge(testAdmin, { title: `API base ${stamp}`, description: "d", points: 10, category: "CS", wave: 1 }, null);
    const body = {
      title: `API every field ${stamp}`,
      description: "Find it",
      points: 400,
      category: "CS",
      wave: 1,
      checking: "flag",
      answers: [{ kind: "exact", value: "GK{all-fields}" }],
      wrongPerMinute: 4,
      maxAttempts: 9,
      scoring: "dynamic",
      minimumPoints: 50,
      decay: 10,
      releaseAfterMinutes: 5,
      paidHints: [
        { cost: 30, text: "Secret hint one" },
        { cost: 0, text: "Secret hint two" },
      ],
      prerequisites: [required.id],
    };
    const created = await send(challengesRoute, "POST", "/challenges", { token: tokens.admin, json: body });
    expect(created.status).toBe(201);
    // Every field as written, the hints numbered with their texts (admins write them); never an answer.
    const { checking, wrongPerMinute, maxAttempts, scoring, minimumPoints, decay, releaseAfterMinutes, prerequisites } = body;
    const paidHints = body.paidHints.map((hint, at) => ({ number: at + 1, ...hint }));
    const shown = { checking, wrongPerMinute, maxAttempts, scoring, minimumPoints, decay, releaseAfterMinutes, prerequisites, paidHints, answerCount: 1 };
    expect(created.body).toMatchObject(shown);
    const id = Number(created.body!.id);
    const asAdmin = await send(challengeRoute, "GET", `/challenges/${id}`, { token: tokens.admin }, { id: String(id) });
    expect(asAdmin.body).toMatchObject(shown);
    const list = (await send(challengesRoute, "GET", "/challenges", { token: tokens.admin })).body as Array<Record<string, unknown>>;
    expect(list.find((row) => row.id === id)).toMatchObject(shown);
    for (const answer of [created.body, asAdmin.body, list]) expect(JSON.stringify(answer)).not.toContain("all-fields");

    // A bad hint in the list is refused as a line; an empty list removes them.
    const bad = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.admin, json: { ...body, paidHints: [{ cost: 1, text: "ok" }, { cost: 0.001, text: "x" }] } }, { id: String(id) });
    expect(bad).toMatchObject({ status: 400, body: { fieldErrors: { paidHints: [messages.hints.lineCost(2)] } } });

    // Open it for the participant's team: released (no release delay) and its prerequisite out of the way.
    await getDb().update(challenges).set({ releaseAfterMinutes: null }).where(eq(challenges.id, id));
    await getDb().delete(challengePrerequisites).where(eq(challengePrerequisites.challengeId, id));
    const asParticipant = await send(challengeRoute, "GET", `/challenges/${id}`, { token: tokens.participant }, { id: String(id) });
    expect(asParticipant.status).toBe(200);
    expect(asParticipant.body).toMatchObject({
      scoring: "dynamic",
      paidHints: [
        { number: 1, cost: 30, unlocked: false, text: null },
        { number: 2, cost: 0, unlocked: false, text: null },
      ],
    });
    expect(asParticipant.body).not.toHaveProperty("prerequisites");
    expect(JSON.stringify(asParticipant.body)).not.toMatch(/Secret hint|all-fields/);

    const unlock = (number: string, token: string) => send(unlockRoute, "POST", `/challenges/${id}/hints/${number}/unlock`, { token }, { id: String(id), number });
    expect(await unlock("1", tokens.participant)).toMatchObject({ status: 200, body: { number: 1, cost: 30, charged: true, text: "Secret hint one" } });
    // Once: a second unlock charges nothing more.
    expect(await unlock("1", tokens.participant)).toMatchObject({ status: 200, body: { charged: false, text: "Secret hint one" } });
    expect((await unlock("3", tokens.participant)).status).toBe(404);
    expect((await unlock("40000", tokens.participant)).status).toBe(404);
    // Admins and judges have no team: the catalogue refuses them.
    expect((await unlock("2", tokens.admin)).status).toBe(403);
    expect((await unlock("2", tokens.judge)).status).toBe(403);

    const after = await send(challengeRoute, "GET", `/challenges/${id}`, { token: tokens.participant }, { id: String(id) });
    expect((after.body as unknown as { paidHints: unknown }).paidHints).toEqual([
      { number: 1, cost: 30, unlocked: true, text: "Secret hint one" },
      { number: 2, cost: 0, unlocked: false, text: null },
    ]);
    const [record] = await getDb()
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.kind, "hint.unlocked"), eq(auditLog.teamId, team.id), eq(auditLog.subjectId, id)));
    expect(record.after).toEqual({ challenge: id, hint: 1, cost: 30 });
    await recomputeTeamStanding(team.id);
    const [standing] = await getDb().select({ totalCenti: standings.totalCenti }).from(standings).where(eq(standings.teamId, team.id));
    expect(standing.totalCenti).toBe(-3000);

    // A challenge the team may not see: no hint to unlock.
    await getDb().update(challenges).set({ status: "inactive" }).where(eq(challenges.id, id));
    expect((await unlock("2", tokens.participant)).status).toBe(404);
  });
});
