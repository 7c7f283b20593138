/**
 * The worker process: one BullMQ Worker per queue. Run it N times side by side to scale
 * (`npm run worker`); each has its own Redis connections, as BullMQ's guide asks.
 */
import { hostname } from "node:os";
import { Worker, type Processor } from "bullmq";
import { queues, type QueueKey } from "../app/infrastructure/queues.ts";
import { outboxBacklog, sweepStaleStandings } from "../app/modules/standings/outbox.server.ts";
import { sweepBehindChallenges } from "../app/modules/flags/dynamic-solvers.server.ts";
import { readLiveSnapshot } from "../app/modules/standings/scoreboard.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { getEnv } from "../app/infrastructure/env.server.ts";
import { getLogger } from "../app/infrastructure/logger.server.ts";
import { counterOnScrape, gaugeOnScrape, getMetrics, startMetricsServer } from "../app/infrastructure/metrics.server.ts";
import { bullPrefix, closeQueues, getQueue } from "../app/infrastructure/queue.server.ts";
import { closeDb, poolStats } from "../app/infrastructure/db.server.ts";
import { closeRedis, createRedis } from "../app/infrastructure/redis.server.ts";
import { closeS3 } from "../app/infrastructure/s3.server.ts";
import { processStandings, processStandingsBatch } from "./processors/standings.ts";
import { processStorageCleanup } from "./processors/storage-cleanup.ts";
import { processFirstBloodWebhook } from "./processors/first-blood-webhook.ts";
import { processMail } from "./processors/mail.ts";
import { processIntegrity } from "./processors/integrity.ts";
import { surfaceFlagSharing } from "../app/modules/integrity/compare.server.ts";
import { pruneSignIns } from "../app/modules/integrity/sign-ins.server.ts";
import { processPredictions } from "./processors/predictions.ts";
import { requeueStalePredictions, revealDueChallenges } from "../app/modules/predictions/predictions.server.ts";
import { closeMail } from "../app/infrastructure/mail.server.ts";
import { sweepQueuedMails } from "../app/modules/mail/mails.server.ts";
import { pruneMailRecords } from "../app/modules/mail/retention.server.ts";
import { readyConnections } from "../app/glue/ready-connections.server.ts";

/** Every queue but the code runs', which the runner process consumes (workers/runner.ts). */
type WorkerQueue = Exclude<QueueKey, "runs">;

const processors: Record<WorkerQueue, Processor> = {
  standings: processStandings,
  standingsBatch: processStandingsBatch,
  storageCleanup: processStorageCleanup,
  firstBloodWebhook: processFirstBloodWebhook,
  mail: processMail,
  integrity: processIntegrity,
  predictions: processPredictions,
};

/** How often each worker re-enqueues teams still marked stale (a score saved while Redis was down). */
const SWEEP_INTERVAL_MS = 5000;
/** How often each worker queues again the mails whose job never reached Redis (app/modules/mail/mails.server.ts). */
const MAIL_SWEEP_INTERVAL_MS = 30_000;
/** How often each worker surfaces new flag-sharing records as signals and prunes the sign-in log (app/modules/integrity). */
const INTEGRITY_SWEEP_INTERVAL_MS = 30_000;
/** How often each worker prunes spent password links, old mails and dead invitations (app/modules/mail/retention.server.ts). */
const PRUNE_INTERVAL_MS = 3_600_000;

export function startWorkers(): Worker[] {
  const env = getEnv();
  const log = getLogger().child({ process: "worker", pid: process.pid });
  return (Object.keys(processors) as WorkerQueue[]).map((key) => {
    const worker = new Worker(queues[key].name, processors[key], {
      connection: createRedis("worker"),
      prefix: bullPrefix(),
      concurrency: env.WORKER_CONCURRENCY,
      name: env.WORKER_NAME ?? `${hostname()}:${process.pid}`,
    });
    const metrics = getMetrics();
    // A job's wait: from when it could first run (created, plus any delay) to a worker first taking it. A
    // retry's wait would count the earlier attempts' run and backoff: not observed.
    worker.on("active", (job) => {
      if (job.processedOn && job.attemptsMade === 0) metrics.jobWait().observe({ queue: job.queueName }, Math.max(0, job.processedOn - job.timestamp - (job.delay ?? 0)) / 1000);
    });
    const ran = (job: { queueName: string; processedOn?: number }, outcome: "completed" | "failed") => {
      if (job.processedOn) metrics.jobDuration().observe({ queue: job.queueName, outcome }, Math.max(0, Date.now() - job.processedOn) / 1000);
    };
    worker.on("completed", (job) => {
      ran(job, "completed");
      log.debug({ queue: job.queueName, jobId: job.id }, "job completed");
    });
    worker.on("failed", (job, error) => {
      if (job) ran(job, "failed");
      log.warn({ queue: job?.queueName, jobId: job?.id, attempts: job?.attemptsMade, err: error }, "job failed");
    });
    // While Redis is down every reconnect attempt fails: say so once every 10 s, not 10 times a second.
    let lastErrorLog = 0;
    worker.on("error", (error) => {
      if (Date.now() - lastErrorLog < 10_000) return;
      lastErrorLog = Date.now();
      log.error({ err: error }, "worker error");
    });
    return worker;
  });
}

