/**
 * A page's server CPU, this build against another, in one process: no HTTP, no load generator, no second
 * web process. Both builds' request handlers (Remix's, as server.ts runs it) serve the same page to the same
 * rotating signed-in participants, in alternating batches, so both meet the machine as it is at the same
 * moments; what is reported is the median over batches of the CPU per request, and of each batch pair's
 * ratio. On this VM, whose speed moves by a third between half-hours, that ratio is what a before/after of a
 * render change can trust (docs/performance-log.md, "Links: the app's own, and a V8 defect"). Apart from
 * `npm run bench`, like bench:pool-queue.
 *
 *   npm run bench:render-versus -- --versus DIR [--pages /timer,/gate/3] [--batches 40] [--batch 200] [--teams 1000]
 *
 * DIR: another checkout of this repository, built (its build/index.js loads its own node_modules, so its
 * dependency patches are its own). Without --versus the build is measured against itself (the noise floor).
 * RV_PROF=<dir>: the measuring process writes a V8 CPU profile there (both builds, the warm-up included).
 */
import { fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { acrossRuns, benchArgs, numberOption, report, showFigure } from "./lib/report.ts";
import { BENCH_SESSION_SECRET, REPO_ROOT } from "./lib/servers.ts";
import { WEB_NODE_FLAGS } from "../scripts/lib/web-node-flags.ts";

const args = benchArgs({ versus: { type: "string" }, pages: { type: "string" }, batches: { type: "string" }, batch: { type: "string" }, teams: { type: "string" }, measure: { type: "string" } });

interface World {
  env: Record<string, string>;
  cookies: string[];
  challenge: number;
  database: string;
}

if (args.measure) await measure(JSON.parse(readFileSync(args.measure, "utf8")) as World & { config: Config });
else await main();

interface Config {
  versus: string | null;
  pages: string[];
  batches: number;
  batch: number;
  teams: number;
}

async function main() {
  const { createBenchWorld } = await import("./lib/env.ts");
  const { cookiesFor, seedWorld } = await import("./lib/world.ts");
  const { closeDb } = await import("../app/infrastructure/db.server.ts");
  const { closeRedis } = await import("../app/infrastructure/redis.server.ts");
  const { closeQueues } = await import("../app/infrastructure/queue.server.ts");
  const { closeEmitter } = await import("../app/infrastructure/emitter.server.ts");
  const smoke = args.smoke;
  const config: Config = {
    versus: args.versus ? path.resolve(args.versus) : null,
    pages: (args.pages ?? "/timer,/gates,/gate/3,/submition/{challenge},/home").split(","),
    batches: numberOption(args.batches, smoke ? 2 : 40),
    batch: numberOption(args.batch, smoke ? 20 : 200),
    teams: numberOption(args.teams, smoke ? 20 : 1000),
  };
  const world = await createBenchWorld("render");
  try {
    const seeded = await seedWorld({ teams: config.teams, membersPerTeam: 3, challenges: 20, judges: 2, submissionsPerTeam: 10 });
    const cookies = [...(await cookiesFor(seeded.participants.slice(0, 1000).map((user) => user.id))).values()];
    const challenge = (seeded.challenges.find((entry) => entry.wave === 3) ?? seeded.challenges[0]!).id;
    const file = path.join(os.tmpdir(), `${world.database}.json`);
    writeFileSync(file, JSON.stringify({ env: world.env, cookies, challenge, database: world.database, config }));
    // The measuring process runs both builds as production does (React's production build is chosen at load),
    // with a web process's flags (scripts/lib/web-node-flags.ts): both builds share them.
    const child = fork(process.argv[1]!, ["--measure", file, ...(smoke ? ["--smoke"] : []), ...(args.out ? ["--out", path.resolve(args.out)] : [])], {
      execArgv: [...(process.env.RV_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.RV_PROF}`] : []), ...WEB_NODE_FLAGS, "--import", "tsx"],
      env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: BENCH_SESSION_SECRET, LOG_LEVEL: "warn", ...world.env },
    });
    const code = await new Promise<number>((resolve) => child.on("exit", (exit) => resolve(exit ?? 1)));
    if (code !== 0) throw new Error(`the measuring process exited with ${code}`);
  } finally {
    await Promise.allSettled([closeDb(), closeEmitter(), closeQueues(), closeRedis()]);
    await world.drop();
  }
}

async function measure(world: World & { config: Config }) {
  const { productionServiceEnv } = await import("../scripts/lib/local-services.ts");
  Object.assign(process.env, productionServiceEnv(), world.env);
  const { createRequestHandler } = await import("@remix-run/node");
  const { config } = world;
  const builds = [{ name: "this", root: REPO_ROOT }, { name: config.versus ? "versus" : "this again", root: config.versus ?? REPO_ROOT }];
  type Handler = ReturnType<typeof createRequestHandler>;
  const handlers: Handler[] = [];
  for (const build of builds) {
    // A query string makes a second copy of the same build a module of its own.
    const url = `${pathToFileURL(path.join(build.root, "build", "index.js")).href}?${build.name.replace(/ /g, "-")}`;
    handlers.push(createRequestHandler(await import(url), "production"));
  }
  let turn = 0;
  const serve = async (handler: Handler, page: string, count: number) => {
    let left = count;
    // Ten at a time, as a web process under load has several requests in hand.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (left-- > 0) {
          const cookie = world.cookies[turn++ % world.cookies.length];
          const response = await handler(new Request(`http://127.0.0.1${page}`, { headers: { cookie, host: "127.0.0.1", "user-agent": "bench" } }), { cspNonce: "bench-nonce-0123456789==", receivedAt: Date.now() } as never);
          if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
        }
      }),
    );
  };
  const cpuMsPerRequest = async (handler: Handler, page: string) => {
    const before = process.cpuUsage();
    await serve(handler, page, config.batch);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / config.batch;
  };
  const rows: Array<Record<string, unknown>> = [];
  const details: Array<Record<string, unknown>> = [];
  for (const template of config.pages) {
    const page = template.replace("{challenge}", String(world.challenge));
    // Warm-up: JIT, pools, the session cache.
    for (const handler of handlers) await serve(handler, page, Math.min(1000, config.batch * 5));
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let batch = 0; batch < config.batches; batch++) {
      // Alternate which goes first.
      const [first, second] = batch % 2 ? [1, 0] : [0, 1];
      const figures: number[] = [];
      figures[first] = await cpuMsPerRequest(handlers[first]!, page);
      figures[second] = await cpuMsPerRequest(handlers[second]!, page);
      mine.push(figures[0]!);
      theirs.push(figures[1]!);
    }
    const ratio = acrossRuns(mine.map((figure, index) => figure / theirs[index]!));
    rows.push({ page: template, "this CPU ms/req": showFigure(acrossRuns(mine), 3), [`${builds[1]!.name} CPU ms/req`]: showFigure(acrossRuns(theirs), 3), "this ÷ that (per batch pair)": showFigure(ratio, 3) });
    details.push({ page, mine, theirs, ratio });
  }
  report("render-versus", args.smoke, `Server CPU per page in one process: this build against ${config.versus ?? "itself"}, ${config.batches} batch pairs of ${config.batch} requests (median, range over batches)`, rows, { config, pages: details }, args.out);
  process.exit(0);
}
