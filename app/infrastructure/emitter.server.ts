import { Emitter } from "@socket.io/redis-emitter";
import { getLogger } from "./logger.server.ts";
import { getMetrics } from "./metrics.server.ts";
import { createRedis, redisKey } from "./redis.server.ts";

/**
 * Emits Socket.IO events from any process (web actions, workers) through Redis: every web process's
 * Socket.IO server (Redis adapter, same key) delivers them to its browsers. Nothing hand-rolled.
 * Infrastructure knows no event: the caller names its event catalogue (app/modules/realtime/events.ts)
 * as the type parameter.
 */
// Any event catalogue (socket.io's own constraint: an interface of event names to listener types).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.io's EventsMap is exactly this
interface EventsMap { [event: string]: any }
const globalForEmitter = globalThis as typeof globalThis & {
  __gatekeeperEmitter?: Emitter<EventsMap>;
  __gatekeeperEmitterRedis?: ReturnType<typeof createRedis>;
};

export function socketKey(): string {
  return redisKey("socket.io");
}

export function getEmitter<Events extends EventsMap = { [event: string]: (...args: unknown[]) => void }>(): Emitter<Events> {
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
    globalForEmitter.__gatekeeperEmitter = countingEmits(new Emitter<EventsMap>(publisher, { key: socketKey() }));
  }
  return globalForEmitter.__gatekeeperEmitter as unknown as Emitter<Events>;
}

/**
 * The emitter, and every broadcast operator it hands out (`to`, `except`…), counting each `emit` by event
 * name in gatekeeper_live_events_emitted_total.
 */
function countingEmits<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      if (property === "emit") {
        return (event: string, ...args: unknown[]) => {
          getMetrics().eventsEmitted().inc({ event });
          return (value as (...args: unknown[]) => unknown).call(object, event, ...args);
        };
      }
      return (...args: unknown[]) => {
        const result = (value as (...args: unknown[]) => unknown).apply(object, args);
        return result !== null && typeof result === "object" ? countingEmits(result) : result;
      };
    },
  });
}

export async function closeEmitter() {
  const redis = globalForEmitter.__gatekeeperEmitterRedis;
  globalForEmitter.__gatekeeperEmitter = undefined;
  globalForEmitter.__gatekeeperEmitterRedis = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
