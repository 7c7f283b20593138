/**
 * rCTF (github.com/redpwn/rctf at RCTF_COMMIT), the platform Gatekeeper's flag endpoint is compared with
 * (docs/PERFORMANCE.md "Flag answers"), run by bench:flags (`--rctf DIR`) beside ours so that both are measured in
 * the same run: this machine's speed varies by 2–3× between days, so a figure of rCTF's from another day says
 * little about ours today. DIR is a checkout built once by bench/rctf/prepare.sh (bench/rctf/README.md); nothing of
 * rCTF's is copied here, its own built code runs from DIR.
 *
 * Started as its scaling docs describe (docs/content/management/scaling.md): one frontend process (fastify, the
 * API) and one leaderboard process (the board recomputed every 10 s), with NODE_ENV=production and the node flags
 * of its Dockerfile. Its config: bench/rctf/conf.d's templates filled into a temporary conf.d per run (a fresh
 * tokenKey; the bench's Postgres server with a database of rCTF's own, RCTF_DATABASE; the bench's Redis on an index
 * of its own, RCTF_REDIS_DB). Everything else rCTF's defaults, its log too (pino at info, to a file of the run's
 * temporary folder: kept only if a process ended by itself).
 *
 *   node --import tsx bench/rctf/rctf.ts migrate DIR [DATABASE]   (bench/rctf/prepare.sh: create the database, migrate)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type autocannon from "autocannon";
import postgres from "postgres";
import { productionServiceEnv } from "../../scripts/lib/local-services.ts";
import { databaseUrlFor, withAdminConnection } from "../../tests/setup/databases.ts";
import { seedRctf, signInRctf, type RctfWorld } from "./seed.ts";

/** The pinned commit ("Update README.md"): what prepare.sh checks out and the bench refuses to run without. */
export const RCTF_COMMIT = "debc13d43fb7c0e10c6ff49c747afd4882b1871d";
/** rCTF's own database on the bench's Postgres server (prepare.sh migrates "rctf", a copy to try by hand). */
export const RCTF_DATABASE = "rctf_bench";
/** rCTF's own Redis database index (Gatekeeper's keys are on the URL's, under a prefix): FLUSHDB touches only it. */
export const RCTF_REDIS_DB = 6;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DAY_MS = 86_400_000;

/** One run's rCTF settings: where it listens, its database and Redis, its temporary conf.d and logs. */
export interface RctfEnv {
  port: number;
  url: string;
  databaseUrl: string;
  redisUrl: string;
  startTime: number;
  endTime: number;
  /** The run's temporary folder: conf.d/ (holds the tokenKey) and logs/. */
  home: string;
  confDir: string;
}

/**
 * The run's settings from the bench's env (DATABASE_URL's server, REDIS_URL, else the project-local instances)
 * and the templates filled into a temporary conf.d. startTime a day before now, endTime a month after it: the
 * leaderboard process's graph has a day of 30-minute samples, as in the anchor's setup.
 */
export function rctfEnv(port: number, database = RCTF_DATABASE, source: Record<string, string | undefined> = process.env): RctfEnv {
  const redis = new URL(productionServiceEnv(source).REDIS_URL);
  if (redis.pathname.replace("/", "") === String(RCTF_REDIS_DB)) throw new Error(`bench rCTF: REDIS_URL uses database ${RCTF_REDIS_DB}, rCTF's own: change RCTF_REDIS_DB`);
  redis.pathname = `/${RCTF_REDIS_DB}`;
  const startTime = Date.now() - DAY_MS;
  const home = mkdtempSync(path.join(os.tmpdir(), "bench-rctf-"));
  const env: RctfEnv = {
    port,
    url: `http://127.0.0.1:${port}`,
    databaseUrl: databaseUrlFor(database),
    redisUrl: redis.toString(),
    startTime,
    endTime: startTime + 31 * DAY_MS,
    home,
    confDir: path.join(home, "conf.d"),
  };
  const values: Record<string, string> = {
    origin: env.url,
    tokenKey: randomBytes(32).toString("base64"),
    startTime: String(env.startTime),
    endTime: String(env.endTime),
    sql: env.databaseUrl,
    redis: env.redisUrl,
  };
  try {
    mkdirSync(env.confDir);
    mkdirSync(path.join(home, "logs"));
    for (const name of readdirSync(path.join(HERE, "conf.d"))) {
      const text = readFileSync(path.join(HERE, "conf.d", name), "utf8").replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
        if (!(key in values)) throw new Error(`bench rCTF: conf.d/${name} names {{${key}}}, which the bench does not fill`);
        return values[key];
      });
      writeFileSync(path.join(env.confDir, name), text, { mode: 0o600 });
    }
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  return env;
}

