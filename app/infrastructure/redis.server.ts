import { Redis, type RedisOptions } from "ioredis";
import { getEnv } from "./env.server.ts";

/**
 * Redis connections by purpose. BullMQ's production guide: workers need `maxRetriesPerRequest: null`
 * (they block), producers and request-path commands must fail fast when Redis is down (no offline
 * queue), and pub/sub needs a connection of its own.
 */
export type RedisPurpose = "command" | "producer" | "worker" | "subscriber";

const optionsByPurpose: Record<RedisPurpose, RedisOptions> = {
  // Request path: a command waits for the connection at most one reconnect attempt, then fails.
  command: { maxRetriesPerRequest: 1, connectTimeout: 2000 },
  // BullMQ Queue (producer): no offline queue, so `add` fails at once when Redis is down; the
  // standings outbox makes up for it.
  producer: { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 },
  // BullMQ Worker and pub/sub subscribers block: they must wait for Redis, however long.
  worker: { maxRetriesPerRequest: null },
  subscriber: { maxRetriesPerRequest: null },
};

export function createRedis(purpose: RedisPurpose, url = getEnv().REDIS_URL): Redis {
  const options = optionsByPurpose[purpose];
  const redis = new Redis(url, { lazyConnect: false, ...options });
  // A down Redis must not crash the process: readiness and callers report it instead.
  redis.on("error", () => {});
  return redis;
}

const globalForRedis = globalThis as typeof globalThis & { __gatekeeperRedis?: Redis };

/** The shared request-path connection (rate limits, cached reads, readiness). */
export function getRedis(): Redis {
  globalForRedis.__gatekeeperRedis ??= createRedis("command");
  return globalForRedis.__gatekeeperRedis;
}

/** Prefixes a key or channel with the app's namespace (tests give each worker its own). */
export function redisKey(...parts: Array<string | number>): string {
  return [getEnv().REDIS_PREFIX, ...parts].join(":");
}

export async function closeRedis() {
  const redis = globalForRedis.__gatekeeperRedis;
  globalForRedis.__gatekeeperRedis = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
