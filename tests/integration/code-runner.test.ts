/**
 * Code runs judged by a real runner (workers/processors/runs.ts, the `runs` queue) in the real sandbox, on real
 * Postgres, Redis and S3 (docs/domain.md "Code challenges"): a right Python program accepted, a wrong one rejected,
 * the team's points the best of each subtask over its runs (IOI style), dated at the run that first earned them,
 * in the standings; a judge error (the platform's fault) never a verdict. Skips, saying why, on a machine that
 * cannot sandbox (scripts/lib/ensure.sh ensure_sandbox).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeRuns, standings, teamAnswers } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { bullPrefix, getQueue } from "../../app/infrastructure/queue.server.ts";
import { deleteObject } from "../../app/infrastructure/s3.server.ts";
import { sandboxHost, type SandboxHost } from "../../app/infrastructure/sandbox/sandbox.server.ts";
import { adminCodePost, codePost } from "../../app/glue/code.server.ts";
import { pauseJudging, rejudgeRuns } from "../../app/modules/code/rejudge.server.ts";
import { codePage, judgeErrorAlert, requeueStaleRuns } from "../../app/modules/code/runs.server.ts";
import { getCodeChallenge } from "../../app/modules/code/settings.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { judgeRun } from "../../app/modules/code/runner.server.ts";
import { startRunner } from "../../workers/processors/runs.ts";
import { archiveForm, codeChallenge, post, programForm, SUMS, tarGz } from "../support/code.ts";
import { actorFor, callerOf, ensureEventSettings, ensureTwoOpenGates, makePlayer } from "../support/fixtures.ts";

// This file's own queues: its runner takes none of the runs other test files queue (and they none of its).
process.env.REDIS_PREFIX = `gk-runner-${process.pid}`;

const host = await sandboxHost();
const unavailable = "reason" in host ? host.reason : null;
if (unavailable) console.warn(`code runner tests skipped: ${unavailable}`);

const RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n";
const WRONG = "a, b = map(int, input().split())\nprint(a * b)\n";
/** Right on small sums only (the small subtask: 30 of 100). */
const SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a + b < 1000 else 0)\n";
/** Right on large sums only (the large subtask: 70 of 100). */
const LARGE_ONLY = "a, b = map(int, input().split())\nprint(a + b if a + b >= 1000 else 0)\n";

let runner: Worker | null = null;

beforeAll(async () => {
  expect(bullPrefix()).toBe(`gk-runner-${process.pid}:bull`);
  await ensureEventSettings();
  await ensureTwoOpenGates();
  // The machine's last slot: the sandbox's own tests take the first ones.
  if (!unavailable) runner = startRunner(host as SandboxHost, { concurrency: 1, firstSlot: (host as SandboxHost).slots.at(-1)!.index });
});

afterAll(async () => {
  await runner?.close();
  await closeEmitter();
});