/** DIR must be rCTF at the pinned commit, built (prepare.sh): else the bench stops before it starts anything. */
export function checkRctfDir(dir: string): string {
  const head = spawnSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" });
  const commit = head.status === 0 ? head.stdout.trim() : "";
  if (commit !== RCTF_COMMIT) throw new Error(`bench rCTF: ${dir} is not rCTF at ${RCTF_COMMIT} (${commit || "no git checkout"}): run bench/rctf/prepare.sh ${dir}`);
  for (const file of ["dist/server/index.js", "dist/build/index.html"]) {
    if (!existsSync(path.join(dir, file))) throw new Error(`bench rCTF: ${dir} has no ${file}: run bench/rctf/prepare.sh ${dir}`);
  }
  return commit;
}

/** rCTF's processes get only what they need of our environment (no DATABASE_URL etc. of ours to mislead them). */
function processEnv(env: RctfEnv, more: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", RCTF_CONF_PATH: env.confDir, ...more };
}

/** rCTF's server entry with its Dockerfile's node flags (`yarn start`). */
const ENTRY = ["--enable-source-maps", "--unhandled-rejections=strict", "dist/server/index.js"];

function spawnRctf(dir: string, env: RctfEnv, log: string, more: Record<string, string>): ChildProcess {
  const out = openSync(path.join(env.home, "logs", log), "a");
  const child = spawn(process.execPath, ENTRY, { cwd: dir, env: processEnv(env, more), stdio: ["ignore", out, out] });
  closeSync(out);
  return child;
}

const tail = (env: RctfEnv, log: string) => {
  try {
    return readFileSync(path.join(env.home, "logs", log), "utf8").trim().split("\n").slice(-5).join("\n");
  } catch {
    return "";
  }
};

