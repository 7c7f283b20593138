import { Emitter } from "@socket.io/redis-emitter";
import type { ServerToClientEvents } from "../modules/realtime/events.ts";
import { getLogger } from "./logger.server.ts";
import { createRedis, redisKey } from "./redis.server.ts";

/**
 * Emits Socket.IO events from any process (web actions, workers) through Redis: every web process's
 * Socket.IO server (Redis adapter, same key) delivers them to its browsers. Nothing hand-rolled.
 */
const globalForEmitter = globalThis as typeof globalThis & {
  __gatekeeperEmitter?: Emitter<ServerToClientEvents>;
  __gatekeeperEmitterRedis?: ReturnType<typeof createRedis>;
};

export function socketKey(): string {
  return redisKey("socket.io");
}

export function getEmitter(): Emitter<ServerToClientEvents> {
  if (!globalForEmitter.__gatekeeperEmitter) {
    const redis = createRedis("command");
    globalForEmitter.__gatekeeperEmitterRedis = redis;
    // The emitter publishes without handling a failure. Events are hints (clients re-read their data
    // on reconnect; Postgres is the truth), so a publish lost while Redis is down is logged, not thrown.
    const publisher = {
      publish: (channel: string, message: string | Buffer) =>
        redis.publish(channel, message).catch((error: unknown) => {
          getLogger().warn({ err: error, channel }, "live event not published");
          return 0;
        }),
    };
    globalForEmitter.__gatekeeperEmitter = new Emitter<ServerToClientEvents>(publisher, { key: socketKey() });
  }
  return globalForEmitter.__gatekeeperEmitter;
}

export async function closeEmitter() {
  const redis = globalForEmitter.__gatekeeperEmitterRedis;
  globalForEmitter.__gatekeeperEmitter = undefined;
  globalForEmitter.__gatekeeperEmitterRedis = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
