/**
 * 3. Scoreboard and pages under load: requests/s and latency for the scoreboard's data and the
 * participant pages, 1,000 teams, closed-loop load from this process (autocannon) against a real
 * web process (server.ts) on loopback, each request as one of many signed-in participants.
 *
 *   npm run bench:pages [-- --smoke] [--teams N] [--connections N] [--duration S] [--runs N] [--only NAME] [--path P] [--versus DIR]
 *
 * --versus DIR: another checkout of this repository (a git worktree at another commit, built, with its own
 * node_modules when the dependencies differ): a second web process runs from it on the same world, and each
 * run loads this checkout's web then DIR's (in alternating order), so both meet the machine as it is at the
 * same moments: the CPU per request of each, and their ratio per run.
 */
import path from "node:path";
import { closeDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld } from "./lib/env.ts";
import { runLoad, type LoadResult } from "./lib/http-load.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, startWeb, stopChildren } from "./lib/servers.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

/**
 * What is measured, one entry each. The scoreboard's data is the Remix single-fetch URL a browser
 * fetches when the board revalidates (every loader of the page: root, layout, scoreboard). The JSON
 * feed, GET /api/v1/scoreboard, is what big screens and scripts poll; server.ts answers it without
 * Remix (decision 011): once with the whole board, once as a poll that holds the current ETag.
 */
export const ENDPOINTS: ReadonlyArray<{ name: string; path: string; scoreboard?: boolean; headers?: Record<string, string>; expectStatus?: number }> = [
  { name: "scoreboard data", path: "/scoreboard.data", scoreboard: true },
  { name: "scoreboard loader only", path: "/scoreboard.data?_routes=routes%2F_app.scoreboard", scoreboard: true },
  { name: "API scoreboard feed (200, whole board)", path: "/api/v1/scoreboard", scoreboard: true },
  // `*` matches whatever the current ETag is: the answer a poller holding the latest board gets.
  { name: "API scoreboard feed (304, unchanged)", path: "/api/v1/scoreboard", scoreboard: true, headers: { "If-None-Match": "*" }, expectStatus: 304 },
  // The participant pages of an event day (docs/PERFORMANCE.md, "Pages"); `{challenge}`: a challenge of gate 3.
  { name: "/gates", path: "/gates" },
  { name: "/gate/3", path: "/gate/3" },
  { name: "/submition/:id", path: "/submition/{challenge}" },
  { name: "/status", path: "/status" },
  { name: "/announcement", path: "/announcement" },
  { name: "/home", path: "/home" },
  { name: "/timer", path: "/timer" },
];

const args = benchArgs({
  teams: { type: "string" },
  connections: { type: "string" },
  duration: { type: "string" },
  only: { type: "string" },
  // --path /x: measure that one path instead (a page being profiled, say).
  path: { type: "string" },
  versus: { type: "string" },
});
const versusRoot = args.versus ? path.resolve(args.versus) : null;
const profile = args.smoke ? { teams: 100, connections: 10, duration: 1, runs: 1 } : { teams: 1000, connections: 100, duration: 10, runs: 3 };
const config = {
  teams: numberOption(args.teams, profile.teams),
  connections: numberOption(args.connections, profile.connections),
  durationSeconds: numberOption(args.duration, profile.duration),
  runs: numberOption(args.runs, profile.runs),
};
const TARGET_P99_MS = 50;