/** Creates rCTF's database if missing and runs its migrations (rCTF's own runner, RCTF_DATABASE_MIGRATE=only). */
export async function migrateRctf(dir: string, env: RctfEnv): Promise<void> {
  const database = new URL(env.databaseUrl).pathname.slice(1);
  await withAdminConnection(async (sql) => {
    const [found] = await sql`select 1 from pg_database where datname = ${database}`;
    if (!found) await sql.unsafe(`create database "${database}"`);
  });
  const child = spawnRctf(dir, env, "migrate.log", { RCTF_DATABASE_MIGRATE: "only" });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bench rCTF: its migrations failed (${code}; ${path.join(env.home, "logs", "migrate.log")}):\n${tail(env, "migrate.log")}`);
}

export interface RctfServer {
  url: string;
  /** Both processes' pids. */
  pids(): number[];
  /** The frontend process (the API): the rounds' "web" group. */
  frontPids(): number[];
  /** The leaderboard process: the rounds' "workers" group. */
  leaderboardPids(): number[];
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
// A bench that crashes (a throw in a load generator's callback) leaves no rCTF behind, as bench/lib/servers.ts.
process.on("exit", () => {
  for (const child of started) child.kill("SIGKILL");
});

/**
 * Starts rCTF's two processes (as /work/rctf-bench's start.sh did) and resolves once its API answers. `stop()`:
 * SIGTERM, SIGKILL after 5 s; the run's folder removed unless a process had ended by itself (its log kept).
 */
export async function startRctf(dir: string, env: RctfEnv): Promise<RctfServer> {
  const front = spawnRctf(dir, env, "front.log", { RCTF_INSTANCE_TYPE: "frontend", PORT: String(env.port) });
  const leaderboard = spawnRctf(dir, env, "leaderboard.log", { RCTF_INSTANCE_TYPE: "leaderboard" });
  let stopping = false;
  let ended = "";
  for (const [child, log] of [
    [front, "front.log"],
    [leaderboard, "leaderboard.log"],
  ] as const) {
    started.add(child);
    child.once("exit", (code, signal) => {
      started.delete(child);
      if (!stopping) ended ||= `rCTF's ${log.replace(".log", "")} process ended (${code ?? signal}):\n${tail(env, log)}`;
    });
  }
  const stopOne = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  const server: RctfServer = {
    url: env.url,
    pids: () => [front.pid!, leaderboard.pid!],
    frontPids: () => [front.pid!],
    leaderboardPids: () => [leaderboard.pid!],
    async stop() {
      const unexpected = ended;
      stopping = true;
      await Promise.all([stopOne(front), stopOne(leaderboard)]);
      // Its conf.d (the run's tokenKey) goes whatever happened; its logs stay if a process ended by itself.
      rmSync(env.confDir, { recursive: true, force: true });
      if (unexpected) console.warn(`${unexpected}\nbench rCTF: its logs kept in ${path.join(env.home, "logs")}`);
      else rmSync(env.home, { recursive: true, force: true });
    },
  };
  // The leaderboard endpoint answers without a token once the API listens (start.sh's check).
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (ended) break;
    try {
      if ((await fetch(`${env.url}/api/v1/leaderboard/now?limit=1&offset=0`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) break;
  }
  const why = ended || `rCTF did not answer on ${env.url} within 60 s:\n${tail(env, "front.log")}`;
  await server.stop();
  throw new Error(`bench rCTF: ${why}`);
}

/** One round's load: autocannon's request, and rCTF's answers by its `kind` ("badFlag", "goodFlag", …, or "HTTP <status>"). */
export interface RctfRound {
  request: autocannon.Request;
  answers: Record<string, number>;
}

/**
 * The rounds' requests, as /work/rctf-bench's round.mjs sent them: `POST /api/v1/challs/:id/submit {"flag"}` with
 * `Authorization: Bearer <authToken>`, one (user, challenge) pair a request, one user after another, each pass over
 * the users on the next challenge. Wrong: a wrong flag of the right length, over the users × every challenge (80,000
 * pairs, each again only after them all: rCTF's limit, 3 tries a pair in 10 s, is not what is measured; a 429 would
 * show among the answers). Correct: the right flag on a pair nobody has solved, never the same pair twice (users × the
 * challenges kept unsolved at seed time): a new solve each; a round that would need more fails.
 */
export function rctfLoad(world: RctfWorld) {
  const turns = { wrong: 0, correct: 0 };
  const users = world.users;
  return {
    round(kind: "wrong" | "correct"): RctfRound {
      const set = kind === "wrong" ? world.wrong : world.correct;
      const capacity = kind === "wrong" ? Infinity : users.length * set.length;
      const answers: Record<string, number> = {};
      return {
        answers,
        request: {
          method: "POST",
          setupRequest: (request) => {
            const turn = turns[kind]++;
            if (turn >= capacity) throw new Error(`bench:flags: rCTF's correct pairs ran out (${capacity}): more unsolved challenges needed (bench/rctf/seed.ts)`);
            const user = users[turn % users.length];
            const challenge = set[Math.floor(turn / users.length) % set.length];
            return {
              ...request,
              method: "POST",
              path: `/api/v1/challs/${encodeURIComponent(challenge.id)}/submit`,
              body: JSON.stringify({ flag: challenge.flag }),
              headers: { ...request.headers, "content-type": "application/json", authorization: `Bearer ${user.authToken}` },
            };
          },
          // rCTF answers {"kind": …, "message": …}: a wrong flag is a 400 "badFlag" (an unknown challenge a 404, a
          // limited one a 429), which autocannon alone would not tell apart.
          onResponse: (status: number, body: string) => {
            const kindOf = /"kind":"(\w+)"/.exec(body)?.[1] ?? `HTTP ${status}`;
            answers[kindOf] = (answers[kindOf] ?? 0) + 1;
          },
        },
      };
    },
  };
}

/** rCTF set up for a run: its processes, its world's load, its solves' count (the rows a right answer stores). */
export interface Rctf {
  commit: string;
  server: RctfServer;
  load: ReturnType<typeof rctfLoad>;
  world: RctfWorld["seeded"];
  /** Its database's name on the bench's Postgres server. */
  database: string;
  solves(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Everything bench:flags needs before its cost rounds: DIR checked, the database migrated and seeded (before the
 * processes start, which read the challenges once), the processes started, the users signed in through rCTF's
 * own login.
 */
export async function setUpRctf(dir: string, port: number): Promise<Rctf> {
  const commit = checkRctfDir(dir);
  const env = rctfEnv(port);
  let server: RctfServer | null = null;
  const sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
  // Before the processes run (or if they failed to start), only the conf.d goes: a log of what failed stays.
  const stop = async () => {
    if (server) await server.stop();
    else rmSync(env.confDir, { recursive: true, force: true });
    await sql.end({ timeout: 5 });
  };
  try {
    await migrateRctf(dir, env);
    const seeded = await seedRctf(env);
    server = await startRctf(dir, env);
    const world = await signInRctf(dir, env, seeded);
    return {
      commit,
      server,
      load: rctfLoad(world),
      world: world.seeded,
      database: RCTF_DATABASE,
      solves: async () => (await sql<Array<{ n: number }>>`select count(*)::int as n from solves`)[0].n,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

// prepare.sh: the database and its migrations, once (a database of its own to try rCTF by hand; the bench migrates its own).
if (path.resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  const [command, dir, database = "rctf"] = process.argv.slice(2);
  if (command !== "migrate" || !dir) {
    console.error("usage: node --import tsx bench/rctf/rctf.ts migrate DIR [DATABASE]");
    process.exit(2);
  }
  checkRctfDir(path.resolve(dir));
  const env = rctfEnv(0, database);
  try {
    await migrateRctf(path.resolve(dir), env);
    console.info(`rCTF's migrations ran on ${env.databaseUrl}`);
  } finally {
    rmSync(env.home, { recursive: true, force: true });
  }
}