/** Sends a program as the team's member would, and waits for the runner to finish with it (or to fail it). */
async function sendAndWait(user: Parameters<typeof callerOf>[0], challengeId: number, source: string, until: "done" | "failed" = "done") {
  const reply = await codePost(post(`/code/${challengeId}`, programForm("python3", source)), callerOf(user), challengeId, new Date());
  expect(reply).toMatchObject({ ok: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, user.teamId!)).orderBy(codeRuns.id);
    const run = rows.at(-1)!;
    if (until === "done" ? run.state === "done" : run.failure !== null) return run;
    if (Date.now() > deadline) throw new Error(`run ${run.id} still ${run.state} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function totalOf(teamId: number) {
  await recomputeTeamStanding(teamId);
  const [row] = await getDb().select({ total: standings.totalCenti }).from(standings).where(eq(standings.teamId, teamId));
  return row?.total ?? 0;
}

describe.skipIf(unavailable !== null)("code runs judged by a real runner", () => {
  it("accepts a right Python program with every test's time and memory, and counts its points in the standings", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const run = await sendAndWait(user, challenge.id, RIGHT);
    expect(run).toMatchObject({ state: "done", verdict: "accepted", pointsCenti: 10_000, failures: 0 });
    expect(run.passedSubtasks.sort()).toEqual(["large", "small"]);
    const tests = run.tests as Array<{ verdict: string; timeMs: number; memoryBytes: number }>;
    expect(tests.map((test) => test.verdict)).toEqual(["accepted", "accepted", "accepted"]);
    expect(tests.every((test) => test.memoryBytes > 0)).toBe(true);
    expect(await totalOf(team.id)).toBe(10_000);
    // The team's page: the verdict and the points, never a test's contents.
    const page = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(page.pointsCenti).toBe(10_000);
    expect(page.runs[0]).toMatchObject({ state: "done", verdict: "accepted" });
    expect(JSON.stringify(page)).not.toContain("4000000000");
  });

  it("rejects a wrong program as a wrong answer, stopping each subtask at its first failing test, for no points", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const run = await sendAndWait(user, challenge.id, WRONG);
    expect(run).toMatchObject({ verdict: "wrong-answer", pointsCenti: 0, passedSubtasks: [] });
    // large: 1 test; small: its first fails, its second is not run.
    expect((run.tests as Array<{ verdict: string }>).map((test) => test.verdict)).toEqual(["wrong-answer", "wrong-answer", "skipped"]);
    expect(await totalOf(team.id)).toBe(0);
  });

  it("scores IOI style: the best of each subtask over all runs, reached at the run that first passed the last of them", async () => {
    const { challenge } = await codeChallenge(200);
    const { team, user } = await makePlayer();
    const first = await sendAndWait(user, challenge.id, SMALL_ONLY);
    expect(first).toMatchObject({ verdict: "wrong-answer", pointsCenti: 6000, passedSubtasks: ["small"] });
    expect(await totalOf(team.id)).toBe(6000);
    const second = await sendAndWait(user, challenge.id, LARGE_ONLY);
    expect(second).toMatchObject({ verdict: "wrong-answer", pointsCenti: 14_000, passedSubtasks: ["large"] });
    // No run passed everything, yet the team has every subtask: all 200 points.
    expect(await totalOf(team.id)).toBe(20_000);
    const reached = async () => (await getDb().select({ at: teamAnswers.scoredAt }).from(teamAnswers).where(and(eq(teamAnswers.teamId, team.id), eq(teamAnswers.challengeId, challenge.id))))[0]!.at;
    expect(await reached()).toEqual(second.createdAt);
    // A later run passing everything again moves neither the points nor when they were reached.
    const third = await sendAndWait(user, challenge.id, RIGHT);
    expect(third).toMatchObject({ verdict: "accepted", pointsCenti: 20_000 });
    expect(await totalOf(team.id)).toBe(20_000);
    expect(await reached()).toEqual(second.createdAt);
  });

  it("gives no verdict for a judge error (its tests gone from storage): the run waits, queued again, its failure kept for the admins", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    await deleteObject((await getCodeChallenge(challenge.id))!.testsKey!);
    const run = await sendAndWait(user, challenge.id, RIGHT, "failed");
    expect(run.verdict).toBeNull();
    expect(["queued", "compiling"]).toContain(run.state);
    expect(run.failure).toMatch(/tests unreadable/);
    expect(await totalOf(team.id)).toBe(0);
    // The admins are alerted: their dashboard's banner names the challenge (docs/domain.md "Code challenges").
    expect((await judgeErrorAlert("en", 1000)).challenges.find((row) => row.id === challenge.id)).toMatchObject({ runs: 1 });
    const page = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(JSON.stringify(page)).not.toContain("unreadable");
  });

  it("never takes a run judged or being judged (a second job for it is skipped, the run untouched), and takes over one whose runner went silent", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const base = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: RIGHT };
    const [judged, beingJudged, silent] = await getDb()
      .insert(codeRuns)
      .values([
        { ...base, state: "done" as const, verdict: "wrong-answer" as const, pointsCenti: 0, finishedAt: new Date() },
        { ...base, state: "running" as const, testIndex: 2, testCount: 3, aliveAt: new Date() },
        { ...base, state: "compiling" as const, aliveAt: new Date(Date.now() - 5 * 60_000) },
      ])
      .returning();
    // A slot no other file judges on at the same time (of 8: the drill's 0 and 3, code-judge's 1, code-checker's 2 and
    // 6, the e2e server's runner's 4, this file's runner's 7).
    const slot = (host as SandboxHost).slots.at(-3)!;
    const claimed: number[] = [];
    const onClaimed = () => claimed.push(1);
    expect(await judgeRun(judged.id, host as SandboxHost, slot, "second-job", onClaimed)).toEqual({ kind: "skipped" });
    expect(await judgeRun(beingJudged.id, host as SandboxHost, slot, "second-job", onClaimed)).toEqual({ kind: "skipped" });
    expect(claimed).toEqual([]);
    const [judgedNow, beingJudgedNow] = await Promise.all([judged, beingJudged].map(async (run) => (await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id)))[0]));
    expect(judgedNow).toMatchObject({ state: "done", verdict: "wrong-answer" });
    expect(beingJudgedNow).toMatchObject({ state: "running", testIndex: 2 });
    // Its runner silent for five minutes: gone; this runner takes it over and judges it.
    expect(await judgeRun(silent.id, host as SandboxHost, slot, "second-job", onClaimed)).toMatchObject({ kind: "judged", verdict: "accepted" });
    expect(claimed).toEqual([1]);
    // The job that took a run, handed out again (its runner died) or retried, takes it back at once; not its first taking.
    await getDb().update(codeRuns).set({ state: "running", aliveAt: new Date(), claimedBy: "job-7" }).where(eq(codeRuns.id, beingJudged.id));
    expect(await judgeRun(beingJudged.id, host as SandboxHost, slot, "job-7", onClaimed)).toMatchObject({ kind: "judged", verdict: "accepted" });
    expect(claimed).toEqual([1]);
  });

  it("leaves a run alone once another runner has taken it over: the first one's progress and verdict change nothing", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    // Slow enough to be taken over while its tests run.
    const slow = `import time\ntime.sleep(0.3)\n${RIGHT}`;
    const [run] = await getDb().insert(codeRuns).values({ teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: slow }).returning();
    const judging = judgeRun(run.id, host as SandboxHost, (host as SandboxHost).slots.at(-3)!, "first-job");
    // Once this runner has taken it (its tests then take a second at least), another runner takes it, as a second taking
    // does (its runner silent, or its job handed out again while it was only slow).
    await expect.poll(async () => (await getDb().select({ token: codeRuns.claimToken }).from(codeRuns).where(eq(codeRuns.id, run.id)))[0].token, { timeout: 30_000, interval: 20 }).not.toBeNull();
    await getDb().update(codeRuns).set({ state: "compiling", claimedBy: "second-job", claimToken: "second-taking", testIndex: null, testCount: null }).where(eq(codeRuns.id, run.id));
    expect(await judging).toEqual({ kind: "skipped" });
    const [after] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id));
    expect(after).toMatchObject({ state: "compiling", verdict: null, testIndex: null, claimedBy: "second-job", claimToken: "second-taking" });
  });

  it("stops judging a run taken over while its tests run, rather than hold its slot to the end for a verdict that would not count", async () => {
    // 40 tests of one subtask, each at least 0.3 s (asleep, whatever the machine's speed): 12 s to judge them all.
    const files: Record<string, string> = { "subtasks.json": JSON.stringify({ all: 100 }) };
    for (let test = 1; test <= 40; test++) Object.assign(files, { [`all/${test}.in`]: "1 2\n", [`all/${test}.out`]: "3\n" });
    const { challenge } = await codeChallenge(100, files);
    const { team, user } = await makePlayer();
    const slow = `import time\ntime.sleep(0.3)\n${RIGHT}`;
    const [run] = await getDb().insert(codeRuns).values({ teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: slow }).returning();
    const judging = judgeRun(run.id, host as SandboxHost, (host as SandboxHost).slots.at(-3)!, "first-job");
    await expect.poll(async () => (await getDb().select({ index: codeRuns.testIndex }).from(codeRuns).where(eq(codeRuns.id, run.id)))[0].index ?? 0, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(2);
    await getDb().update(codeRuns).set({ state: "compiling", claimedBy: "second-job", claimToken: "second-taking", testIndex: null, testCount: null }).where(eq(codeRuns.id, run.id));
    const takenAt = Date.now();
    expect(await judging).toEqual({ kind: "skipped" });
    // At least 38 tests were left (11.4 s asleep): the runner left after one or two of them.
    expect(Date.now() - takenAt).toBeLessThan(8_000);
    const [after] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id));
    expect(after).toMatchObject({ state: "compiling", verdict: null, testIndex: null, claimToken: "second-taking" });
  });

  it("gives no verdict for a run judged while the runner was stopping (its programs signalled with it): queued again, then judged", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const sandbox = host as SandboxHost;
    sandbox.stopping = true;
    try {
      const run = await sendAndWait(user, challenge.id, RIGHT, "failed");
      expect(run.verdict).toBeNull();
      expect(run.failure).toBe("the runner stopped while judging it");
      // Nobody's fault: no try spent, so no alert for the admins.
      expect(run.failures).toBe(0);
      expect((await judgeErrorAlert("en", 1000)).challenges.map((row) => row.id)).not.toContain(challenge.id);
    } finally {
      sandbox.stopping = false;
    }
    // Judged once a runner takes it again: its job's next try, waiting in the queue. The runs' sweep (the run sent over
    // a minute ago, as if) adds no second job beside it.
    const [queued] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id));
    expect(queued.state).toBe("queued");
    await getDb().update(codeRuns).set({ createdAt: sql`now() - interval '2 minutes'` }).where(eq(codeRuns.id, queued.id));
    await requeueStaleRuns();
    const jobs = await getQueue("runs").getJobs(["waiting", "delayed", "prioritized", "active"]);
    // At most its own (none left if its retry has already judged it on a slow machine), never a second.
    expect(jobs.filter((job) => (job.data as { runId?: number }).runId === queued.id).length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await getDb().select().from(codeRuns).where(eq(codeRuns.id, queued.id)))[0], { timeout: 60_000, interval: 100 }).toMatchObject({ state: "done", verdict: "accepted" });
  });

  it("judges again after the tests are fixed: the team's points follow, still reached at the run's send time", async () => {
    // A wrong expected output in the large subtask: the right program fails it.
    const { challenge, caller, path } = await codeChallenge(100, { ...SUMS, "large/1.out": "4000000001\n" });
    const { team, user } = await makePlayer();
    const run = await sendAndWait(user, challenge.id, RIGHT);
    expect(run).toMatchObject({ verdict: "wrong-answer", pointsCenti: 3000 });
    expect(await totalOf(team.id)).toBe(3000);
    expect(await adminCodePost(post(path, archiveForm(await tarGz(SUMS))), caller, challenge.id)).toMatchObject({ ok: true });
    expect(await rejudgeRuns(actorFor(caller.id, caller.name, "admin"), challenge.id)).toBe(1);
    const deadline = Date.now() + 60_000;
    let again = run;
    while (again.state !== "done" || again.verdict !== "accepted") {
      if (Date.now() > deadline) throw new Error(`run ${run.id} not judged again: ${again.state} ${again.verdict}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      [again] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id));
    }
    expect(again).toMatchObject({ pointsCenti: 10_000, createdAt: run.createdAt });
    expect(await totalOf(team.id)).toBe(10_000);
  });

  it("judges again a run that was being judged when every run was rejudged: never recorded against the outdated tests", async () => {
    const { challenge, caller, path } = await codeChallenge(100, { ...SUMS, "large/1.out": "4000000001\n" });
    const { team, user } = await makePlayer();
    // Right, but slow enough per test (0.4 s asleep, no CPU) to be caught while it runs.
    const slowRight = `import time\ntime.sleep(0.4)\n${RIGHT}`;
    // Packed before: between the run seen running and the rejudge, nothing but the two posts.
    const fixed = archiveForm(await tarGz(SUMS));
    expect(await codePost(post(`/code/${challenge.id}`, programForm("python3", slowRight)), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
    const deadline = Date.now() + 60_000;
    let [run] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id));
    while (run!.state !== "running") {
      if (Date.now() > deadline) throw new Error(`run still ${run!.state}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      [run] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id));
    }
    // The tests fixed and every run rejudged while this one is being judged against the old ones: it counts.
    expect(await adminCodePost(post(path, fixed), caller, challenge.id)).toMatchObject({ ok: true });
    expect(await rejudgeRuns(actorFor(caller.id, caller.name, "admin"), challenge.id)).toBe(1);
    // It was still being judged then: never recorded (a run judged before would be queued again with its verdict).
    const [atRejudge] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run!.id));
    expect(atRejudge!.verdict).toBeNull();
    let again = run!;
    while (again.state !== "done") {
      if (Date.now() > deadline) throw new Error(`run ${again.id} not judged: ${again.state}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      [again] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run!.id));
    }
    expect(again).toMatchObject({ verdict: "accepted", pointsCenti: 10_000, failures: 0 });
    expect(await totalOf(team.id)).toBe(10_000);
  });

  it("starts nothing while judging is paused, and judges the queued runs once resumed", async () => {
    const { challenge } = await codeChallenge(100);
    const { user } = await makePlayer();
    const admin = actorFor(user.id, "admin", "admin");
    expect(await pauseJudging(admin, true)).toBe(true);
    try {
      const reply = await codePost(post(`/code/${challenge.id}`, programForm("python3", RIGHT)), callerOf(user), challenge.id, new Date());
      expect(reply).toMatchObject({ ok: true });
      const [run] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, user.teamId!));
      // Its job waits in the paused queue: no runner may take it.
      const jobs = await getQueue("runs").getJobs(["waiting", "active"]);
      const job = jobs.find((candidate) => (candidate.data as { runId: number }).runId === run.id)!;
      expect(await job.getState()).toBe("waiting");
      expect((await getDb().select({ state: codeRuns.state }).from(codeRuns).where(eq(codeRuns.id, run.id)))[0].state).toBe("queued");
    } finally {
      await pauseJudging(admin, false);
    }
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, user.teamId!));
      if (row.state === "done") {
        expect(row.verdict).toBe("accepted");
        break;
      }
      if (Date.now() > deadline) throw new Error("the queued run was not judged after resuming");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
