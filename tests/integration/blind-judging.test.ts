/**
 * Blind judging's one owner (app/modules/judging/blind.server.ts): a list sorted by a name a blind judge
 * may not see goes in submission order, written twice there (rows in hand, and SQL for a list cut into
 * pages). The two must agree, and so must the screens that use each: the API's list (sorted in code) and
 * the dashboard's table (cut into pages in SQL). And the API holds it as the pages do: a judge's token gets
 * 403 on the reads of one team, and the blind label, no member, no team id and `file.<ext>` elsewhere.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { codeRuns, eventSettings, submissions } from "../../db/schema.ts";
import { adminCodePage, runFor } from "../../app/modules/code/runs.server.ts";
import { codeChallenge } from "../support/code.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { anonymousTeamName, inSubmissionOrder, namesView, submissionOrderSql } from "../../app/modules/judging/blind.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { listSubmissionsSorted } from "../../app/modules/submissions/list.server.ts";
import * as apiList from "../../app/routes/api.v1.submissions.tsx";
import * as scoreRoute from "../../app/routes/api.v1.submissions.$id.score.tsx";
import * as teamSubmissions from "../../app/routes/api.v1.teams.$id.submissions.tsx";
import * as teamScores from "../../app/routes/api.v1.teams.$id.scores.tsx";
import * as teamAwards from "../../app/routes/api.v1.teams.$id.awards.tsx";
import * as teamChallengeSubmission from "../../app/routes/api.v1.teams.$id.challenges.$challengeId.submission.tsx";
import { loader as submissionsTable } from "../../app/routes/dashboard.submissions.tsx";
import { makeCallers, send } from "../support/api.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, openAllGates, sessionCookie } from "../support/fixtures.ts";

const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);

beforeAll(async () => {
  await ensureEventSettings();
  const challenge = await makeChallenge({ wave: 2 });
  // Team and member names run against the order of creation, and one team sends twice: a name order and
  // the submission order differ every way.
  const teams = [];
  for (const name of ["delta", "Charlie", "bravo", "Alpha"]) teams.push(await makeTeam(`${name}-${process.pid}`));
  const members = [];
  for (const [index, team] of teams.entries()) {
    members.push(await makeUser("participant", team.id, `member-${"cadb"[index]}-${process.pid}`));
    await makeSubmission(team.id, challenge.id, members[index].id);
  }
  await makeSubmission(teams[1].id, (await makeChallenge({ wave: 2 })).id, members[1].id);
});

describe("blind judging's submission order", () => {
  it("is the same in code and in SQL, whatever the sort asked for", async () => {
    const bySql = ids(await getDb().select({ id: submissions.id }).from(submissions).orderBy(...submissionOrderSql));
    expect(bySql.length).toBeGreaterThan(4);
    const names = namesView({ blind: true }, { role: "judge" });
    for (const sort of ["team", "user"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        const byName = await listSubmissionsSorted({ sort, dir });
        expect(ids(byName)).not.toEqual(bySql);
        expect(ids(inSubmissionOrder(byName))).toEqual(bySql);
        expect(ids(names.list(byName, sort))).toEqual(bySql);
        expect(ids(await listSubmissionsSorted({ sort, dir, orderById: names.ordersById(sort) }))).toEqual(bySql);
      }
    }
  });

  it("is what a blind judge gets from the API's list and from the dashboard's table alike", async () => {
    const judge = await makeUser("judge");
    const cookie = await sessionCookie(judge.id);
    await getDb().update(eventSettings).set({ blindJudging: true }).where(eq(eventSettings.id, 1));
    try {
      for (const sort of ["team", "user"]) {
        const api = await send(apiList, "GET", `/submissions?sort=${sort}&dir=desc`, { cookie });
        expect(api.status).toBe(200);
        const table = await submissionsTable({ request: new Request(`http://localhost/dashboard/submissions?sort=${sort}&dir=desc`, { headers: { Cookie: cookie } }), params: {}, context: {} });
        expect(ids(api.body as unknown as Array<{ id: number }>)).toEqual(ids(table.rows));
        expect(ids(table.rows)).toEqual([...ids(table.rows)].sort((a, b) => a - b));
      }
    } finally {
      await getDb().update(eventSettings).set({ blindJudging: false }).where(eq(eventSettings.id, 1));
    }
  });
});

describe("blind judging in the API", () => {
  const setBlind = (blindJudging: boolean) => getDb().update(eventSettings).set({ blindJudging }).where(eq(eventSettings.id, 1));

  it("refuses a judge's token the reads of one team (403 with a sentence), not an admin's, and only while blind", async () => {
    const { team, users, tokens } = await makeCallers();
    await openAllGates();
    const challenge = await makeChallenge({ wave: 1 });
    await makeSubmission(team.id, challenge.id, users.participant.id);
    const reads = [
      [teamSubmissions, `/teams/${team.id}/submissions`, { id: String(team.id) }],
      [teamScores, `/teams/${team.id}/scores`, { id: String(team.id) }],
      [teamAwards, `/teams/${team.id}/awards`, { id: String(team.id) }],
      [teamChallengeSubmission, `/teams/${team.id}/challenges/${challenge.id}/submission`, { id: String(team.id), challengeId: String(challenge.id) }],
    ] as const;
    await setBlind(true);
    try {
      for (const [route, path, params] of reads) {
        const judged = await send(route, "GET", path, { token: tokens.judge }, params);
        expect(judged.status, path).toBe(403);
        expect(judged.body, path).toEqual({ code: "forbidden", message: messages.api.blindTeam });
        const arabic = await send(route, "GET", path, { token: tokens.judge, headers: { "Accept-Language": "ar" } }, params);
        expect(arabic.body?.message, path).not.toBe(messages.api.blindTeam);
        expect((await send(route, "GET", path, { token: tokens.admin }, params)).status, path).toBe(200);
        expect((await send(route, "GET", path, { token: tokens.participant }, params)).status, path).toBe(200);
      }
    } finally {
      await setBlind(false);
    }
    for (const [route, path, params] of reads) expect((await send(route, "GET", path, { token: tokens.judge }, params)).status, path).toBe(200);
  });

  it("sends a blind judge the label, no member, no team id and file.<ext> in the list and the score's answer", async () => {
    const { team, users, tokens } = await makeCallers();
    const challenge = await makeChallenge({ wave: 1 });
    const submission = await makeSubmission(team.id, challenge.id, users.participant.id);
    await getDb().update(submissions).set({ fileKey: `submissions/${process.pid}-blind`, fileName: `${team.name}-answer.PDF` }).where(eq(submissions.id, submission.id));
    await setBlind(true);
    try {
      const list = await send(apiList, "GET", "/submissions", { token: tokens.judge });
      expect(list.status).toBe(200);
      const row = list.body!.find((candidate) => candidate.id === submission.id);
      expect(row).toMatchObject({ teamId: null, team: anonymousTeamName(team.id), user: null, fileName: "file.pdf" });
      expect(JSON.stringify(list.body)).not.toContain(team.name);
      expect(list.body!.every((candidate) => candidate.teamId === null)).toBe(true);
      const scored = await send(scoreRoute, "PUT", `/submissions/${submission.id}/score`, { token: tokens.judge, json: { score: 10 } }, { id: String(submission.id) });
      expect(scored.status).toBe(200);
      expect(scored.body).toMatchObject({ submissionId: submission.id, teamId: null });
      // An admin reads the names and the ids.
      const admin = await send(apiList, "GET", "/submissions", { token: tokens.admin });
      expect(admin.body!.find((candidate) => candidate.id === submission.id)).toMatchObject({ teamId: team.id, team: team.name, user: users.participant.name });
    } finally {
      await setBlind(false);
    }
  });

  it("names a code run's team to a blind judge by its label only, on the runs page and through the API, and to an admin by its name", async () => {
    const { challenge } = await codeChallenge(100);
    const team = await makeTeam();
    const [run] = await getDb().insert(codeRuns).values({ teamId: team.id, challengeId: challenge.id, language: "python3", source: "print(1)" }).returning();
    await setBlind(true);
    try {
      const judged = (await adminCodePage(challenge.id, { role: "judge" }))!.runs.find((row) => row.id === run.id)!;
      expect(judged).toMatchObject({ teamId: 0, teamName: anonymousTeamName(team.id) });
      expect(await runFor(run.id, { role: "judge", teamId: null })).toMatchObject({ team: { id: 0, name: anonymousTeamName(team.id) } });
      expect(JSON.stringify(await adminCodePage(challenge.id, { role: "judge" }))).not.toContain(team.name);
      expect((await adminCodePage(challenge.id, { role: "admin" }))!.runs.find((row) => row.id === run.id)).toMatchObject({ teamId: team.id, teamName: team.name });
    } finally {
      await setBlind(false);
    }
    expect(await runFor(run.id, { role: "judge", teamId: null })).toMatchObject({ team: { id: team.id, name: team.name } });
  });
});
