/**
 * rCTF's world for bench:flags' cost rounds (bench/rctf/rctf.ts), the one /work/rctf-bench/seed.mjs made for the
 * anchor: 1,000 users (teams) of division "open"; 80 static challenges of 100 points (points.min = points.max),
 * flags `flag{c<i>}`; 5,000 solves, each user having solved 5 distinct ones of the first 20, at times spread over
 * the event so far; the other 60 solved by nobody, kept for the right answers (60,000 fresh (user, challenge) pairs,
 * about 40 s of right answers at this machine's rate). Its tables emptied first (TRUNCATE) and its Redis database
 * index emptied (FLUSHDB: its cached board and its limits; never another index).
 *
 * Tokens as a user gets one: a team token made with rCTF's own token code (DIR's dist/server/auth/token.js, the
 * run's tokenKey), exchanged at `POST /api/v1/auth/login {teamToken}` for the authToken the rounds send.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { Redis } from "ioredis";
import postgres from "postgres";
import { random } from "../lib/random.ts";
import type { RctfEnv } from "./rctf.ts";

const USERS = 1000;
/** Solved at seed time (the board has a history), each user 5 of them. */
const SOLVED_AT_SEED = 20;
const SOLVES_PER_USER = 5;
/** Solved by nobody: the right answers' pairs. */
const UNSOLVED = 60;

export interface SeededRctf {
  userIds: string[];
  challenges: Array<{ id: string; flag: string }>;
  solves: number;
}

export interface RctfWorld {
  users: Array<{ id: string; authToken: string }>;
  /** Every challenge, with a wrong flag of the right length (rCTF compares lengths first). */
  wrong: Array<{ id: string; flag: string }>;
  /** The challenges nobody solved, with their flag. */
  correct: Array<{ id: string; flag: string }>;
  seeded: { users: number; challenges: number; solves: number; unsolvedPairs: number };
}

/** rCTF's tables and Redis index, seeded (rCTF not running: it reads its challenges once, at start). */
export async function seedRctf(env: RctfEnv): Promise<SeededRctf> {
  const rand = random(42);
  const users = Array.from({ length: USERS }, (_, i) => ({ id: randomUUID(), name: `team-${i + 1}`, email: `team${i + 1}@bench.invalid`, division: "open", perms: 0 }));
  const challenges = Array.from({ length: SOLVED_AT_SEED + UNSOLVED }, (_, i) => ({
    id: `c${i + 1}`,
    data: {
      name: `Challenge ${i + 1}`,
      description: `Benchmark challenge ${i + 1}.`,
      category: ["web", "pwn", "crypto", "rev", "misc"][i % 5],
      author: "bench",
      files: [],
      points: { min: 100, max: 100 },
      flag: `flag{c${i + 1}}`,
      tiebreakEligible: true,
    },
  }));
  const now = Date.now();
  const solves = users.flatMap((user) => {
    const picked = new Set<number>();
    while (picked.size < SOLVES_PER_USER) picked.add(1 + Math.floor(rand() * SOLVED_AT_SEED));
    return [...picked].map((n) => ({ id: randomUUID(), challengeid: `c${n}`, userid: user.id, createdat: new Date(env.startTime + Math.floor(rand() * (now - 60_000 - env.startTime))) }));
  });

  const sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      await tx`truncate solves, user_members, users, challenges`;
      for (let i = 0; i < users.length; i += 1000) await tx`insert into users ${tx(users.slice(i, i + 1000), "id", "name", "email", "division", "perms")}`;
      await tx`insert into challenges ${tx(
        challenges.map((c) => ({ id: c.id, data: tx.json(c.data) })),
        "id",
        "data",
      )}`;
      for (let i = 0; i < solves.length; i += 1000) await tx`insert into solves ${tx(solves.slice(i, i + 1000), "id", "challengeid", "userid", "createdat")}`;
    });
    for (const table of ["users", "solves", "challenges"]) await sql.unsafe(`vacuum analyze ${table}`);
  } finally {
    await sql.end({ timeout: 5 });
  }

  const redis = new Redis(env.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    if (redis.options.db !== Number(new URL(env.redisUrl).pathname.slice(1)) || !(redis.options.db! > 0)) throw new Error(`bench rCTF: refusing FLUSHDB on Redis database ${redis.options.db}`);
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
  return { userIds: users.map((user) => user.id), challenges: challenges.map((c) => ({ id: c.id, flag: c.data.flag })), solves: solves.length };
}

type TokenModule = { getToken(kind: number, data: string): Promise<string>; tokenKinds: { team: number } };

/**
 * Every user's authToken through rCTF's login (rCTF running), then a check that rCTF lists the seeded challenges
 * (a round on a challenge it has not loaded would only measure its 404).
 */
export async function signInRctf(dir: string, env: RctfEnv, seeded: SeededRctf): Promise<RctfWorld> {
  // rCTF's config is read when its module loads, from RCTF_CONF_PATH: set for that moment only.
  const before = process.env.RCTF_CONF_PATH;
  process.env.RCTF_CONF_PATH = env.confDir;
  let token: TokenModule;
  try {
    token = createRequire(import.meta.url)(path.join(dir, "dist/server/auth/token.js")) as TokenModule;
  } finally {
    if (before === undefined) delete process.env.RCTF_CONF_PATH;
    else process.env.RCTF_CONF_PATH = before;
  }
  const post = async (pathname: string, body: unknown, authToken?: string) => {
    const response = await fetch(`${env.url}${pathname}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", ...(authToken ? { authorization: `Bearer ${authToken}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as { kind: string; data: unknown };
  };
  const users: RctfWorld["users"] = [];
  // Ten at a time: a thousand sign-ins in a few seconds, before any round.
  for (let i = 0; i < seeded.userIds.length; i += 10) {
    users.push(
      ...(await Promise.all(
        seeded.userIds.slice(i, i + 10).map(async (id) => {
          const answer = await post("/api/v1/auth/login", { teamToken: await token.getToken(token.tokenKinds.team, id) });
          if (answer.kind !== "goodLogin") throw new Error(`bench rCTF: sign-in of ${id} failed: ${JSON.stringify(answer)}`);
          return { id, authToken: (answer.data as { authToken: string }).authToken };
        }),
      )),
    );
  }
  for (let tries = 0; ; tries++) {
    const answer = await post("/api/v1/challs", undefined, users[0].authToken);
    const listed = Array.isArray(answer.data) ? answer.data.length : 0;
    if (answer.kind === "goodChallenges" && listed === seeded.challenges.length) break;
    if (tries >= 50) throw new Error(`bench rCTF: it lists ${listed} challenges of ${seeded.challenges.length} (${answer.kind})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    users,
    wrong: seeded.challenges.map((c) => ({ id: c.id, flag: c.flag.replace("{c", "{x") })),
    correct: seeded.challenges.slice(SOLVED_AT_SEED),
    seeded: { users: users.length, challenges: seeded.challenges.length, solves: seeded.solves, unsolvedPairs: users.length * UNSOLVED },
  };
}