const world = await createBenchWorld("pages");
try {
  const seeded = await seedWorld({ teams: config.teams, membersPerTeam: 3, challenges: 20, judges: 2, submissionsPerTeam: 10 });
  const cookies = [...(await cookiesFor(seeded.participants.slice(0, 1000).map((user) => user.id))).values()];
  const web = await startWeb(world.env, BENCH_PORT_BASE + 20);
  const versusWeb = versusRoot ? await startWeb(world.env, BENCH_PORT_BASE + 21, versusRoot) : null;

  const rows: Array<Record<string, unknown>> = [];
  const details: Array<Record<string, unknown>> = [];
  let failures = 0;
  // --only <text>: just the endpoints whose name contains it (to profile one).
  const chosen = args.path ? [{ name: args.path, path: args.path }] : ENDPOINTS.filter((entry) => !args.only || entry.name.includes(args.only));
  const challenge = seeded.challenges.find((entry) => entry.wave === 3) ?? seeded.challenges[0]!;
  for (const endpoint of chosen) {
    const pathOf = endpoint.path.replace("{challenge}", String(challenge.id));
    const load = (target: typeof web, durationSeconds: number, record: boolean) =>
      runLoad({
        url: `${target.url}${pathOf}`,
        cookies,
        headers: endpoint.headers,
        expectStatus: endpoint.expectStatus,
        connections: config.connections,
        durationSeconds,
        ...(record ? { database: world.database, pid: target.pid } : {}),
      });
    // Warm-up (JIT, pools, route modules), not recorded; the smoke only proves each endpoint answers.
    if (!args.smoke) {
      await load(web, 3, false);
      if (versusWeb) await load(versusWeb, 3, false);
    }
    const runs: LoadResult[] = [];
    const versusRuns: LoadResult[] = [];
    for (let run = 0; run < config.runs; run++) {
      if (versusWeb && run % 2 === 1) versusRuns.push(await load(versusWeb, config.durationSeconds, true));
      runs.push(await load(web, config.durationSeconds, true));
      if (versusWeb && run % 2 === 0) versusRuns.push(await load(versusWeb, config.durationSeconds, true));
    }
    const rps = acrossRuns(runs.map((run) => run.requestsPerSecond));
    const p50 = acrossRuns(runs.map((run) => run.p50Ms));
    const p99 = acrossRuns(runs.map((run) => run.p99Ms));
    const pg = acrossRuns(runs.map((run) => run.pgPerRequest ?? NaN));
    const cpu = acrossRuns(runs.map((run) => run.cpuMsPerRequest ?? NaN));
    const bad = [...runs, ...versusRuns].reduce((sum, run) => sum + run.errors + run.unexpected, 0);
    failures += bad;
    const versusCpu = acrossRuns(versusRuns.map((run) => run.cpuMsPerRequest ?? NaN));
    const cpuRatio = acrossRuns(runs.map((run, index) => (run.cpuMsPerRequest ?? NaN) / (versusRuns[index]?.cpuMsPerRequest ?? NaN)));
    rows.push({
      endpoint: endpoint.name,
      "req/s": showFigure(rps, 0),
      "p50 ms": showFigure(p50),
      "p99 ms": showFigure(p99),
      "web CPU ms/req": showFigure(cpu, 2),
      "pg tx/req": Number.isFinite(pg.median) ? pg.median.toFixed(2) : "n/a",
      ...(versusWeb
        ? {
            "versus CPU ms/req": showFigure(versusCpu, 2),
            "this / versus CPU": showFigure(cpuRatio, 2),
            "versus pg tx/req": acrossRuns(versusRuns.map((run) => run.pgPerRequest ?? NaN)).median.toFixed(2),
          }
        : {}),
      errors: bad,
      "p99 ≤ 50": targetVerdict(p99.median <= TARGET_P99_MS),
    });
    details.push({ ...endpoint, path: pathOf, runs, rps, p50, p99, pgPerRequest: pg, cpuMsPerRequest: cpu, ...(versusWeb ? { versusRuns, versusCpuMsPerRequest: versusCpu, cpuRatio } : {}) });
  }
  report(
    "pages",
    args.smoke,
    `3. Pages under load: ${config.teams} teams, ${config.connections} connections, ${config.durationSeconds} s per run (median over ${config.runs} run(s), range in brackets)`,
    rows,
    { config: { ...config, versus: versusRoot }, target: { p99Ms: TARGET_P99_MS, connections: 100 }, endpoints: details },
    args.out,
  );
  if (failures > 0) throw new BenchFailure(`${failures} failed requests`);
} finally {
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
