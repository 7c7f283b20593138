/**
 * The code runner's consumer (docs/operations.md "Code runners"): a BullMQ worker on the `runs` queue whose
 * concurrency is its sandbox slots, each job judged on a slot of its own (one gk-sandbox-N user, never two
 * programs at once) by app/modules/code/runner.server.ts. A judge error fails the job (BullMQ tries it again after
 * a pause), is logged as an error for the admins, and counted.
 */
import { availableParallelism, hostname } from "node:os";
import { Worker, type Job } from "bullmq";
import { queues } from "../../app/infrastructure/queues.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { getLogger } from "../../app/infrastructure/logger.server.ts";
import { getMetrics } from "../../app/infrastructure/metrics.server.ts";
import { bullPrefix } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import type { SandboxHost, Slot } from "../../app/infrastructure/sandbox/sandbox.server.ts";
import { compileCheckerOf } from "../../app/modules/code/checker.server.ts";
import { JudgeFailure, judgeRun } from "../../app/modules/code/runner.server.ts";

/** The default: the machine's cores less one (one left to the web and the database), at least one. */
export const defaultConcurrency = () => Math.max(1, availableParallelism() - 1);

/** The slots a runner takes: `concurrency` of them from `first`, as many as the machine has. */
export function runnerSlots(host: SandboxHost, first: number, concurrency: number): Slot[] {
  return host.slots.filter((slot) => slot.index >= first).slice(0, concurrency);
}

export function startRunner(host: SandboxHost, options: { concurrency?: number; firstSlot?: number } = {}): Worker {
  const env = getEnv();
  const log = getLogger().child({ process: "runner", pid: process.pid });
  const slots = runnerSlots(host, options.firstSlot ?? env.RUNNER_FIRST_SLOT, options.concurrency ?? env.RUNNER_CONCURRENCY ?? defaultConcurrency());
  if (slots.length === 0) throw new Error("no sandbox slot for this runner (RUNNER_FIRST_SLOT beyond the gk-sandbox-N users)");
  const free = [...slots];
  const metrics = getMetrics();
  const judgeJob = async (job: Job) => {
    const payload = queues.runs.payload.parse(job.data);
    const slot = free.pop();
    // The worker's concurrency is the slots' count: a job always finds one.
    if (!slot) throw new Error("no free sandbox slot");
    const started = Date.now();
    try {
      // A checker just saved: compiled now, so its admins read whether it compiled (app/modules/code/checker.server.ts).
      if ("checkerOf" in payload) {
        try {
          return await compileCheckerOf(payload.checkerOf, host, slot);
        } catch (error) {
          // The sandbox failed while compiling (the checker stays pending): the operators' to see why.
          log.error({ challenge: payload.checkerOf, attempt: job.attemptsMade + 1, slot: slot.user, failure: (error as Error).message }, "checker compile failed: it stays pending");
          throw error;
        }
      }
      // The wait a team saw: from sending its program to a runner first taking it (not a retry, a rejudge, a takeover).
      const outcome = await judgeRun(payload.runId, host, slot, String(job.id), (run) => metrics.runWait().observe(Math.max(0, started - run.createdAt.getTime()) / 1000));
      if (outcome.kind === "judged") {
        metrics.runVerdicts().inc({ verdict: outcome.verdict, language: outcome.language });
        metrics.runDuration().observe({ language: outcome.language }, (Date.now() - started) / 1000);
      }
      return outcome;
    } catch (error) {
      if (error instanceof JudgeFailure && error.counted) {
        metrics.sandboxFailures().inc();
        log.error({ job: job.data as unknown, attempt: job.attemptsMade + 1, slot: slot.user, failure: error.message }, "judge error: the run is queued again");
      } else if (error instanceof JudgeFailure) log.info({ job: job.data as unknown, slot: slot.user }, "runner stopping: the run is queued again");
      throw error;
    } finally {
      free.push(slot);
    }
  };
  const worker = new Worker(queues.runs.name, judgeJob, {
    connection: createRedis("worker"),
    prefix: bullPrefix(),
    concurrency: slots.length,
    name: env.WORKER_NAME ?? `${hostname()}:${process.pid}`,
    // A run is long next to other jobs: its lock is renewed while it runs; a runner that dies leaves it for another.
    lockDuration: 60_000,
  });
  let lastErrorLog = 0;
  worker.on("error", (error) => {
    if (Date.now() - lastErrorLog < 10_000) return;
    lastErrorLog = Date.now();
    log.error({ err: error }, "runner error");
  });
  log.info({ slots: slots.map((slot) => slot.user), cgroups: host.cgroups.version }, "runner started");
  return worker;
}
