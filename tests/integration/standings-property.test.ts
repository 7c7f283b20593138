/**
 * Property: whatever judges, admins and players do (scores, verdicts, updates, awards given and revoked, flags
 * solved, static and dynamic points, predictions files scored, chosen and revealed, code runs judged IOI style, rejudged
 * and judged again, and new tests sharing a challenge's points otherwise), in
 * whatever order the standings jobs run (even at once), the
 * incrementally maintained standings, ranks, users' statistics and Redis snapshot equal a full
 * rebuild from submissions, scores and awards. Rebuilds running alongside jobs must neither deadlock nor
 * leave stale rows.
 */
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  challengeFlags,
  challenges,
  codeChallenges,
  codeRuns,
  flagSolveCounts,
  predictionChallenges,
  predictionSubmissions,
  standings,
  standingsOutbox,
  submissions,
  userStatistics,
} from "../../db/schema.ts";
import { choosePredictions, PredictionError, revealPredictions } from "../../app/modules/predictions/predictions.server.ts";
import { rejudgeRuns } from "../../app/modules/code/rejudge.server.ts";
import { saveTests } from "../../app/modules/code/settings.server.ts";
import { recomputeChallengeSolvers } from "../../app/modules/flags/dynamic-solvers.server.ts";
import { FlagError, sendFlag } from "../../app/modules/flags/guess.server.ts";
import { AwardError, giveAward, revokeAward } from "../../app/modules/awards/awards.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { versionMovesStandings } from "../../app/modules/scoring/rules.ts";
import { markStandingsStale } from "../../app/modules/standings/outbox.server.ts";
import { shownOfComputed, whileTeamsLocked } from "../support/standings.ts";
import { recomputeTeamsTogether, recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { computeAllStandings, rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser, actorFor } from "../support/fixtures.ts";

afterAll(() => closeEmitter());

const TEAMS = 4;
const CHALLENGES = [
  { points: 100, category: "AI" as const },
  { points: 150, category: "CS" as const },
  { points: 50, category: "PS" as const },
  { points: 200, category: "GD" as const },
];

/** Flag challenges: static, and dynamic points (500 down to 100 at the 7th solve). */
const FLAGS = [
  { points: 120, category: "CS" as const, scoring: "static" as const, answer: "GK{static}" },
  { points: 500, category: "CS" as const, scoring: "dynamic" as const, minimumPoints: 100, decay: 6, answer: "GK{dynamic}" },
];

const command = fc.oneof(
  fc.record({
    type: fc.constant("score" as const),
    team: fc.nat(TEAMS - 1),
    challenge: fc.nat(CHALLENGES.length - 1),
    judge: fc.nat(1),
    percent: fc.integer({ min: 0, max: 10000 }),
    verdict: fc.option(fc.constantFrom("reviewed" as const, "approved" as const, "rejected" as const), { nil: undefined }),
    // How the score's own request meets its team: free (it recomputes the team itself), locked (its recompute
    // runs elsewhere: the team goes to the queue, left for a later "process"), or while every team's job runs.
    meets: fc.constantFrom("free" as const, "locked" as const, "jobs" as const),
  }),
  fc.record({ type: fc.constant("update" as const), team: fc.nat(TEAMS - 1), challenge: fc.nat(CHALLENGES.length - 1), member: fc.nat(1) }),
  // An admin's award: positive or negative hundredths, with or without a category.
  fc.record({
    type: fc.constant("award" as const),
    team: fc.nat(TEAMS - 1),
    centi: fc.integer({ min: -50_000, max: 50_000 }).filter((centi) => centi !== 0),
    category: fc.option(fc.constantFrom("AI" as const, "CS" as const, "PS" as const, "GD" as const), { nil: undefined }),
  }),
  // Revoking one of the awards given so far (a second revoke of the same one is refused and changes nothing).
  fc.record({ type: fc.constant("revoke" as const), pick: fc.nat() }),
  // The standings jobs: one after another, at once, or several teams in one batch (a dynamic challenge's solvers).
  fc.record({
    type: fc.constant("process" as const),
    order: fc.array(fc.nat(TEAMS - 1), { maxLength: TEAMS }),
    together: fc.boolean(),
    batch: fc.boolean(),
  }),
  // A member sends the right flag: a static flag challenge, or a dynamic one (every earlier solver's points fall).
  // A solve alone, or with every other team's solve of the same flag at once beside the teams' jobs and the
  // challenges' rounds (the web process's batches: app/modules/standings/batcher.server.ts).
  fc.record({ type: fc.constant("solve" as const), team: fc.nat(TEAMS - 1), flag: fc.nat(FLAGS.length - 1), member: fc.nat(1), burst: fc.boolean() }),
  // A team's predictions file scored (as the worker saves it: its scores and the outbox in one transaction).
  fc.record({
    type: fc.constant("predict" as const),
    team: fc.nat(TEAMS - 1),
    member: fc.nat(1),
    publicScore: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)),
    privateScore: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)),
  }),
  // The team chooses one of its files (or its latest again); the admin reveals the private scores.
  fc.record({ type: fc.constant("choose" as const), team: fc.nat(TEAMS - 1), pick: fc.option(fc.nat(), { nil: null }) }),
  fc.record({ type: fc.constant("reveal" as const) }),
  // A team's code run judged (as the runner saves it: the subtasks it passed and the outbox in one transaction).
  fc.record({ type: fc.constant("run" as const), team: fc.nat(TEAMS - 1), member: fc.nat(1), passed: fc.subarray(["small", "medium", "large"]) }),
  // Every judged run rejudged (each keeps its verdict and subtasks while queued), then one of the queued runs judged
  // again with other subtasks; new tests whose subtasks share the points otherwise (every team with runs recomputed).
  fc.record({ type: fc.constant("rejudge" as const) }),
  fc.record({ type: fc.constant("rejudged" as const), pick: fc.nat(), passed: fc.subarray(["small", "medium", "large"]) }),
  fc.record({ type: fc.constant("retest" as const), shares: fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })) }),
  // A full rebuild (an operator's `standings:rebuild`, or a reader after a Redis flush) while jobs run.
  fc.record({ type: fc.constant("rebuild" as const), order: fc.array(fc.nat(TEAMS - 1), { maxLength: TEAMS }) }),
);

