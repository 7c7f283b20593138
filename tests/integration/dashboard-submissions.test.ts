import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventSettings, submissions, submissionScores } from "../../db/schema.ts";
import { countSubmissions, listSubmissionsSorted, SUBMISSIONS_PAGE_SIZE } from "../../app/modules/submissions/list.server.ts";
import { loader as submissionsTable } from "../../app/routes/dashboard.submissions.tsx";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";

describe("dashboard submissions: sort and filter in SQL", () => {
  it("sorts by team, points (unscored last) and filters by gate, category, status and my scores", async () => {
    const [zeta, alpha] = [await makeTeam("Zeta"), await makeTeam("alpha")];
    const judge = await makeUser("judge");
    const c1 = await makeChallenge({ wave: 1, category: "AI" });
    const c2 = await makeChallenge({ wave: 2, category: "CS" });
    const s1 = await makeSubmission(zeta.id, c1.id, null);
    const s2 = await makeSubmission(alpha.id, c1.id, null);
    const s3 = await makeSubmission(alpha.id, c2.id, null);
    await getDb().update(submissions).set({ scoreCenti: 5000, status: "reviewed" }).where(eq(submissions.id, s1.id));
    await getDb().update(submissions).set({ scoreCenti: 9000, status: "approved" }).where(eq(submissions.id, s3.id));
    await getDb().insert(submissionScores).values({ submissionId: s1.id, judgeId: judge.id, scoreCenti: 5000 });

    const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
    expect((await listSubmissionsSorted({ sort: "team", dir: "asc" })).map((row) => row.team)).toEqual(["alpha", "alpha", "Zeta"]);
    expect(ids(await listSubmissionsSorted({ sort: "points", dir: "desc" }))).toEqual([s3.id, s1.id, s2.id]);
    expect(ids(await listSubmissionsSorted({ sort: "points", dir: "asc" }))).toEqual([s1.id, s3.id, s2.id]);
    expect(ids(await listSubmissionsSorted({ gate: 2 }))).toEqual([s3.id]);
    expect(ids(await listSubmissionsSorted({ category: "AI", sort: "team", dir: "desc" }))).toEqual([s1.id, s2.id]);
    expect(ids(await listSubmissionsSorted({ status: "reviewed" }))).toEqual([s1.id]);
    expect(ids(await listSubmissionsSorted({ unscoredBy: judge.id, sort: "team" })).sort()).toEqual([s2.id, s3.id].sort());
    const [row] = await listSubmissionsSorted({ status: "reviewed" });
    expect(row.judgeScores).toEqual([{ judgeId: judge.id, judge: judge.name, score: 50, comment: null }]);
  });

  it("the dashboard's list comes a page at a time, in the list's order, with the sort and filters kept", async () => {
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ wave: 4, category: "GD" });
    const count = SUBMISSIONS_PAGE_SIZE + 7;
    // Names run against the order of creation: a name order and the submission order differ.
    for (let index = 0; index < count; index++) await makeSubmission((await makeTeam(`paged-${String(count - index).padStart(3, "0")}`)).id, challenge.id, null);
    const options = { gate: 4, sort: "team", dir: "asc" } as const;
    expect(await countSubmissions(options)).toBe(count);
    const whole = await listSubmissionsSorted(options);
    const second = await listSubmissionsSorted({ ...options, limit: SUBMISSIONS_PAGE_SIZE, offset: SUBMISSIONS_PAGE_SIZE });
    expect(second.map((row) => row.id)).toEqual(whole.slice(SUBMISSIONS_PAGE_SIZE).map((row) => row.id));

    const cookie = await sessionCookie(judge.id);
    const table = async (search: string) =>
      submissionsTable({ request: new Request(`http://localhost/dashboard/submissions${search}`, { headers: { Cookie: cookie } }), params: {}, context: {} });
    const first = await table("?gate=4&sort=team&dir=asc");
    expect(first.rows.map((row) => row.team)).toEqual(whole.slice(0, SUBMISSIONS_PAGE_SIZE).map((row) => row.team));
    expect(first.pages).toEqual({ page: 1, pages: 2, total: count, from: 1, to: SUBMISSIONS_PAGE_SIZE });
    const last = await table("?gate=4&sort=team&dir=asc&page=2");
    expect(last.rows.map((row) => row.team)).toEqual(whole.slice(SUBMISSIONS_PAGE_SIZE).map((row) => row.team));
    expect(last.pages).toMatchObject({ page: 2, from: SUBMISSIONS_PAGE_SIZE + 1, to: count });
    // Past the end (a row scored away, an old link): the last page, not an empty one.
    expect((await table("?gate=4&sort=team&dir=asc&page=9")).pages.page).toBe(2);
    // Nothing typed wrong breaks the list: a page that is not a number is the first.
    expect((await table("?gate=4&page=x")).pages.page).toBe(1);

    // Blind judging: sorted by team, the pages are cut in submission order, so which submissions share a
    // page says nothing of the teams' names (cut by name, page 1 would hold the names first in order).
    await ensureEventSettings();
    await getDb().update(eventSettings).set({ blindJudging: true }).where(eq(eventSettings.id, 1));
    try {
      const oldestFirst = whole.map((row) => row.id).sort((a, b) => a - b);
      const blindFirst = await table("?gate=4&sort=team&dir=asc");
      expect(blindFirst.rows.map((row) => row.id)).toEqual(oldestFirst.slice(0, SUBMISSIONS_PAGE_SIZE));
      expect((await table("?gate=4&sort=team&dir=asc&page=2")).rows.map((row) => row.id)).toEqual(oldestFirst.slice(SUBMISSIONS_PAGE_SIZE));
      expect(JSON.stringify(blindFirst.rows)).not.toContain("paged-");
    } finally {
      await getDb().update(eventSettings).set({ blindJudging: false }).where(eq(eventSettings.id, 1));
    }
  });
});
