import { Queue } from "bullmq";
import { within } from "./deadline.ts";
import { defaultJobOptions, jobOptionsOf, queues, type QueueKey, type QueuePayload } from "./queues.ts";
import { getEnv } from "./env.server.ts";
import { createRedis } from "./redis.server.ts";

const globalForQueues = globalThis as typeof globalThis & {
  __gatekeeperQueues?: Map<QueueKey, Queue>;
};

/** BullMQ keys live under `<REDIS_PREFIX>:bull` so that tests and apps sharing a Redis never mix. */
export function bullPrefix(): string {
  return `${getEnv().REDIS_PREFIX}:bull`;
}

export function getQueue(key: QueueKey): Queue {
  globalForQueues.__gatekeeperQueues ??= new Map();
  let queue = globalForQueues.__gatekeeperQueues.get(key);
  if (!queue) {
    // A producer's connection fails fast (no offline queue): a request must not hang on a down Redis.
    queue = new Queue(queues[key].name, {
      connection: createRedis("producer"),
      prefix: bullPrefix(),
      defaultJobOptions: { ...defaultJobOptions, ...jobOptionsOf(key) },
    });
    queue.on("error", () => {});
    globalForQueues.__gatekeeperQueues.set(key, queue);
  }
  return queue;
}

/** How long a producer waits for Redis before giving up (a request must never hang on it). */
const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Validates the payload against the queue's schema, then adds the job. Fails fast when Redis is
 * down: BullMQ would otherwise wait for a first connection for ever.
 */
export async function enqueue<K extends QueueKey>(key: K, payload: QueuePayload<K>, options?: { jobId?: string }) {
  const data = queues[key].payload.parse(payload);
  return within(getQueue(key).add(queues[key].name, data, options), ENQUEUE_TIMEOUT_MS, `Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`);
}

/**
 * Several jobs of one queue in one round trip (BullMQ's addBulk), under the same deadline as one job: a loop
 * of `enqueue` over every team of an import would wait that deadline once a team on a Redis that stopped
 * answering, and send one round trip a team on one that answers.
 */
export async function enqueueMany<K extends QueueKey>(key: K, payloads: readonly QueuePayload<K>[], jobIdOf?: (payload: QueuePayload<K>) => string) {
  if (payloads.length === 0) return [];
  const jobs = payloads.map((payload) => ({ name: queues[key].name, data: queues[key].payload.parse(payload), ...(jobIdOf ? { opts: { jobId: jobIdOf(payload) } } : {}) }));
  return within(getQueue(key).addBulk(jobs), ENQUEUE_TIMEOUT_MS, `Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`);
}

export async function closeQueues() {
  const map = globalForQueues.__gatekeeperQueues;
  globalForQueues.__gatekeeperQueues = undefined;
  if (map) await Promise.all([...map.values()].map((queue) => queue.close().catch(() => {})));
}