async function runPending(teamIds: number[], together: boolean) {
  if (together) await Promise.all(teamIds.map((id) => recomputeTeamStanding(id)));
  else for (const id of teamIds) await recomputeTeamStanding(id);
}

/** What the workers do once the event is quiet: every dynamic challenge's solvers left behind, then every team still marked. */
async function settle() {
  const behind = await getDb().select({ challengeId: flagSolveCounts.challengeId }).from(flagSolveCounts).where(sql`${flagSolveCounts.recomputed} < ${flagSolveCounts.solves}`);
  for (const { challengeId } of behind) await recomputeChallengeSolvers(challengeId);
  const pending = (await getDb().select({ teamId: standingsOutbox.teamId }).from(standingsOutbox)).map((row) => row.teamId);
  await runPending(pending, true);
}

async function expectMatchesRebuild() {
  const db = getDb();
  const expected = await computeAllStandings(db);
  const byTeam = (a: { teamId: number }, b: { teamId: number }) => a.teamId - b.teamId;
  const rows = await db.select().from(standings);
  const stored = rows.map(({ updatedAt: _u, shown: _shown, ...row }) => row).sort(byTeam);
  expect(stored).toEqual(expected.standings.map(({ name: _name, rank: _rank, division: _division, ...row }) => row).sort(byTeam));
  expect(new Map(rows.map((row) => [row.teamId, row.shown]))).toEqual(new Map(expected.standings.map((row) => [row.teamId, shownOfComputed(row)])));
  const storedStats = (await db.select().from(userStatistics)).map(({ updatedAt: _u, ...row }) => row);
  const byUser = new Map(storedStats.map((row) => [row.userId, row]));
  for (const row of expected.userStats) {
    // A user never touched by a recompute has no row yet; that reads as zero everywhere.
    const storedRow = byUser.get(row.userId);
    if (storedRow) expect(storedRow).toEqual(row);
    else expect(row.totalCenti + row.aiSolved + row.csSolved + row.psSolved + row.gdSolved).toBe(0);
  }
  const snapshot = await readSnapshot(getRedis());
  expect(snapshot.board.map((team) => [team.id, team.rank, Math.round(team.totalScore * 100), team.solvedCount])).toEqual(
    expected.standings.map((row) => [row.teamId, row.rank, row.totalCenti, row.solvedCount]),
  );
}

