/**
 * Admins choose and configure how a challenge is checked (docs/domain.md "Flag challenges") wherever one is
 * written: the module, the dashboard form, the import and the API. A flag's value never leaves the admin's
 * form: not in an API answer (an admin's included), not in a participant's read, not in the audit trail.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeFlags, challenges, eventSettings, flagAttempts, teamFlags } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge, getChallenge, updateChallenge, type ChallengeInput } from "../../app/modules/challenges/challenges.server.ts";
import { ChallengeFormSchema } from "../../app/modules/challenges/schema.ts";
import { DomainError } from "../../app/modules/errors.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { flagDigest, perTeamFlag } from "../../app/modules/flags/matching.server.ts";
import { importChallenges, previewChallengesImport } from "../../app/modules/imports/challenges-import.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getChallengeForSubmission, getGateBoard } from "../../app/modules/participant/board.server.ts";
import { readSettingsPage } from "../../app/modules/settings/event-settings.server.ts";
import { action as formAction, loader as formLoader } from "../../app/routes/dashboard.challenges.tsx";
import { loader as listLoader } from "../../app/routes/dashboard.getAllChallenges.tsx";
import { action as settingsAction } from "../../app/routes/dashboard.settings.tsx";
import * as challengesRoute from "../../app/routes/api.v1.challenges.tsx";
import * as challengeRoute from "../../app/routes/api.v1.challenges.$id.tsx";
import * as gateChallengesRoute from "../../app/routes/api.v1.gates.$wave.challenges.tsx";
import { makeCallers, send } from "../support/api.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeSubmission, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";

const fm = messages.flagAnswers;
const base = { title: "Flagged", description: "Find it", points: 100, category: "CS" as const, wave: 1 };

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { message: error.message, status: error.status, field: error.field };
    throw error;
  }
  throw new Error("not refused");
}

const storedAnswers = (challengeId: number) =>
  getDb().select({ kind: challengeFlags.kind, value: challengeFlags.value }).from(challengeFlags).where(eq(challengeFlags.challengeId, challengeId)).orderBy(challengeFlags.position);

const stored = async (id: number) => (await getDb().select().from(challenges).where(eq(challenges.id, id)))[0];

describe("saving a flag challenge (the module)", () => {
  it("saves the checking, its limits and its answers; an edit replaces them", async () => {
    const input: ChallengeInput = { ...base, title: `Flag ${Date.now()}`, checking: "flag", answers: "exact: GK{one}\nany case: gk{Two}", wrongPerMinute: 3, maxAttempts: 10 };
    const { id } = await createChallenge(testAdmin, input, null);
    expect(await stored(id)).toMatchObject({ checking: "flag", wrongPerMinute: 3, maxAttempts: 10, flagSecret: null });
    expect(await storedAnswers(id)).toEqual([
      { kind: "exact", value: "GK{one}" },
      { kind: "exact_ci", value: "gk{Two}" },
    ]);
    await updateChallenge(testAdmin, id, { ...input, answers: "regex: GK\\{[0-9]{3}\\}", wrongPerMinute: undefined, maxAttempts: undefined }, null);
    expect(await stored(id)).toMatchObject({ checking: "flag", wrongPerMinute: null, maxAttempts: null });
    expect(await storedAnswers(id)).toEqual([{ kind: "regex", value: "GK\\{[0-9]{3}\\}" }]);
    // An edit without the checking (as the API's without it) leaves the answers as they are.
    await updateChallenge(testAdmin, id, { ...base, title: input.title, points: 120 }, null);
    expect(await storedAnswers(id)).toHaveLength(1);
    expect((await getChallenge(id))?.answerCount).toBe(1);
  });

  it("refuses a pattern RE2 cannot compile, naming its line and RE2's reason; nothing is saved", async () => {
    const refused = await refusalOf(createChallenge(testAdmin, { ...base, checking: "flag", answers: "GK{fine}\n\nregex: GK(unclosed" }, null));
    expect(refused).toMatchObject({ status: 400, field: "answers" });
    expect(refused.message).toMatch(/^Answers, line 3: this pattern does not compile \(.+\)\.$/);
    expect(await refusalOf(createChallenge(testAdmin, { ...base, checking: "flag", answers: "" }, null))).toMatchObject({ message: fm.required, status: 400 });
    expect(await refusalOf(createChallenge(testAdmin, { ...base, checking: "judges", answers: "GK{x}" }, null))).toMatchObject({ message: fm.notForJudges, field: "answers" });
  });

  it("refuses to change the checking once a team has answered (a flag attempt or a submission)", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const input: ChallengeInput = { ...base, title: `Answered ${Date.now()}`, checking: "flag", answers: "GK{answered}" };
    const { id } = await createChallenge(testAdmin, input, null);
    await sendFlag({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: id, answer: "wrong" });
    expect(await refusalOf(updateChallenge(testAdmin, id, { ...input, checking: "judges", answers: "" }, null))).toEqual({ message: fm.checkingLocked, status: 409, field: "checking" });
    expect((await stored(id)).checking).toBe("flag");
    // The answers may still change.
    await updateChallenge(testAdmin, id, { ...input, answers: "GK{answered}\nGK{also}" }, null);
    expect(await storedAnswers(id)).toHaveLength(2);

    const judged = await createChallenge(testAdmin, { ...base, title: `Judged ${Date.now()}`, checking: "judges" }, null);
    await makeSubmission(team.id, judged.id, member.id);
    expect(await refusalOf(updateChallenge(testAdmin, judged.id, { ...base, checking: "flag", answers: "GK{late}" }, null))).toMatchObject({ status: 409, field: "checking" });
    // Before any answer, it may change either way.
    const fresh = await createChallenge(testAdmin, { ...base, title: `Fresh ${Date.now()}` }, null);
    await updateChallenge(testAdmin, fresh.id, { ...base, checking: "flag", answers: "GK{now}" }, null);
    expect((await stored(fresh.id)).checking).toBe("flag");
    await updateChallenge(testAdmin, fresh.id, { ...base, checking: "judges", answers: "" }, null);
    expect(await stored(fresh.id)).toMatchObject({ checking: "judges" });
    expect(await storedAnswers(fresh.id)).toEqual([]);
  });

  it("makes the per-team key once and keeps it; every team's flag follows the per-team text", async () => {
    const a = await makeTeam();
    const input: ChallengeInput = { ...base, title: `Per team ${Date.now()}`, checking: "flag", answers: "exact: GK{shared}" };
    const { id } = await createChallenge(testAdmin, input, null);
    expect((await stored(id)).flagSecret).toBeNull();
    await updateChallenge(testAdmin, id, { ...input, answers: "per team: GK{<hmac>}" }, null);
    const secret = (await stored(id)).flagSecret!;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const digestOf = async (teamId: number) =>
      (await getDb().select().from(teamFlags).where(and(eq(teamFlags.challengeId, id), eq(teamFlags.teamId, teamId))))[0]?.digest;
    expect(await digestOf(a.id)).toBe(flagDigest(perTeamFlag(secret, a.id, "GK{<hmac>}")));

    await updateChallenge(testAdmin, id, { ...input, answers: "per team: FLAG-<hmac>\nexact: GK{shared}" }, null);
    expect((await stored(id)).flagSecret).toBe(secret);
    expect(await digestOf(a.id)).toBe(flagDigest(perTeamFlag(secret, a.id, "FLAG-<hmac>")));
    // Removed and given again: still the same key (a new one would change every team's flag).
    await updateChallenge(testAdmin, id, { ...input, answers: "GK{shared}" }, null);
    expect(await digestOf(a.id)).toBeUndefined();
    await updateChallenge(testAdmin, id, { ...input, answers: "per team: FLAG-<hmac>" }, null);
    expect((await stored(id)).flagSecret).toBe(secret);
    const member = await makeUser("participant", a.id);
    const verdict = await sendFlag({ actor: actorFor(member.id, member.name, "participant"), teamId: a.id, challengeId: id, answer: perTeamFlag(secret, a.id, "FLAG-<hmac>") });
    expect(verdict.verdict).toBe("correct");

    const records = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "flag.answers"), eq(auditLog.subjectId, id)));
    expect(records.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(records)).not.toMatch(/GK\{shared\}|FLAG-|hmac|[0-9a-f]{64}/);
  });
});

const formUrl = "http://localhost/dashboard/challenges";

async function postForm(cookie: string, fields: Record<string, string>) {
  const request = new Request(formUrl, { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost" }, body: new URLSearchParams(fields) });
  return formAction({ request, params: {}, context: {} });
}

type FormReply = { data: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; init: { status?: number } | null };

describe("the dashboard form", () => {
  it("parses the checking, the answers' text and the limits; a judged challenge by default", () => {
    const form = { title: "t", description: "d", points: "10", category: "CS" };
    expect(ChallengeFormSchema.parse(form)).toMatchObject({ checking: "judges" });
    expect(ChallengeFormSchema.parse({ ...form, checking: "flag", answers: "GK{a}", wrongPerMinute: "7", maxAttempts: "50" })).toMatchObject({
      checking: "flag",
      wrongPerMinute: 7,
      maxAttempts: 50,
    });
    const issues = (input: Record<string, string>) => Object.fromEntries((ChallengeFormSchema.safeParse({ ...form, ...input }).error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
    expect(issues({ checking: "flag" })).toEqual({ answers: fm.required });
    expect(issues({ checking: "flag", answers: "a\nexact:" })).toEqual({ answers: fm.emptyValue(2) });
    expect(issues({ checking: "flag", answers: "a", wrongPerMinute: "0", maxAttempts: "1000001" })).toEqual({ wrongPerMinute: fm.wrongPerMinuteInvalid, maxAttempts: fm.maxAttemptsInvalid });
    expect(issues({ checking: "quiz" })).toEqual({ checking: fm.checkingInvalid });
  });

  it("saves through the action, refuses a bad pattern on its field keeping what was typed, and fills the edit form", async () => {
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    const title = `Form flag ${Date.now()}`;
    const fields = { title, description: "d", points: "100", category: "CS", wave: "1", checking: "flag", answers: "exact: GK{form}\nregex: GK[", maxAttempts: "5" };
    const refused = (await postForm(cookie, fields)) as unknown as FormReply;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.answers?.[0]).toMatch(/Answers, line 2: this pattern does not compile/);
    expect(refused.data.initialValue).toMatchObject({ answers: fields.answers, checking: "flag" });
    expect(await getDb().select().from(challenges).where(eq(challenges.title, title))).toEqual([]);

    const saved = (await postForm(cookie, { ...fields, answers: "exact: GK{form}\nregex: GK\\{[a-z]+\\}" })) as Response;
    expect(saved.status).toBe(302);
    const [row] = await getDb().select().from(challenges).where(eq(challenges.title, title));
    expect(row).toMatchObject({ checking: "flag", maxAttempts: 5, wrongPerMinute: null });

    const page = await formLoader({ request: new Request(`${formUrl}?edit=${row.id}`, { headers: { Cookie: cookie } }), params: {}, context: {} });
    expect(page.editing).toMatchObject({ checking: "flag", answers: "exact: GK{form}\nregex: GK\\{[a-z]+\\}", maxAttempts: "5", wrongPerMinute: "" });
    expect(JSON.stringify(page)).not.toContain("flagSecret");

    const list = await listLoader({ request: new Request("http://localhost/dashboard/getAllChallenges", { headers: { Cookie: cookie } }), params: {}, context: {} });
    expect(list.challenges.find((challenge) => challenge.id === row.id)).toMatchObject({ checking: "flag", answerCount: 2 });
    expect(JSON.stringify(list)).not.toContain("GK{form}");

    // Once answered, a change of checking is refused on its field.
    const team = await makeTeam();
    await getDb().insert(flagAttempts).values({ teamId: team.id, challengeId: row.id, verdict: "incorrect", answer: "nope" });
    const locked = (await postForm(cookie, { ...fields, id: String(row.id), checking: "judges", answers: "" })) as unknown as FormReply;
    expect(locked.init?.status).toBe(409);
    expect(locked.data.error?.checking).toEqual([messages.dashboard.warn(fm.checkingLocked)]);
  });

  it("is refused to anyone but an admin", async () => {
    const judge = await makeUser("judge");
    const cookie = await sessionCookie(judge.id);
    await expect(formLoader({ request: new Request(`${formUrl}?edit=1`, { headers: { Cookie: cookie } }), params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } });
  });
});

describe("the import", () => {
  it("reads checking, answers (a quoted cell of lines), wrong_per_minute and max_attempts; the preview counts the answers, never shows one", async () => {
    const title = `Imported flag ${Date.now()}`;
    const csv = `title,description,points,category,wave,checking,answers,wrong_per_minute,max_attempts\r\n"${title}",d,50,CS,1,flag,"exact: GK{imported}\nany case: gk{IMPORTED-too}",4,9\r\nJudged import,d,40,AI,1,,,,\r\n`;
    const preview = await previewChallengesImport(csv, "flags.csv");
    expect(preview).toMatchObject({ fileError: null, issues: [], rows: [{ title, checking: "flag", answerCount: 2 }, { checking: "judges", answerCount: 0 }] });
    expect(JSON.stringify(preview)).not.toMatch(/imported\}|IMPORTED/);
    expect(await importChallenges(testAdmin, csv, "flags.csv")).toEqual({ ok: true, created: 2 });
    const [row] = await getDb().select().from(challenges).where(eq(challenges.title, title));
    expect(row).toMatchObject({ checking: "flag", wrongPerMinute: 4, maxAttempts: 9 });
    expect(await storedAnswers(row.id)).toEqual([
      { kind: "exact", value: "GK{imported}" },
      { kind: "exact_ci", value: "gk{IMPORTED-too}" },
    ]);

    const json = JSON.stringify([{ title: `${title} json`, description: "d", points: 10, category: "CS", checking: "flag", answers: ["per team: GK{<hmac>}", "GK{x}"] }]);
    expect((await previewChallengesImport(json, "c.json")).rows).toMatchObject([{ checking: "flag", answerCount: 2 }]);

    const bad = `title,description,points,category,checking,answers,max_attempts\r\nBad,d,10,CS,flag,"GK{a}\nregex: (",0\r\nNone,d,10,CS,flag,,\r\n`;
    const refused = await previewChallengesImport(bad, "bad.csv");
    expect(refused.issues).toEqual([
      { row: 2, messages: [`max_attempts: ${fm.maxAttemptsInvalid}`] },
      { row: 4, messages: [`answers: ${fm.required}`] },
    ]);
    const pattern = await previewChallengesImport(bad.replace(",0\r\n", ",\r\n"), "bad.csv");
    expect(pattern.issues[0]).toMatchObject({ row: 2, messages: [expect.stringMatching(/^answers: Answers, line 2: this pattern does not compile/)] });
  });
});

describe("the API", () => {
  it("creates and edits a flag challenge; no answer ever comes back, for any role", async () => {
    const { tokens, team } = await makeCallers();
    const title = `API flag ${Date.now()}`;
    const body = {
      ...base,
      title,
      checking: "flag",
      answers: [
        { kind: "exact", value: "GK{api-secret}" },
        { kind: "per_team", value: "API{<hmac>}" },
      ],
      maxAttempts: 20,
    };
    const created = await send(challengesRoute, "POST", "/challenges", { token: tokens.admin, json: body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title, checking: "flag", maxAttempts: 20, wrongPerMinute: null, answerCount: 2 });
    const id = Number(created.body!.id);
    const secret = (await stored(id)).flagSecret!;
    expect(secret).toBeTruthy();
    const leaks = (value: unknown) => {
      const text = JSON.stringify(value);
      return ["api-secret", "API{", "<hmac>", secret, perTeamFlag(secret, team.id, "API{<hmac>}")].filter((part) => text.includes(part));
    };
    expect(leaks(created.body)).toEqual([]);

    const list = await send(challengesRoute, "GET", "/challenges", { token: tokens.admin });
    expect((list.body as Array<Record<string, unknown>>).find((row) => row.id === id)).toMatchObject({ checking: "flag", answerCount: 2 });
    expect(leaks(list.body)).toEqual([]);
    const asAdmin = await send(challengeRoute, "GET", `/challenges/${id}`, { token: tokens.admin }, { id: String(id) });
    expect(asAdmin.body).toMatchObject({ checking: "flag", answerCount: 2 });
    expect(leaks(asAdmin.body)).toEqual([]);
    const asParticipant = await send(challengeRoute, "GET", `/challenges/${id}`, { token: tokens.participant }, { id: String(id) });
    expect(asParticipant.status).toBe(200);
    expect(asParticipant.body).toMatchObject({ checking: "flag", maxAttempts: 20 });
    expect(asParticipant.body).not.toHaveProperty("answerCount");
    expect(leaks(asParticipant.body)).toEqual([]);
    const gate = await send(gateChallengesRoute, "GET", "/gates/1/challenges", { token: tokens.participant }, { wave: "1" });
    expect(gate.status).toBe(200);
    expect(leaks(gate.body)).toEqual([]);

    // The participant's own pages read the challenge through the board: no answer, no key there either.
    expect(leaks(await getChallengeForSubmission(id, { role: "participant", teamId: team.id }))).toEqual([]);
    expect(leaks(await getGateBoard(1, team.id))).toEqual([]);

    const edited = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.admin, json: { ...body, answers: [{ kind: "regex", value: "GK\\{api-[0-9]+\\}" }] } }, { id: String(id) });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ answerCount: 1 });
    expect(JSON.stringify(edited.body)).not.toContain("api-[0-9]");
    expect((await stored(id)).flagSecret).toBe(secret);

    const badPattern = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.admin, json: { ...body, answers: [{ kind: "exact", value: "x" }, { kind: "regex", value: "(" }] } }, { id: String(id) });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body).toMatchObject({ code: "validation_failed", fieldErrors: { answers: [expect.stringMatching(/^Answers, line 2: this pattern does not compile/)] } });
    const empty = await send(challengesRoute, "POST", "/challenges", { token: tokens.admin, json: { ...body, answers: [] } });
    expect(empty).toMatchObject({ status: 400, body: { fieldErrors: { answers: [fm.required] } } });
    const twoPerTeam = await send(challengesRoute, "POST", "/challenges", { token: tokens.admin, json: { ...body, answers: [{ kind: "per_team", value: "A" }, { kind: "per_team", value: "B" }] } });
    expect(twoPerTeam).toMatchObject({ status: 400, body: { fieldErrors: { answers: [fm.onePerTeam(2)] } } });

    await makeSubmission(team.id, id, null);
    const locked = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.admin, json: { ...body, checking: "judges", answers: [] } }, { id: String(id) });
    expect(locked).toMatchObject({ status: 409, body: { fieldErrors: { checking: [fm.checkingLocked] } } });
    // Without `checking`, the mode and answers stay as they are.
    const kept = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.admin, json: { ...base, title, points: 150 } }, { id: String(id) });
    expect(kept).toMatchObject({ status: 200, body: { checking: "flag", points: 150, answerCount: 1 } });

    const forbidden = await send(challengeRoute, "PUT", `/challenges/${id}`, { token: tokens.judge, json: body }, { id: String(id) });
    expect(forbidden.status).toBe(403);
  });
});

describe("Settings → Flag challenges", () => {
  it("saves the event's wrong answers a minute (1 to 1000) and shows it", async () => {
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    const post = (value: string) =>
      settingsAction({
        request: new Request("http://localhost/dashboard/settings", { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost" }, body: new URLSearchParams({ intent: "flags", flagWrongPerMinute: value }) }),
        params: {},
        context: {},
      });
    const refused = (await post("0")) as unknown as FormReply;
    expect(refused.init?.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain(fm.wrongPerMinuteInvalid);
    expect(((await post("12")) as Response).status).toBe(302);
    expect((await getDb().select({ value: eventSettings.flagWrongPerMinute }).from(eventSettings))[0].value).toBe(12);
    expect((await readSettingsPage()).flagWrongPerMinute).toBe(12);
    expect(((await post("5")) as Response).status).toBe(302);
  });
});
