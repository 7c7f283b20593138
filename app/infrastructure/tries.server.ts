/**
 * A budget of tries per key (a client address, a user, a digest of an e-mail address), counted in Redis so every
 * web process shares it: `points` tries in a window of `duration` seconds. The one limiter of the flows that count
 * tries (the invitation codes, "Forgot your password?", registration; docs/domain.md "Errors and limits").
 * Created on first use, under the process's REDIS_PREFIX then.
 */
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { getEnv } from "./env.server.ts";
import { getRedis } from "./redis.server.ts";

export interface TriesBudget {
  points: number;
  duration: number;
}

export interface Tries {
  /** One try for `key`: 0 while the budget holds, else the seconds to wait (at least 1). Redis away: throws. */
  take(key: string): Promise<number>;
  /** Gives `key` a try back (the try failed on our side, not the caller's). */
  giveBack(key: string): Promise<void>;
}

/** A budget of tries, its counters under `<REDIS_PREFIX>:<name>:<key>`. */
export function triesLimiter(name: string, budget: TriesBudget): Tries {
  let limiter: RateLimiterRedis | undefined;
  const get = () => (limiter ??= new RateLimiterRedis({ storeClient: getRedis(), keyPrefix: `${getEnv().REDIS_PREFIX}:${name}`, points: budget.points, duration: budget.duration }));
  return {
    async take(key) {
      try {
        await get().consume(key);
        return 0;
      } catch (error) {
        if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw error;
      }
    },
    async giveBack(key) {
      await get().reward(key, 1);
    },
  };
}
