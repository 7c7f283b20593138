import { Emitter } from "@socket.io/redis-emitter";
import { getLogger } from "./logger.server.ts";
import { getMetrics } from "./metrics.server.ts";
import { createRedis, redisKey } from "./redis.server.ts";

/**
 * Emits Socket.IO events from any process (web actions, workers) to every web process's browsers. In a
 * process with no Socket.IO server of its own (a worker, a script) through Redis: the Redis emitter, whose
 * message every web process's Socket.IO server (Redis adapter, same key) delivers to its browsers. In a web
 * process, through its own Socket.IO server (emitThroughLocalServer): the adapter publishes the same message to the
 * other web processes, then writes it to this process's sockets at once, without the round trip through
 * Redis (docs/performance-log.md, "The live path near its floor"). Nothing hand-rolled. Infrastructure knows
 * no event: the caller names its event catalogue (app/modules/realtime/events.ts) as the type parameter.
 */
// Any event catalogue (socket.io's own constraint: an interface of event names to listener types).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.io's EventsMap is exactly this
export interface EventsMap { [event: string]: any }

/** Rooms to emit to, as Socket.IO's server and the Redis emitter both hand them out. */
export interface Broadcast<Events extends EventsMap> {
  to(room: string | string[]): Broadcast<Events>;
  except(room: string | string[]): Broadcast<Events>;
  emit<Event extends keyof Events & string>(event: Event, ...args: Parameters<Events[Event]>): boolean;
}

/** Socket.IO's server or the Redis emitter: what broadcasts start from. */
export interface Broadcaster<Events extends EventsMap> {
  to(room: string | string[]): Broadcast<Events>;
}

const globalForEmitter = globalThis as typeof globalThis & {
  __gatekeeperEmitter?: Emitter<EventsMap>;
  __gatekeeperEmitterRedis?: ReturnType<typeof createRedis>;
  // On globalThis: server.ts attaches it, and the Remix build has its own copy of this module.
  __gatekeeperLocalServer?: Broadcaster<EventsMap> | null;
};

/**
 * From now on, this process emits through its own Socket.IO server (app/glue/realtime.server.ts, which
 * attaches it to the web process's HTTP server); null: through Redis again (the server closed).
 */
export function emitThroughLocalServer(server: Broadcaster<EventsMap> | null) {
  globalForEmitter.__gatekeeperLocalServer = server && countingEmits(server);
}

export function socketKey(): string {
  return redisKey("socket.io");
}

export function getEmitter<Events extends EventsMap = { [event: string]: (...args: unknown[]) => void }>(): Broadcaster<Events> {
  const local = globalForEmitter.__gatekeeperLocalServer;
  if (local) return local as Broadcaster<Events>;
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
  return globalForEmitter.__gatekeeperEmitter as unknown as Broadcaster<Events>;
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
