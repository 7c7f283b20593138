import { nameKey as nameKeyOf } from "../names/names.ts";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { getEnv } from "../../infrastructure/env.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";

/**
 * Failed logins are counted per (name, IP) and per IP in Redis, so every web process shares the
 * counts. 5 failures for one name from one IP lock that pair for 15 minutes; 50 failures from one IP
 * in an hour lock the IP (a venue's shared NAT stays usable for honest typos).
 *
 * Attempts at one account are also counted across every address (three addresses must not give three
 * times the guesses): LOGIN_ACCOUNT_FREE_ATTEMPTS are free, then each attempt must wait for the one
 * before it, LOGIN_ACCOUNT_FIRST_WAIT_SECONDS doubling up to LOGIN_ACCOUNT_MAX_WAIT_SECONDS (5, 10, 20,
 * 40, 60, 60 … s by default): slower guessing, never a lockout. An address the account signed in from
 * successfully before, and a browser that did (its signed known-accounts cookie, app/glue/session.server.ts),
 * pass without that wait, so a rival guessing at the account holds back only a first sign-in from a new
 * network in a new browser (the (name, IP) and IP limits still hold for all: at a venue every team shares
 * one address). A successful sign-in ends the account's run; a run is forgotten
 * 15 minutes after its last attempt. An attempt that could not be checked (Postgres unreachable) gives
 * its turn back (`returnAccountAttempt`).
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

/** Seconds to wait before another attempt at this name from this address, or 0 when the attempt may go ahead. */
export async function loginRetryAfter(name: string, ip: string): Promise<number> {
  const { nameAndIp, ip: byIp } = getLimiters();
  const [pair, address] = await Promise.all([nameAndIp.get(nameKey(name, ip)), byIp.get(ip)]);
  const blocked = [
    pair && pair.consumedPoints >= limits.nameAndIp.points ? pair.msBeforeNext : 0,
    address && address.consumedPoints >= limits.ip.points ? address.msBeforeNext : 0,
  ];
  return Math.ceil(Math.max(...blocked) / 1000);
}

/** A wrong password at this name from this address. */
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

const ACCOUNT_RUN_MS = 15 * 60_000;

/**
 * One attempt at an account from an address it does not know, in one step (two web processes cannot both
 * take the same free moment): the milliseconds still to wait, or 0 after counting the attempt and, past
 * the free ones, starting the wait the next attempt must sit out. KEYS: attempts in the run, the wait.
 * ARGV: free attempts, first wait ms, longest wait ms, how long a run is remembered (ms).
 */
const CLAIM_SCRIPT = `
local waiting = redis.call('PTTL', KEYS[2])
if waiting > 0 then return waiting end
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local free = tonumber(ARGV[1])
if n >= free then
  local wait = tonumber(ARGV[2]) * 2 ^ (n - free)
  if wait > tonumber(ARGV[3]) then wait = tonumber(ARGV[3]) end
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(wait))
end
return 0
`;

type WithClaim = ReturnType<typeof getRedis> & { gkClaimLoginAttempt(attempts: string, wait: string, ...args: string[]): Promise<number> };

function redisWithClaim(): WithClaim {
  const redis = getRedis() as WithClaim;
  if (typeof redis.gkClaimLoginAttempt !== "function") redis.defineCommand("gkClaimLoginAttempt", { numberOfKeys: 2, lua: CLAIM_SCRIPT });
  return redis;
}

function accountKeys(name: string) {
  const base = `${getEnv().REDIS_PREFIX}:login-account:${nameKeyOf(name)}`;
  return { attempts: `${base}:attempts`, wait: `${base}:wait`, known: `${base}:known-addresses` };
}

function accountLimits() {
  const env = getEnv();
  return {
    free: env.LOGIN_ACCOUNT_FREE_ATTEMPTS,
    firstMs: env.LOGIN_ACCOUNT_FIRST_WAIT_SECONDS * 1000,
    maxMs: env.LOGIN_ACCOUNT_MAX_WAIT_SECONDS * 1000,
    knownAddresses: env.LOGIN_KNOWN_ADDRESSES,
    knownForMs: env.LOGIN_KNOWN_ADDRESS_DAYS * 24 * 60 * 60_000,
  };
}