describe("incremental standings", () => {
  it("always agree with a full rebuild", async () => {
    await ensureEventSettings();
    await ensureTwoOpenGates();
    const judges = [await makeUser("judge"), await makeUser("judge")];
    const flagRows: number[] = [];
    for (const { answer, scoring, points, category, ...dynamic } of FLAGS) {
      const challenge = await makeChallenge({ points, category, wave: 1 });
      await getDb()
        .update(challenges)
        .set({ checking: "flag", scoring, ...dynamic })
        .where(eq(challenges.id, challenge.id));
      await getDb().insert(challengeFlags).values({ challengeId: challenge.id, position: 1, kind: "exact", value: answer });
      flagRows.push(challenge.id);
    }
    const admin = await makeUser("admin");
    const challengeRows: Awaited<ReturnType<typeof makeChallenge>>[] = [];
    for (const spec of CHALLENGES) challengeRows.push(await makeChallenge(spec));

    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const teamRows: Awaited<ReturnType<typeof makeTeam>>[] = [];
        const members: number[][] = [];
        for (let index = 0; index < TEAMS; index++) {
          const team = await makeTeam();
          teamRows.push(team);
          members.push([(await makeUser("participant", team.id)).id, (await makeUser("participant", team.id)).id]);
        }
        // A team new to the board is placed by its first recompute; start from a consistent board.
        const ensureSubmission = async (team: number, challenge: number, member: number) => {
          const [row] = await getDb()
            .insert(submissions)
            .values({ teamId: teamRows[team].id, challengeId: challengeRows[challenge].id, userId: members[team][member], text: "x" })
            .onConflictDoUpdate({ target: [submissions.teamId, submissions.challengeId], set: { userId: members[team][member], status: "pending" } })
            .returning();
          return row;
        };
        const given: number[] = [];
        // A prediction challenge of its own each run (a reveal is for good): accuracy, baseline 0.3, target 0.9.
        const predicted = await makeChallenge({ points: 80, category: "AI", wave: 1 });
        await getDb().update(challenges).set({ checking: "metric" }).where(eq(challenges.id, predicted.id));
        await getDb().insert(predictionChallenges).values({ challengeId: predicted.id, metric: "accuracy", baseline: 0.3, target: 0.9, seed: "00".repeat(32) });
        const files: number[][] = teamRows.map(() => []);
        // A code challenge of its own each run: 70 points over shares 1, 1 and 1 (thirds: rounding at stake).
        const coded = await makeChallenge({ points: 70, category: "PS", wave: 1 });
        await getDb().update(challenges).set({ checking: "tests" }).where(eq(challenges.id, coded.id));
        await getDb()
          .insert(codeChallenges)
          .values({ challengeId: coded.id, languages: ["python3"], testsKey: "k", testsName: "t.tar.gz", subtasks: ["small", "medium", "large"].map((name) => ({ name, share: 1, tests: 1 })), totalShare: 3 });
        for (const team of teamRows) {
          await getDb().transaction((tx) => markStandingsStale(tx, team.id));
        }
        await runPending(teamRows.map((t) => t.id), false);

        for (const step of commands) {
          if (step.type === "score") {
            const submission = await ensureSubmission(step.team, step.challenge, 0);
            const points = challengeRows[step.challenge].points;
            const value = ((step.percent / 10000) * points).toFixed(2);
            const score = () => scoreSubmission({ submissionId: submission.id, judge: actorFor(judges[step.judge].id), score: value, verdict: step.verdict });
            if (step.meets === "locked") await whileTeamsLocked([teamRows[step.team].id], score);
            else if (step.meets === "jobs") await Promise.all([score(), runPending(teamRows.map((t) => t.id), true)]);
            else await score();
          } else if (step.type === "update") {
            // A participant updates the submission: pending again, credited to them; the team marked stale only when
            // the version can move the standings, as saveSubmission does (the property checks that rule too).
            await getDb().transaction(async (tx) => {
              const where = and(eq(submissions.teamId, teamRows[step.team].id), eq(submissions.challengeId, challengeRows[step.challenge].id));
              const [before] = await tx.select().from(submissions).where(where).for("update");
              const sender = members[step.team][step.member];
              const [row] = await tx.update(submissions).set({ status: "pending", userId: sender }).where(where).returning();
              if (row && versionMovesStandings(before, sender)) await markStandingsStale(tx, row.teamId);
            });
            // Checked at once: a version that moves the standings must be marked by itself, not by a later step's.
            await settle();
            await expectMatchesRebuild();
          } else if (step.type === "award") {
            const award = await giveAward(actorFor(admin.id, admin.name, "admin"), {
              teamId: teamRows[step.team].id,
              points: (step.centi / 100).toFixed(2),
              category: step.category,
              reason: "property",
            });
            given.push(award.id);
          } else if (step.type === "revoke") {
            if (given.length === 0) continue;
            await revokeAward(actorFor(admin.id, admin.name, "admin"), given[step.pick % given.length]).catch((error: unknown) => {
              if (!(error instanceof AwardError && error.status === 409)) throw error;
            });
          } else if (step.type === "solve") {
            const solve = (team: number) => {
              const userId = members[team][step.member];
              return sendFlag({ actor: actorFor(userId, `member ${userId}`, "participant"), teamId: teamRows[team].id, challengeId: flagRows[step.flag], answer: FLAGS[step.flag].answer }).catch(
                (error: unknown) => {
                  if (!(error instanceof FlagError && error.code === "alreadySolved")) throw error;
                },
              );
            };
            if (!step.burst) await solve(step.team);
            else {
              await Promise.all([
                ...teamRows.map((_, team) => solve(team)),
                runPending(teamRows.map((t) => t.id), true),
                ...flagRows.map((challengeId) => recomputeChallengeSolvers(challengeId)),
              ]);
            }
          } else if (step.type === "predict") {
            const file = await getDb().transaction(async (tx) => {
              const [row] = await tx
                .insert(predictionSubmissions)
                .values({
                  teamId: teamRows[step.team].id,
                  challengeId: predicted.id,
                  userId: members[step.team][step.member],
                  fileKey: "k",
                  fileName: "p.csv",
                  fileSize: 1,
                  day: sql`current_date`,
                  status: "scored",
                  publicScore: step.publicScore,
                  privateScore: step.privateScore,
                  scoredAt: new Date(),
                })
                .returning({ id: predictionSubmissions.id });
              await markStandingsStale(tx, teamRows[step.team].id);
              return row.id;
            });
            files[step.team].push(file);
          } else if (step.type === "choose") {
            const own = files[step.team];
            const pick = step.pick === null || own.length === 0 ? null : own[step.pick % own.length];
            await choosePredictions({ teamId: teamRows[step.team].id }, predicted.id, pick).catch((error: unknown) => {
              if (!(error instanceof PredictionError && error.status === 403)) throw error;
            });
          } else if (step.type === "run") {
            await getDb().transaction(async (tx) => {
              await tx.insert(codeRuns).values({
                teamId: teamRows[step.team].id,
                challengeId: coded.id,
                userId: members[step.team][step.member],
                language: "python3",
                source: "print()",
                state: "done",
                verdict: step.passed.length === 3 ? "accepted" : "wrong-answer",
                passedSubtasks: step.passed,
                finishedAt: new Date(),
              });
              await markStandingsStale(tx, teamRows[step.team].id);
            });
          } else if (step.type === "rejudge") {
            await rejudgeRuns(actorFor(admin.id, admin.name, "admin"), coded.id);
          } else if (step.type === "rejudged") {
            const queued = await getDb().select({ id: codeRuns.id }).from(codeRuns).where(and(eq(codeRuns.challengeId, coded.id), eq(codeRuns.state, "queued"))).orderBy(codeRuns.id);
            if (queued.length === 0) continue;
            const runId = queued[step.pick % queued.length].id;
            // As the runner saves a new judgement: the run's new subtasks and its team's outbox mark in one transaction.
            await getDb().transaction(async (tx) => {
              const [row] = await tx
                .update(codeRuns)
                .set({ state: "done", verdict: step.passed.length === 3 ? "accepted" : "wrong-answer", passedSubtasks: step.passed, finishedAt: new Date() })
                .where(and(eq(codeRuns.id, runId), sql`${codeRuns.state} <> 'done'`))
                .returning({ teamId: codeRuns.teamId });
              if (row) await markStandingsStale(tx, row.teamId);
            });
          } else if (step.type === "retest") {
            // Everything settled first: the check below then sees what the new tests' own marks bring, no earlier step's.
            await settle();
            const subtasks = ["small", "medium", "large"].map((name, index) => ({ name, share: step.shares[index], tests: 1 }));
            await saveTests(actorFor(admin.id, admin.name, "admin"), coded.id, { key: "k", name: "t.tar.gz", subtasks, totalShare: step.shares.reduce((sum, share) => sum + share, 0) });
            // Checked at once: a team whose points the new shares move must be marked by the new tests themselves.
            await settle();
            await expectMatchesRebuild();
          } else if (step.type === "reveal") {
            await revealPredictions(actorFor(admin.id, admin.name, "admin"), predicted.id);
          } else if (step.type === "rebuild") {
            await Promise.all([rebuildStandings(), runPending(step.order.map((index) => teamRows[index].id), true)]);
          } else if (step.batch) {
            const ids = step.order.map((index) => teamRows[index].id);
            // A batch beside single jobs of some of its teams, and beside the dynamic challenges' solvers' jobs.
            await Promise.all([
              recomputeTeamsTogether(ids),
              step.together ? runPending(ids.slice(0, 2), true) : Promise.resolve(),
              ...flagRows.map((challengeId) => recomputeChallengeSolvers(challengeId)),
            ]);
          } else {
            await runPending(step.order.map((index) => teamRows[index].id), step.together);
          }
        }
        await settle();
        await expectMatchesRebuild();
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});
