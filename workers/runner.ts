/**
 * The code runner process (`npm run runner`; docs/operations.md "Code runners"): judges code runs from the `runs`
 * queue in the sandbox (docs/decisions/042-code-sandbox.md). It needs Redis, Postgres and S3 only, holds no
 * state, and starts as root (to switch to its slot users); run one per machine, or several with disjoint
 * RUNNER_FIRST_SLOT. Its concurrency: RUNNER_CONCURRENCY, else the machine's cores less one.
 */
import { setPriority } from "node:os";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeDb } from "../app/infrastructure/db.server.ts";
import { getEnv } from "../app/infrastructure/env.server.ts";
import { getLogger } from "../app/infrastructure/logger.server.ts";
import { gaugeOnScrape, getMetrics, startMetricsServer } from "../app/infrastructure/metrics.server.ts";
import { closeQueues, getQueue } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { closeS3 } from "../app/infrastructure/s3.server.ts";
import { languageVersions } from "../app/infrastructure/sandbox/languages.server.ts";
import { sandboxHost } from "../app/infrastructure/sandbox/sandbox.server.ts";
import { forgetCheckers, removeStaleCheckers } from "../app/modules/code/checker.server.ts";
import { reportLanguageVersions } from "../app/modules/code/runner-languages.server.ts";
import { requeueStaleRuns } from "../app/modules/code/runs.server.ts";
import { startRunner } from "./processors/runs.ts";

/** How often a runner queues again the runs whose job was lost (app/modules/code/runs.server.ts `requeueStaleRuns`). */
const SWEEP_INTERVAL_MS = 30_000;

async function main() {
  const log = getLogger().child({ process: "runner", pid: process.pid });
  getMetrics("runner");
  const env = getEnv();
  // Before any program starts: the runner's own work at this priority, its programs' control group weighted as it
  // (a nice level does not cross control groups: docs/operations.md "Code runners").
  setPriority(env.RUNNER_NICE);
  const host = await sandboxHost(64, env.RUNNER_NICE);
  if ("reason" in host) {
    log.error({ reason: host.reason }, "the runner cannot sandbox programs on this machine");
    process.exit(1);
  }
  const metricsServer = env.METRICS_TOKEN ? await startMetricsServer(env.WORKER_METRICS_PORT) : null;
  if (metricsServer) {
    const STATES = ["waiting", "active", "delayed", "failed"] as const;
    gaugeOnScrape(
      "gatekeeper_run_queue_jobs",
      "Code runs' jobs by state (the same figures from every runner: read one)",
      async () => {
        const counts = await getQueue("runs").getJobCounts(...STATES);
        return STATES.map((state): [Record<"state", string>, number] => [{ state }, counts[state] ?? 0]);
      },
      ["state"],
    );
  }
  // What this machine judges each language with, for the pages (app/modules/code/runner-languages.server.ts).
  try {
    await reportLanguageVersions(languageVersions());
  } catch (error) {
    log.warn({ err: error }, "could not report the languages' versions; the pages keep the last ones reported");
  }
  const stale = removeStaleCheckers();
  if (stale > 0) log.info({ checkers: stale }, "removed the compiled checkers of runners gone");
  const worker = startRunner(host);
  const sweep = async () => {
    try {
      const requeued = await requeueStaleRuns();
      if (requeued > 0) log.info({ runs: requeued }, "re-enqueued code runs");
    } catch (error) {
      log.warn({ err: error }, "runs sweep failed; will retry");
    }
  };
  void sweep();
  const sweepTimer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "runner closing: letting running programs finish");
    setTimeout(() => {
      log.warn("runner close took too long; exiting");
      process.exit(1);
    }, 60_000).unref();
    // Its programs got the same signal: what they answer now is no verdict (app/modules/code/runner.server.ts).
    host.stopping = true;
    clearInterval(sweepTimer);
    metricsServer?.close();
    await worker.close();
    await forgetCheckers();
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    closeS3();
    log.info("runner closed");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

await main();
