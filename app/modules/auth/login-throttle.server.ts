import { nameKey as nameKeyOf } from "../names/names.ts";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { getEnv } from "../../infrastructure/env.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";

/**
 * Failed logins are counted per (name, IP) and per IP in Redis, so every web process shares the
 * counts. 5 failures for one name from one IP lock that pair for 15 minutes; 50 failures from one IP
 * in an hour lock the IP (a venue's shared NAT stays usable for honest typos).
 */
const limits = {
  nameAndIp: { points: 5, duration: 15 * 60, blockDuration: 15 * 60 },
  ip: { points: 50, duration: 60 * 60, blockDuration: 15 * 60 },
};

let limiters: { nameAndIp: RateLimiterRedis; ip: RateLimiterRedis } | undefined;

function getLimiters() {
  if (!limiters) {
    const prefix = getEnv().REDIS_PREFIX;
    const storeClient = getRedis();
    limiters = {
      nameAndIp: new RateLimiterRedis({ storeClient, keyPrefix: `${prefix}:login-fail-name-ip`, ...limits.nameAndIp }),
      ip: new RateLimiterRedis({ storeClient, keyPrefix: `${prefix}:login-fail-ip`, ...limits.ip }),
    };
  }
  return limiters;
}

// One account, one counter: every spelling that names the same account (case, full width, look-alikes:
// app/modules/names/names.ts) counts against the same key.
const nameKey = (name: string, ip: string) => `${nameKeyOf(name)}_${ip}`;

/** Seconds to wait before another attempt, or 0 when the attempt may go ahead. */
export async function loginRetryAfter(name: string, ip: string): Promise<number> {
  const { nameAndIp, ip: byIp } = getLimiters();
  const [pair, address] = await Promise.all([nameAndIp.get(nameKey(name, ip)), byIp.get(ip)]);
  const blocked = [
    pair && pair.consumedPoints >= limits.nameAndIp.points ? pair.msBeforeNext : 0,
    address && address.consumedPoints >= limits.ip.points ? address.msBeforeNext : 0,
  ];
  return Math.ceil(Math.max(...blocked) / 1000);
}

export async function recordLoginFailure(name: string, ip: string): Promise<void> {
  const { nameAndIp, ip: byIp } = getLimiters();
  await Promise.all(
    [nameAndIp.consume(nameKey(name, ip)), byIp.consume(ip)].map((attempt) =>
      // A rejection only means the limit is now reached; the next attempt is refused by loginRetryAfter.
      attempt.catch((error: unknown) => {
        if (!(error instanceof RateLimiterRes)) throw error;
      }),
    ),
  );
}

export async function clearLoginFailures(name: string, ip: string): Promise<void> {
  await getLimiters().nameAndIp.delete(nameKey(name, ip));
}