/** Whether the account (any spelling of its name) signed in successfully from this address lately. */
export async function isKnownAddress(name: string, ip: string, now = Date.now()): Promise<boolean> {
  const { knownAddresses, knownForMs } = accountLimits();
  if (knownAddresses === 0) return false;
  const since = await getRedis().zscore(accountKeys(name).known, ip);
  return since !== null && Number(since) > now - knownForMs;
}

/** Seconds this attempt at the account must still wait, or 0 once it is counted (an address it does not know). */
export async function claimAccountAttempt(name: string): Promise<number> {
  const { free, firstMs, maxMs } = accountLimits();
  const keys = accountKeys(name);
  const waitMs = await redisWithClaim().gkClaimLoginAttempt(keys.attempts, keys.wait, String(free), String(firstMs), String(maxMs), String(Math.max(ACCOUNT_RUN_MS, 2 * maxMs)));
  return Math.ceil(waitMs / 1000);
}

/** What an attempt may do: wait `retryAfterSeconds` (for the address, or for the account), or go ahead. */
export interface LoginAttempt {
  retryAfterSeconds: number;
  /** The wait is the account's, across addresses (else the address's own). */
  accountWide: boolean;
  /** The account signed in from this address, or in this browser, before: no wait of the account's. */
  knownAddress: boolean;
  /** The attempt took a turn of the account's run (to give back if its password could not be checked). */
  claimed: boolean;
}

/** Checks one attempt before its password is checked; an attempt that may go ahead is counted for the account. */
export async function checkLoginAttempt(name: string, ip: string, { knownBrowser = false } = {}): Promise<LoginAttempt> {
  const [knownAddress, byAddress] = await Promise.all([knownBrowser || isKnownAddress(name, ip), loginRetryAfter(name, ip)]);
  if (byAddress > 0) return { retryAfterSeconds: byAddress, accountWide: false, knownAddress, claimed: false };
  if (knownAddress) return { retryAfterSeconds: 0, accountWide: false, knownAddress, claimed: false };
  const byAccount = await claimAccountAttempt(name);
  return { retryAfterSeconds: byAccount, accountWide: byAccount > 0, knownAddress, claimed: byAccount === 0 };
}

/**
 * Gives back the turn an attempt took when its password could not be checked (Postgres unreachable): the
 * run's count goes down by one and the wait it started ends, so an outage costs no one a wait afterwards.
 */
const RETURN_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 0
`;

export async function returnAccountAttempt(name: string): Promise<void> {
  const keys = accountKeys(name);
  const redis = getRedis() as ReturnType<typeof getRedis> & { gkReturnLoginAttempt?(attempts: string, wait: string): Promise<number> };
  if (typeof redis.gkReturnLoginAttempt !== "function") redis.defineCommand("gkReturnLoginAttempt", { numberOfKeys: 2, lua: RETURN_SCRIPT });
  await redis.gkReturnLoginAttempt!(keys.attempts, keys.wait);
}

/** A successful sign-in: the pair's failures and the account's run end, and the address is remembered. */
export async function recordLoginSuccess(name: string, ip: string, now = Date.now()): Promise<void> {
  const { knownAddresses, knownForMs } = accountLimits();
  const keys = accountKeys(name);
  const multi = getRedis().multi().del(keys.attempts, keys.wait);
  if (knownAddresses > 0) {
    multi
      .zadd(keys.known, now, ip)
      .zremrangebyscore(keys.known, "-inf", now - knownForMs)
      .zremrangebyrank(keys.known, 0, -(knownAddresses + 1))
      .pexpire(keys.known, knownForMs);
  }
  await Promise.all([multi.exec(), clearLoginFailures(name, ip)]);
}
