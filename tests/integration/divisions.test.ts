/**
 * Divisions (docs/domain.md "Divisions"): the event's list (Settings), a team's division (the Teams page, the
 * API), and each division's board in the scoreboard feed and the scoreboard page: its teams only, ranked 1..n
 * by the one ranking rule (ties, who reached the total first, awards), the freeze applied. A team without a
 * division is on the overall board only.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { getZodConstraint } from "@conform-to/zod/v4";
import { desc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, teams } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { ScoreboardSchema, TeamOutSchema, TeamRefSchema } from "../../app/modules/api/schemas.ts";
import { giveAward } from "../../app/modules/awards/awards.server.ts";
import { readDivisions, updateDivisions } from "../../app/modules/divisions/divisions.server.ts";
import { DivisionsFormSchema } from "../../app/modules/divisions/schema.ts";
import { TeamSizeCapSchema } from "../../app/modules/settings/schema.ts";
import { TeamFormSchema } from "../../app/modules/teams/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { importAccounts, previewAccountsImport } from "../../app/modules/imports/accounts-import.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { setTeamDivision } from "../../app/modules/teams/teams.server.ts";
import * as scoreboardRoute from "../../app/routes/api.v1.scoreboard.tsx";
import * as teamsRoute from "../../app/routes/api.v1.teams.tsx";
import * as divisionRoute from "../../app/routes/api.v1.teams.$id.division.tsx";
import { action as teamsPage } from "../../app/routes/dashboard.teams.tsx";
import { action as settingsPage } from "../../app/routes/dashboard.settings.tsx";
import { loader as scoreboardPage } from "../../app/routes/_app.scoreboard.tsx";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { apiRequest, call, makeCallers, send } from "../support/api.ts";

const dm = messages.divisions;
let callers: Awaited<ReturnType<typeof makeCallers>>;

beforeAll(async () => {
  await ensureEventSettings();
  callers = await makeCallers();
  await updateDivisions(testAdmin, ["Student", "Open"]);
});

async function postForm(action: (args: ActionFunctionArgs) => Promise<unknown>, path: string, userId: number, form: Record<string, string>) {
  const request = new Request(`http://localhost${path}`, { method: "POST", headers: { Cookie: await sessionCookie(userId), Origin: "http://localhost" }, body: new URLSearchParams(form) });
  return (await action({ request, params: {}, context: {} })) as unknown as Response & { data: { error?: Record<string, string[]>; result?: { error: Record<string, string[]> } }; init: { status: number } };
}

describe("the forms", () => {
  it("give conform their constraints (the pages render them; a transform in a schema broke the Settings page)", () => {
    for (const schema of [DivisionsFormSchema, TeamFormSchema, TeamSizeCapSchema]) expect(() => getZodConstraint(schema)).not.toThrow();
  });
});

describe("the event's list", () => {
  it("is kept in Postgres and in the standings snapshot (the board reads no Postgres)", async () => {
    expect(await readDivisions()).toEqual(["Student", "Open"]);
    expect((await readSnapshot(getRedis())).divisions).toEqual(["Student", "Open"]);
  });

  it("Settings refuses a bad list beside the field, and a division teams are still in (409)", async () => {
    const admin = await makeUser("admin");
    const bad = await postForm(settingsPage, "/dashboard/settings", admin.id, { intent: "divisions", divisions: "Student\nstudent" });
    expect(bad.init.status).toBe(400);
    expect(bad.data.result?.error.divisions).toEqual([dm.duplicate("student", "Student")]);

    const team = await makeTeam();
    await setTeamDivision(testAdmin, team.id, "Open");
    const inUse = await postForm(settingsPage, "/dashboard/settings", admin.id, { intent: "divisions", divisions: "Student" });
    expect(inUse.init.status).toBe(409);
    expect(inUse.data.result?.error.divisions).toEqual([messages.dashboard.warn(dm.inUse("Open", 1))]);
    expect(await readDivisions()).toEqual(["Student", "Open"]);

    // Moved out, it can go; then it comes back (the other tests here use it).
    await setTeamDivision(testAdmin, team.id, null);
    const saved = await postForm(settingsPage, "/dashboard/settings", admin.id, { intent: "divisions", divisions: "Student\n" });
    expect(saved.status).toBe(302);
    expect((await readSnapshot(getRedis())).divisions).toEqual(["Student"]);
    await updateDivisions(testAdmin, ["Student", "Open"]);
  });
});

describe("a team's division", () => {
  it("on the Teams page: chosen from the list when adding or editing; an unknown one refused on the field; a form without the field keeps it", async () => {
    const admin = await makeUser("admin");
    const name = `Owls ${process.pid}`;
    const added = await postForm(teamsPage, "/dashboard/teams", admin.id, { intent: "save", name, division: "Student" });
    expect(added.status).toBe(302);
    const [row] = await getDb().select().from(teams).where(eq(teams.name, name));
    expect(row.division).toBe("Student");

    const refused = await postForm(teamsPage, "/dashboard/teams", admin.id, { intent: "save", id: String(row.id), name, division: "Pro" });
    expect(refused.init.status).toBe(400);
    expect(refused.data.error?.division).toEqual([messages.dashboard.warn(dm.unknown(["Student", "Open"]))]);
    const hostile = await postForm(teamsPage, "/dashboard/teams", admin.id, { intent: "save", id: String(row.id), name, division: "Open\u0000" });
    expect(hostile.init.status).toBe(400);
    expect(hostile.data.error?.division).toEqual([dm.invisible]);

    await postForm(teamsPage, "/dashboard/teams", admin.id, { intent: "save", id: String(row.id), name: `${name} II` });
    const [kept] = await getDb().select().from(teams).where(eq(teams.id, row.id));
    expect(kept).toMatchObject({ name: `${name} II`, division: "Student" });
    // "No division" sends an empty value: out of it.
    await postForm(teamsPage, "/dashboard/teams", admin.id, { intent: "save", id: String(row.id), name: `${name} II`, division: "" });
    const [out] = await getDb().select().from(teams).where(eq(teams.id, row.id));
    expect(out.division).toBeNull();
  });

  it("through the API: POST with one, PUT (any case) and DELETE /teams/{id}/division, listed by GET /teams; refusals say why", async () => {
    const admin = { token: callers.tokens.admin };
    const created = await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: `Api ${process.pid}`, division: "open" } });
    expect(created.status).toBe(201);
    const team = TeamRefSchema.parse(created.body);
    expect(team.division).toBe("Open");

    const path = `/teams/${team.id}/division`;
    const params = { id: String(team.id) };
    expect(await send(divisionRoute, "PUT", path, { ...admin, json: { division: "STUDENT" } }, params)).toMatchObject({ status: 200, body: { id: team.id, division: "Student" } });
    const listed = z.array(TeamOutSchema).parse((await send(teamsRoute, "GET", "/teams", admin)).body);
    expect(listed.find((row) => row.id === team.id)?.division).toBe("Student");

    const unknown = await send(divisionRoute, "PUT", path, { ...admin, json: { division: "Pro" } }, params);
    expect(unknown).toMatchObject({ status: 400, body: { code: "validation_failed", message: dm.unknown(["Student", "Open"]), fieldErrors: { division: [dm.unknown(["Student", "Open"])] } } });
    const invisible = await send(divisionRoute, "PUT", path, { ...admin, json: { division: "Stu\u200Bdent" } }, params);
    expect(invisible).toMatchObject({ status: 400, body: { fieldErrors: { division: [dm.invisible] } } });
    const missing = await send(divisionRoute, "PUT", path, { ...admin, json: {} }, params);
    expect(missing).toMatchObject({ status: 400, body: { fieldErrors: { division: [dm.required] } } });
    const tooLong = await send(divisionRoute, "PUT", path, { ...admin, json: { division: "x".repeat(41) } }, params);
    expect(tooLong).toMatchObject({ status: 400, body: { fieldErrors: { division: [dm.nameTooLong(40)] } } });

    expect(await send(divisionRoute, "DELETE", path, admin, params)).toMatchObject({ status: 200, body: { division: null } });
    expect((await send(divisionRoute, "PUT", "/teams/999999/division", { ...admin, json: { division: "Open" } }, { id: "999999" })).status).toBe(404);
    expect((await send(divisionRoute, "PUT", path, { token: callers.tokens.participant, json: { division: "Open" } }, params)).status).toBe(403);
  });
});

describe("a team's division in the bulk import", () => {
  it("the `division` column puts the row's team in a division of the list (any case); an unknown one, a staff row with one, or two for a team are refused by row", async () => {
    const stamp = `${process.pid}-${Date.now()}`;
    const existing = await makeTeam(`Kestrels ${stamp}`);
    const header = "name,role,team,password,division";
    const refused = await previewAccountsImport(
      [header, `k1-${stamp},participant,Kestrels ${stamp},,Pro`, `j-${stamp},judge,,,Open`, `n1-${stamp},participant,Newts ${stamp},,open`, `n2-${stamp},participant,Newts ${stamp},,Student`].join("\n"),
    );
    expect(refused.issues).toEqual([
      { row: 2, messages: [`division: ${dm.unknown(["Student", "Open"])}`] },
      { row: 3, messages: [`division: ${dm.staff}`] },
      { row: 5, messages: [`division: ${dm.conflict(`Newts ${stamp}`, "Open", 4)}`] },
    ]);

    const file = [header, `k1-${stamp},participant,KESTRELS ${stamp},,student`, `n1-${stamp},participant,Newts ${stamp},,Open`, `n2-${stamp},participant,Newts ${stamp},,`].join("\n");
    const preview = await previewAccountsImport(file);
    expect(preview.issues).toEqual([]);
    expect(preview.rows.map((row) => row.division)).toEqual(["Student", "Open", null]);
    const done = await importAccounts(testAdmin, file);
    expect(done.ok).toBe(true);
    const rows = await getDb().select({ name: teams.name, division: teams.division }).from(teams).where(inArray(teams.name, [existing.name, `Newts ${stamp}`]));
    expect(Object.fromEntries(rows.map((row) => [row.name, row.division]))).toEqual({ [existing.name]: "Student", [`Newts ${stamp}`]: "Open" });
    const [record] = await getDb().select().from(auditLog).where(eq(auditLog.kind, "import.accounts")).orderBy(desc(auditLog.id)).limit(1);
    expect((record.after as { divisionsSet: unknown[] }).divisionsSet).toEqual(
      expect.arrayContaining([
        { teamId: existing.id, team: existing.name, before: null, after: "Student" },
        expect.objectContaining({ team: `Newts ${stamp}`, before: null, after: "Open" }),
      ]),
    );
    // Out again: the boards below count their own teams only.
    for (const row of await getDb().select({ id: teams.id }).from(teams).where(inArray(teams.name, [existing.name, `Newts ${stamp}`]))) await setTeamDivision(testAdmin, row.id, null);
  });
});

describe("each division's board", () => {
  // Student: s1 (100 + an award of 20 = 120, reached last), s2 (120, reached first), s3 (0). Open: o1 (50).
  // n1 has no division (300): first overall, on no division's board.
  let s1: { id: number }, s2: { id: number }, s3: { id: number }, o1: { id: number }, n1: { id: number };
  let s3Member: { id: number };
  let s3Submission: { id: number };
  const judge = () => actorFor(callers.users.judge.id);

  async function scoreAndPlace(submissionId: number, teamId: number, value: string) {
    await scoreSubmission({ submissionId, judge: judge(), score: value });
    await recomputeTeamStanding(teamId);
  }

  beforeAll(async () => {
    [s1, s2, s3, o1, n1] = [await makeTeam(), await makeTeam(), await makeTeam(), await makeTeam(), await makeTeam()];
    s3Member = await makeUser("participant", s3.id);
    const challenge = await makeChallenge({ points: 500 });
    const subs = await Promise.all([s1, s2, s3, o1, n1].map((team) => makeSubmission(team.id, challenge.id, null)));
    s3Submission = subs[2];
    await rebuildStandings();
    for (const [team, division] of [[s1, "Student"], [s2, "Student"], [s3, "Student"], [o1, "Open"]] as const) {
      await setTeamDivision(testAdmin, team.id, division);
      await recomputeTeamStanding(team.id);
    }
    await scoreAndPlace(subs[1].id, s2.id, "120");
    await scoreAndPlace(subs[0].id, s1.id, "100");
    await giveAward(testAdmin, { teamId: s1.id, points: "20", reason: "Best talk" });
    await recomputeTeamStanding(s1.id);
    await scoreAndPlace(subs[3].id, o1.id, "50");
    await scoreAndPlace(subs[4].id, n1.id, "300");
  });

  afterAll(async () => {
    await setScoreboardFrozen(testAdmin, false);
  });

  const feed = (token: string, division?: string, headers: Record<string, string> = {}) =>
    call(scoreboardRoute, apiRequest("GET", `/scoreboard${division === undefined ? "" : `?division=${encodeURIComponent(division)}`}`, { token, headers }));
  const ours = (board: z.infer<typeof ScoreboardSchema>) => board.teams.filter((team) => [s1.id, s2.id, s3.id, o1.id, n1.id].includes(team.id));

  it("the feed's division board: only its teams, ranks 1..n by the overall rule (a tie to who reached it first; the award counts)", async () => {
    const student = ScoreboardSchema.parse(await (await feed(callers.tokens.participant, "Student")).json());
    expect(student).toMatchObject({ division: "Student", divisions: ["Student", "Open"] });
    expect(student.teams.map((team) => [team.id, team.rank, team.totalScore])).toEqual([
      [s2.id, 1, 120],
      [s1.id, 2, 120],
      [s3.id, 3, 0],
    ]);
    const open = ScoreboardSchema.parse(await (await feed(callers.tokens.participant, "open")).json());
    expect(open.division).toBe("Open");
    expect(open.teams.map((team) => [team.id, team.rank])).toEqual([[o1.id, 1]]);

    // The overall board keeps everyone, n1 (no division) first, in the same relative order.
    const overall = ScoreboardSchema.parse(await (await feed(callers.tokens.participant)).json());
    expect(overall.division).toBeNull();
    expect(ours(overall).map((team) => team.id)).toEqual([n1.id, s2.id, s1.id, o1.id, s3.id]);
  });

  it("each board has its own ETag (304 while unchanged); an unknown division is a 400 naming the list", async () => {
    const student = await feed(callers.tokens.admin, "Student");
    const open = await feed(callers.tokens.admin, "Open");
    const overall = await feed(callers.tokens.admin);
    const tags = [student, open, overall].map((answer) => answer.headers.get("ETag"));
    expect(new Set(tags).size).toBe(3);
    expect((await feed(callers.tokens.admin, "Student", { "If-None-Match": tags[0]! })).status).toBe(304);
    expect((await feed(callers.tokens.admin, "Open", { "If-None-Match": tags[0]! })).status).toBe(200);

    const unknown = await feed(callers.tokens.admin, "Pro<script>");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: "validation_failed", message: dm.unknown(["Student", "Open"]) });
  });

  it("the scoreboard page's loader: the division's teams, its name and the list; an unknown name is said, with every team", async () => {
    const cookie = await sessionCookie(s3Member.id);
    const load = async (query: string) =>
      (await scoreboardPage({ request: new Request(`http://localhost/scoreboard${query}`, { headers: { Cookie: cookie } }), params: {}, context: {} })) as {
        teamsJson: string;
        division: string | null;
        divisions: string[];
        unknown: string | null;
      };
    const student = await load("?division=student");
    expect(student).toMatchObject({ division: "Student", divisions: ["Student", "Open"], unknown: null });
    expect((JSON.parse(student.teamsJson) as Array<{ id: number; rank: number }>).map((team) => [team.id, team.rank])).toEqual([
      [s2.id, 1],
      [s1.id, 2],
      [s3.id, 3],
    ]);
    const unknown = await load(`?division=${encodeURIComponent("x".repeat(500))}`);
    expect(unknown).toMatchObject({ division: null, unknown: "x".repeat(40) });
    expect((JSON.parse(unknown.teamsJson) as unknown[]).length).toBeGreaterThanOrEqual(5);
  });

  it("frozen: a participant's division board shows the frozen figures (their own team live at its frozen place); admins see it live", async () => {
    await setScoreboardFrozen(testAdmin, true);
    try {
      await scoreAndPlace(s3Submission.id, s3.id, "400");
      const outsider = ScoreboardSchema.parse(await (await feed(callers.tokens.participant, "Student")).json());
      expect(outsider.teams.map((team) => [team.id, team.rank, team.totalScore])).toEqual([
        [s2.id, 1, 120],
        [s1.id, 2, 120],
        [s3.id, 3, 0],
      ]);
      const cookie = await sessionCookie(s3Member.id);
      const own = ScoreboardSchema.parse(await (await call(scoreboardRoute, apiRequest("GET", "/scoreboard?division=Student", { cookie }))).json());
      expect(own.teams.map((team) => [team.id, team.rank, team.totalScore])).toEqual([
        [s2.id, 1, 120],
        [s1.id, 2, 120],
        [s3.id, 3, 400],
      ]);
      const live = ScoreboardSchema.parse(await (await feed(callers.tokens.admin, "Student")).json());
      expect(live.teams.map((team) => [team.id, team.rank])).toEqual([
        [s3.id, 1],
        [s2.id, 2],
        [s1.id, 3],
      ]);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
  });
});
