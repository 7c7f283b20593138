import { z } from "zod";

/**
 * Every queue, its name and its payload schema: the one module that producers (web) and workers
 * both import, so a payload is validated on both sides of Redis.
 */
export const queues = {
  /** Recomputes one team's standings from Postgres (see app/modules/standings). */
  standings: {
    name: "standings",
    payload: z.object({ teamId: z.number().int().positive() }),
  },
  /**
   * Recomputes every solver of a dynamic challenge whose value fell, together, published as one event
   * (app/modules/flags/dynamic-solvers.server.ts): a job per solve, naming the count it made; one whose count is
   * already recomputed ends at once.
   */
  standingsBatch: {
    name: "standings-batch",
    payload: z.object({
      challengeId: z.number().int().positive(),
      solves: z.number().int().positive(),
    }),
  },
  /** Deletes a stored object that nothing points at any more (a replaced file, a removed attachment). */
  storageCleanup: {
    name: "storage-cleanup",
    payload: z.object({ key: z.string().min(1).max(512) }),
  },
  /**
   * Posts a first blood (or an admin's test message) to the organisers' chat (app/modules/webhooks). The job
   * carries the event only: the URL and the secret are read from the settings at delivery, never kept in Redis.
   */
  firstBloodWebhook: {
    name: "first-blood-webhook",
    payload: z.discriminatedUnion("kind", [
      z.object({
        kind: z.literal("first-blood"),
        challengeId: z.number().int().positive(),
        challengeTitle: z.string().max(500),
        category: z.enum(["AI", "CS", "PS", "GD"]),
        points: z.number().int(),
        teamId: z.number().int().positive(),
        teamName: z.string().max(500),
        solvedAt: z.iso.datetime(),
      }),
      z.object({ kind: z.literal("test"), requestedAt: z.iso.datetime() }),
    ]),
    // A chat that is down for a few minutes still gets the post: 6 tries over about half a minute and more.
    jobOptions: { attempts: 6, backoff: { type: "exponential", delay: 1000 } },
  },
  /**
   * Mail (app/modules/mail): `send` one mail of the `mails` table (its row says to whom and what; a link is
   * made at the send, never carried here); `reset-request` resolves a forgotten-password request, queued
   * whether or not an account has the address (so the answer's timing tells nothing), into a `send`.
   */
  mail: {
    name: "mail",
    payload: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("send"), mailId: z.number().int().positive() }),
      z.object({ kind: z.literal("reset-request"), address: z.string().min(3).max(254) }),
    ]),
    // A provider that is down for a while still gets the mail: 6 tries over about 5 minutes, then it is shown failed.
    jobOptions: { attempts: 6, backoff: { type: "exponential", delay: 10_000 } },
  },
  /**
   * Integrity signals (app/modules/integrity, docs/decisions/045-integrity-signals.md): `version` fingerprints a
   * submission's newest version and compares it with the earlier versions of other teams found by band key;
   * `sign-in` checks one sign-in's browser and account against the thresholds.
   */
  integrity: {
    name: "integrity",
    payload: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("version"), submissionId: z.number().int().positive() }),
      z.object({ kind: z.literal("sign-in"), signInId: z.number().int().positive() }),
    ]),
  },
  /** Scores a team's predictions file against its challenge's labels (app/modules/predictions/scoring.server.ts). */
  predictions: {
    name: "predictions",
    payload: z.object({ submissionId: z.number().int().positive() }),
  },
  /**
   * Judges one code run against its challenge's hidden tests (app/modules/code/runner.server.ts), or compiles a
   * challenge's newly saved checker (`checkerOf`, app/modules/code/checker.server.ts): consumed by the runner process
   * only (workers/runner.ts), never by the worker. A judge error (the platform's fault) fails the job, which is
   * tried again after a pause.
   */
  runs: {
    name: "runs",
    payload: z.union([z.object({ runId: z.number().int().positive() }).strict(), z.object({ checkerOf: z.number().int().positive() }).strict()]),
    jobOptions: { attempts: 6, backoff: { type: "exponential", delay: 5000 } },
  },
} as const;

export type QueueKey = keyof typeof queues;
export type QueuePayload<K extends QueueKey> = z.infer<(typeof queues)[K]["payload"]>;

/** Retries with exponential backoff; finished jobs are trimmed, failed ones stay visible for a while. */
export const defaultJobOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: { count: 1000, age: 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
} as const;

/** A queue's own job options over the defaults (its attempts, its backoff). */
export function jobOptionsOf(key: QueueKey): { attempts?: number; backoff?: { type: "exponential"; delay: number } } {
  const entry = queues[key];
  return "jobOptions" in entry ? entry.jobOptions : {};
}
