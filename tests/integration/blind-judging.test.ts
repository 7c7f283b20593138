/**
 * Blind judging's one owner (app/modules/judging/blind.server.ts): a list sorted by a name a blind judge
 * may not see goes in submission order, written twice there (rows in hand, and SQL for a list cut into
 * pages). The two must agree, and so must the screens that use each: the API's list (sorted in code) and
 * the dashboard's table (cut into pages in SQL).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventSettings, submissions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { inSubmissionOrder, namesView, submissionOrderSql } from "../../app/modules/judging/blind.server.ts";
import { listSubmissionsSorted } from "../../app/modules/submissions/list.server.ts";
import * as apiList from "../../app/routes/api.v1.submissions.tsx";
import { loader as submissionsTable } from "../../app/routes/dashboard.submissions.tsx";
import { send } from "../support/api.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";

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
