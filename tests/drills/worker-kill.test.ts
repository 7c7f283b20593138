/**
 * Drill: a worker is killed (-9) while it holds standings jobs, as a crashed host or an OOM kill would.
 * A judge scores through the real web process; three workers run, and every job is parked inside a
 * worker (the drill holds the teams' locks) when one of them dies. The outbox sweep of the surviving
 * workers re-enqueues the teams whose jobs died with it, the standings end equal to a full rebuild,
 * and no score is lost. In `npm run drills` the drill also waits for BullMQ's stalled-job check to take
 * the dead worker's jobs back and retry them (they then find nothing left to do).
 */
import { afterAll, describe, expect, it } from "vitest";
import { standings, submissionScores } from "../../db/schema.ts";
import { lockTeam } from "../../app/modules/standings/locks.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { expectStandingsMatchRebuild, waitForEmptyOutbox } from "../support/standings.ts";
import { countRows, FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { login, postForm } from "./support/http.ts";
import { fullDrills, recordDrill } from "./support/report.ts";

/** BullMQ's defaults (workers/index.ts sets neither): a dead worker's lock expires, the next check retries. */
const STALLED_RETRY_LIMIT_MS = 90_000;

afterAll(async () => {
  stopAll();
  await closeEmitter();
});

describe("drill: worker killed mid-job", () => {
  it("retries the dead worker's jobs and ends with exact standings and every score", async () => {
    const teamCount = fullDrills ? 24 : 12;
    const event = await seedDrillEvent({ teams: teamCount, judges: 1, challenges: 1, submittedChallenges: 1 });
    const [{ url: web }] = await Promise.all([startWebServer(), startWorker(), startWorker()]);
    const doomed = await startWorker({ WORKER_NAME: "doomed", WORKER_CONCURRENCY: "4" });
    const judge = await login(web, event.judges[0].name, FIXTURE_PASSWORD);
    // A whole snapshot to start from, as on a running event (a job would otherwise rebuild it first).
    await rebuildStandings();
    const scoresBefore = await countRows(submissionScores);

    // Hold every team's lock, so the jobs the scores cause park inside the workers (3 × 4 slots).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = new Promise<void>((locked) => {
      void getDb().transaction(async (tx) => {
        for (const { team } of event.teams) await lockTeam(tx, team.id);
        locked();
        await released;
      });
    });
    await holding;
    const scored = await Promise.all(
      event.submissions.map((submission, index) =>
        postForm(`${web}/dashboard/submissions`, judge, { submissionId: String(submission.id), score: String(10 + index) }),
      ),
    );

    const queue = getQueue("standings");
    let held: string[] = [];
    const deadline = Date.now() + 15_000;
    while (held.length < 4 && Date.now() < deadline) {
      held = (await queue.getActive()).filter((job) => job.processedBy === "doomed").map((job) => String(job.id));
      if (held.length < 4) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    doomed.kill("SIGKILL");
    const killedAt = Date.now();
    release();

    await waitForEmptyOutbox(30_000);
    const recoveredMs = Date.now() - killedAt;
    const expected = await expectStandingsMatchRebuild();
    // The dead worker's jobs are still "active" under its expired-to-be lock: the sweep did the work.
    const heldStates = await Promise.all(held.map(async (id) => (await queue.getJob(id))?.getState()));

    let stalledRetry: { retried: number; skipped: number; ms: number } | undefined;
    if (fullDrills) {
      const retryDeadline = killedAt + STALLED_RETRY_LIMIT_MS;
      let finished: Array<Awaited<ReturnType<typeof queue.getJob>>> = [];
      while (finished.length < held.length && Date.now() < retryDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const jobs = await Promise.all(held.map((id) => queue.getJob(id)));
        finished = jobs.filter((job) => job?.finishedOn && job.processedBy !== "doomed");
      }
      // "skipped": the retried job found no outbox row left, the sweep's job had already done its work.
      const skipped = finished.filter((job) => (job?.returnvalue as { status?: string } | undefined)?.status === "skipped").length;
      stalledRetry = { retried: finished.length, skipped, ms: Date.now() - killedAt };
    }

    const scoresAfter = await countRows(submissionScores);
    const totals = new Map((await getDb().select({ teamId: standings.teamId, totalCenti: standings.totalCenti }).from(standings)).map((row) => [row.teamId, row.totalCenti]));
    const wrongTotals = event.submissions.filter((submission, index) => totals.get(submission.teamId) !== (10 + index) * 100);

    recordDrill({
      drill: "worker-kill",
      faults: 1,
      fault: `worker killed (-9) holding ${held.length} standings jobs; ${teamCount} teams scored through the real web process, 3 workers`,
      observations: [
        `${held.length} jobs held by the killed worker; right after, their state: ${[...new Set(heldStates)].join("/")}`,
        `recovered by the surviving workers' outbox sweep (every 5 s): outbox drained, standings equal a full rebuild (${expected.length} teams)`,
        stalledRetry
          ? `BullMQ's stalled-job check took back and retried ${stalledRetry.retried} of ${held.length} after ${Math.round(stalledRetry.ms / 1000)} s; ${stalledRetry.skipped} found nothing left to do`
          : "BullMQ's stalled-job retry (30 s lock) is waited for in `npm run drills` only",
      ],
      items: [{ what: "judge scores (rows)", before: scoresBefore, added: scored.filter((result) => result.status === 302).length, after: scoresAfter }],
      timings: [
        { what: "standings exact again after the kill", ms: recoveredMs, limitMs: 20_000 },
        ...(stalledRetry ? [{ what: "BullMQ retried the dead worker's jobs", ms: stalledRetry.ms, limitMs: STALLED_RETRY_LIMIT_MS }] : []),
      ],
    });

    expect(held.length).toBeGreaterThanOrEqual(4);
    expect(scored.every((result) => result.status === 302)).toBe(true);
    expect(scoresAfter).toBe(scoresBefore + event.submissions.length);
    expect(wrongTotals).toEqual([]);
    expect(recoveredMs).toBeLessThan(20_000);
    if (stalledRetry) expect(stalledRetry.retried).toBe(held.length);
  });
});