/** The series only workers report (docs/operations.md): queues by state, the standings outbox, the pool. */
function workerGauges() {
  const STATES = ["waiting", "active", "delayed", "failed"] as const;
  gaugeOnScrape(
    "gatekeeper_queue_jobs",
    "Jobs in each queue by state (the same figures from every worker: read one, e.g. max by queue and state)",
    async () => {
      const counts = await Promise.all((Object.keys(processors) as WorkerQueue[]).map(async (key) => [key, await getQueue(key).getJobCounts(...STATES)] as const));
      return counts.flatMap(([key, byState]) => STATES.map((state): [Record<"queue" | "state", string>, number] => [{ queue: queues[key].name, state }, byState[state] ?? 0]));
    },
    ["queue", "state"],
  );
  // Both outbox gauges from one read per scrape (they are collected together, within a second).
  let backlog: { at: number; read: ReturnType<typeof outboxBacklog> } | null = null;
  const readBacklog = () => {
    if (!backlog || Date.now() - backlog.at > 1000) backlog = { at: Date.now(), read: outboxBacklog() };
    return backlog.read;
  };
  gaugeOnScrape("gatekeeper_standings_outbox_teams", "Teams whose standings are marked stale and not yet recomputed", async () => (await readBacklog()).teams);
  gaugeOnScrape("gatekeeper_standings_outbox_oldest_seconds", "How long the oldest stale team has waited for its recompute", async () => (await readBacklog()).oldestSeconds);
  gaugeOnScrape("gatekeeper_db_pool_in_use", "Postgres connections of this process's pool busy with a statement or a transaction", () => poolStats().inUse);
  gaugeOnScrape("gatekeeper_db_pool_waiting", "Statements and transactions of this process waiting for a Postgres connection", () => poolStats().waiting);
  counterOnScrape("gatekeeper_db_statements_total", "Statements and transactions this process has sent to Postgres", () => poolStats().sent);
}

async function main() {
  const log = getLogger().child({ process: "worker", pid: process.pid });
  getMetrics("worker");
  const env = getEnv();
  const metricsServer = env.METRICS_TOKEN ? await startMetricsServer(env.WORKER_METRICS_PORT) : null;
  if (metricsServer) workerGauges();
  // The pool's connections opened and the standings batch's statements planned on each before the first job, not in
  // the first burst of jobs (docs/decisions/053-connections-kept-ready.md).
  await readyConnections({ answers: false });
  const workers = startWorkers();

  // Start-up and then every few seconds: catch up on any team whose job never reached the queue.
  // Several workers sweeping at once only enqueue duplicates, which find nothing left to do.
  const sweep = async () => {
    try {
      const swept = await sweepStaleStandings();
      if (swept > 0) log.info({ teams: swept }, "re-enqueued stale standings");
      const behind = await sweepBehindChallenges();
      if (behind > 0) log.info({ challenges: behind }, "re-enqueued dynamic challenges' solvers");
      // Prediction challenges: revealed at the event's final instant; files whose job never reached Redis queued again.
      const revealed = await revealDueChallenges();
      if (revealed > 0) log.info({ challenges: revealed }, "revealed prediction challenges' private scores at the final instant");
      const requeued = await requeueStalePredictions();
      if (requeued > 0) log.info({ files: requeued }, "re-enqueued predictions files");
    } catch (error) {
      log.warn({ err: error }, "standings sweep failed; will retry");
    }
  };
  void readLiveSnapshot().catch((error: unknown) => log.warn({ err: error }, "standings snapshot not ready yet"));
  void sweep();
  const sweepTimer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  const sweepMail = async () => {
    try {
      const queued = await sweepQueuedMails();
      if (queued > 0) log.info({ mails: queued }, "queued mails again");
    } catch (error) {
      log.warn({ err: error }, "mail sweep failed; will retry");
    }
  };
  const mailSweepTimer = setInterval(() => void sweepMail(), MAIL_SWEEP_INTERVAL_MS);
  const sweepIntegrity = async () => {
    try {
      const surfaced = await surfaceFlagSharing();
      if (surfaced > 0) log.info({ signals: surfaced }, "flag sharing surfaced as integrity signals");
      const pruned = await pruneSignIns();
      if (pruned > 0) log.info({ signIns: pruned }, "sign-in log pruned");
    } catch (error) {
      log.warn({ err: error }, "integrity sweep failed; will retry");
    }
  };
  void sweepIntegrity();
  const integritySweepTimer = setInterval(() => void sweepIntegrity(), INTEGRITY_SWEEP_INTERVAL_MS);
  const prune = async () => {
    try {
      const pruned = await pruneMailRecords();
      if (pruned.links + pruned.mails + pruned.invites > 0) log.info(pruned, "pruned spent links, old mails and dead invitations");
    } catch (error) {
      log.warn({ err: error }, "pruning mail records failed; will retry");
    }
  };
  void prune();
  const pruneTimer = setInterval(() => void prune(), PRUNE_INTERVAL_MS);
  const mail = getEnv().mail;
  if ("off" in mail) log.warn({ reason: mail.off }, "mail is off: no SMTP server is configured (SMTP_HOST); set-password links and password resets are not sent");

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "worker closing: letting running jobs finish");
    // A job that never ends must not keep the process alive forever; BullMQ retries it elsewhere.
    setTimeout(() => {
      log.warn("worker close took too long; exiting");
      process.exit(1);
    }, 30_000).unref();
    // close() waits for the jobs in hand; anything not finished is picked up by another worker.
    clearInterval(sweepTimer);
    clearInterval(mailSweepTimer);
    clearInterval(integritySweepTimer);
    clearInterval(pruneTimer);
    metricsServer?.close();
    await Promise.all(workers.map((worker) => worker.close()));
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    closeS3();
    closeMail();
    log.info("worker closed");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  log.info({ queues: workers.map((worker) => worker.name) }, "worker started");
}

await main();
