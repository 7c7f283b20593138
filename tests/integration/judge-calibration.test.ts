/**
 * The judges' calibration (/dashboard/judges): each judge's scores against the other judges' on the same
 * submissions, in percentage points of each challenge's own points; an outlier is marked, the largest
 * difference comes first and a judge with nothing shared comes last. Who may open it: the authorisation
 * matrix.
 */
import { describe, expect, it } from "vitest";
import { submissionScores } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { calibrate, OUTLIER_MIN_DIFFERENCE, OUTLIER_MIN_SHARED, type JudgeFigures } from "../../app/modules/judging/calibration.server.ts";
import { loader } from "../../app/routes/dashboard.judges.tsx";
import { makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";

const page = async (cookie: string) =>
  loader({ request: new Request("http://localhost/dashboard/judges", { headers: { Cookie: cookie } }), params: {}, context: {} });

/** Scores in points (as a judge types them), stored in hundredths. */
async function score(submissionId: number, judgeId: number | null, points: number) {
  await getDb().insert(submissionScores).values({ submissionId, judgeId, scoreCenti: Math.round(points * 100) });
}

describe("the judges' calibration", () => {
  it("says so when there are no judges yet", async () => {
    const admin = await makeUser("admin");
    const loaded = await page(await sessionCookie(admin.id));
    expect(loaded.judges).toEqual([]);
    expect(loaded.rule).toEqual({ minShared: OUTLIER_MIN_SHARED, minDifference: OUTLIER_MIN_DIFFERENCE });
  });

  it("marks a judge 30 points below the others on 4 shared submissions; a judge with nothing shared comes last", async () => {
    const admin = await makeUser("admin");
    const idleAdmin = await makeUser("admin");
    const fair = [await makeUser("judge"), await makeUser("judge"), await makeUser("judge")];
    const harsh = await makeUser("judge");
    const lonely = await makeUser("judge");
    const idle = await makeUser("judge");
    const teams = await Promise.all([1, 2, 3, 4, 5, 6].map(() => makeTeam()));
    const members = await Promise.all(teams.map((team) => makeUser("participant", team.id)));
    // Percentages are of each challenge's own points: 3 of 10 and 60 of 200 are both 30 points.
    const small = await makeChallenge({ points: 10 });
    const large = await makeChallenge({ points: 200 });
    const answers = await Promise.all(
      [small, large, small, large, large, small].map((challenge, index) => makeSubmission(teams[index].id, challenge.id, members[index].id)),
    );
    // Four shared submissions: the fair judges agree, the harsh one gives 30 % of the points less.
    const shared = [
      { fair: 8, harsh: 5 },
      { fair: 150, harsh: 90 },
      { fair: 6, harsh: 3 },
      { fair: 100, harsh: 40 },
    ];
    for (const [index, { fair: given, harsh: low }] of shared.entries()) {
      for (const judge of fair) await score(answers[index].id, judge.id, given);
      await score(answers[index].id, harsh.id, low);
    }
    // Nobody else scored these: the lonely judge's and the admin's scores have nothing to compare with.
    await score(answers[4].id, lonely.id, 100);
    await score(answers[5].id, admin.id, 7.5);

    const { judges } = await page(await sessionCookie(admin.id));
    const row = (id: number) => judges.find((judge) => judge.id === id);

    // Harsh: 50, 45, 30 and 20 % of the points; each time 30 points below the others' mean.
    expect(row(harsh.id)).toMatchObject({ scored: 4, meanPercent: 36.3, shared: 4, meanDifference: -30, spread: 0, outlier: true });
    // Fair: 80, 75, 60, 50 %; the others' mean includes the harsh score, so each is 10 points above it.
    for (const judge of fair) {
      expect(row(judge.id)).toMatchObject({ scored: 4, meanPercent: 66.3, shared: 4, meanDifference: 10, spread: 0, outlier: false });
    }
    expect(row(lonely.id)).toMatchObject({ role: "judge", scored: 1, meanPercent: 50, shared: 0, meanDifference: null, spread: null, outlier: false });
    expect(row(admin.id)).toMatchObject({ role: "admin", scored: 1, meanPercent: 75, shared: 0, meanDifference: null, outlier: false });
    expect(row(idle.id)).toMatchObject({ scored: 0, meanPercent: null, shared: 0, meanDifference: null, outlier: false });
    // Admins who scored nothing, and participants, are not judges here.
    expect(row(idleAdmin.id)).toBeUndefined();
    expect(members.some((member) => row(member.id))).toBe(false);

    // The largest difference first; the fair judges by name; nothing shared last.
    const byName = (users: Array<{ id: number; name: string }>) => [...users].sort((a, b) => a.name.localeCompare(b.name)).map((user) => user.id);
    expect(judges.map((judge) => judge.id)).toEqual([harsh.id, ...byName(fair), ...byName([lonely, admin, idle])]);
  });

  it("compares a score with every other score of the submission, a deleted judge's too, and spreads differences that vary", async () => {
    const admin = await makeUser("admin");
    const judge = await makeUser("judge");
    const other = await makeUser("judge");
    const challenge = await makeChallenge({ points: 20 });
    const teams = await Promise.all([1, 2, 3].map(() => makeTeam()));
    const answers = await Promise.all(teams.map((team) => makeSubmission(team.id, challenge.id, null)));
    // +4, +2 and 0 points of 20 above the other score: +20, +10 and 0 percentage points.
    await score(answers[0].id, judge.id, 14);
    await score(answers[0].id, other.id, 10);
    await score(answers[1].id, judge.id, 12);
    await score(answers[1].id, other.id, 10);
    await score(answers[2].id, judge.id, 10);
    // A judge since deleted (their score stays, without its judge): still one of the others.
    await score(answers[2].id, null, 10);

    const { judges } = await page(await sessionCookie(admin.id));
    expect(judges.find((row) => row.id === judge.id)).toMatchObject({ scored: 3, shared: 3, meanDifference: 10, spread: 10, outlier: false });
    expect(judges.find((row) => row.id === other.id)).toMatchObject({ scored: 2, shared: 2, meanDifference: -15, spread: 7.1, outlier: false });
  });
});

describe("the outlier rule", () => {
  const figures = (over: Partial<JudgeFigures> & { id: number }): JudgeFigures => ({
    name: `judge ${over.id}`,
    role: "judge",
    scored: 5,
    meanPercent: 50,
    shared: 5,
    meanDifference: 0,
    spread: 0,
    ...over,
  });

  it("needs both enough shared submissions and a large enough difference, either way", () => {
    const judges = calibrate([
      figures({ id: 1, shared: OUTLIER_MIN_SHARED, meanDifference: OUTLIER_MIN_DIFFERENCE }),
      figures({ id: 2, shared: OUTLIER_MIN_SHARED, meanDifference: -OUTLIER_MIN_DIFFERENCE }),
      figures({ id: 3, shared: OUTLIER_MIN_SHARED, meanDifference: OUTLIER_MIN_DIFFERENCE - 0.1 }),
      figures({ id: 4, shared: OUTLIER_MIN_SHARED - 1, meanDifference: -40 }),
      figures({ id: 5, shared: 0, meanDifference: null, spread: null }),
    ]);
    expect(judges.map((judge) => [judge.id, judge.outlier])).toEqual([
      [4, false],
      [1, true],
      [2, true],
      [3, false],
      [5, false],
    ]);
  });
});
