import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { submissions, submissionScores } from "../../db/schema.ts";
import { listSubmissionsSorted } from "../../app/modules/submissions/list.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { makeChallenge, makeSubmission, makeTeam, makeUser } from "../support/fixtures.ts";

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
});
