/**
 * 3. Scoreboard and pages under load: requests/s and latency for the scoreboard's data and the
 * participant pages, 1,000 teams, closed-loop load from this process (autocannon) against a real
 * web process (server.ts) on loopback, each request as one of many signed-in participants.
 *
 *   npm run bench:pages [-- --smoke] [--teams N] [--connections N] [--duration S] [--runs N] [--only NAME[,NAME…]] [--path P]
 *                       [--versus DIR] [--render N] [--root DIR] [--page-connections N]
 *
 * --versus DIR: another checkout of this repository (a git worktree at another commit, built, with its own
 * node_modules when the dependencies differ): a second web process runs from it on the same world, and each
 * run loads this checkout's web then DIR's (in alternating order), so both meet the machine as it is at the
 * same moments: the CPU per request of each, and their ratio per run.
 * --render N: N navigations of headless Chromium to /scoreboard (fresh cache each), as a participant whose
 * team is mid-board: when its rows were in the DOM, load, LCP, and the bytes over the wire (5 unless told;
 * 0 skips it; the smoke skips it). --root DIR: the web process runs from another checkout of this
 * repository, built (the "before" of a before/after, run back to back with the same seed and load).
 */
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { closeDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld } from "./lib/env.ts";
import { runLoad, type LoadResult } from "./lib/http-load.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { measureRender, type RenderSample } from "./lib/render.ts";
import { BENCH_PORT_BASE, REPO_ROOT, startWeb, stopChildren } from "./lib/servers.ts";
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
  { name: "/scoreboard (HTML)", path: "/scoreboard", scoreboard: true },
  { name: "API scoreboard feed (200, whole board)", path: "/api/v1/scoreboard", scoreboard: true },
  // `*` matches whatever the current ETag is: the answer a poller holding the latest board gets.
  { name: "API scoreboard feed (304, unchanged)", path: "/api/v1/scoreboard", scoreboard: true, headers: { "If-None-Match": "*" }, expectStatus: 304 },
  // A big screen's top 100 (docs/API.md), as rCTF's leaderboard/now?limit=100 is read.
  { name: "API feed limit=100 (200)", path: "/api/v1/scoreboard?limit=100", scoreboard: true },
  { name: "API feed limit=100 (304, unchanged)", path: "/api/v1/scoreboard?limit=100", scoreboard: true, headers: { "If-None-Match": "*" }, expectStatus: 304 },
  { name: "API feed limit=100 (200, gzip)", path: "/api/v1/scoreboard?limit=100", scoreboard: true, headers: { "Accept-Encoding": "gzip" } },
  // The participant pages of an event day (docs/PERFORMANCE.md, "1. Participant pages"); `{challenge}`: a challenge
  // of gate 3.
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
  render: { type: "string" },
  root: { type: "string" },
  "page-connections": { type: "string" },
});
const versusRoot = args.versus ? path.resolve(args.versus) : null;
const profile = args.smoke ? { teams: 100, connections: 10, duration: 1, runs: 1, render: 0 } : { teams: 1000, connections: 100, duration: 10, runs: 3, render: 5 };
const config = {
  teams: numberOption(args.teams, profile.teams),
  connections: numberOption(args.connections, profile.connections),
  durationSeconds: numberOption(args.duration, profile.duration),
  runs: numberOption(args.runs, profile.runs),
  render: numberOption(args.render, profile.render),
  root: args.root ? path.resolve(args.root) : null,
  pageConnections: args["page-connections"] ? numberOption(args["page-connections"], 10) : null,
};
const TARGET_P99_MS = 50;

/** The bytes of one answer as sent (not decoded), asking for `encoding`. */
function wireBytes(url: string, cookie: string, encoding: string | null): Promise<{ status: number; bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Cookie: cookie, ...(encoding ? { "Accept-Encoding": encoding } : {}) } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes, encoding: response.headers["content-encoding"] }));
    });
    request.on("error", reject);
  });
}

const world = await createBenchWorld("pages");
try {
  const seeded = await seedWorld({ teams: config.teams, membersPerTeam: 3, challenges: 20, judges: 2, submissionsPerTeam: 10 });
  const cookies = [...(await cookiesFor(seeded.participants.slice(0, 1000).map((user) => user.id))).values()];
  const web = await startWeb(world.env, BENCH_PORT_BASE + 20, config.root ?? undefined);
  const versusWeb = versusRoot ? await startWeb(world.env, BENCH_PORT_BASE + 21, versusRoot) : null;
  // What a browser is sent, compressed as Chromium asks (each page as the first pooled participant).
  const wire: Array<Record<string, unknown>> = [];
  for (const target of ["/scoreboard", "/scoreboard.data", "/api/v1/scoreboard", "/api/v1/scoreboard?limit=100"]) {
    const [plain, compressed] = await Promise.all([wireBytes(`${web.url}${target}`, cookies[0], null), wireBytes(`${web.url}${target}`, cookies[0], "gzip, deflate, br, zstd")]);
    wire.push({ request: target, status: compressed.status, encoding: compressed.encoding ?? "none", "bytes (identity)": plain.bytes, "bytes over the wire": compressed.bytes });
  }

  const rows: Array<Record<string, unknown>> = [];
  const details: Array<Record<string, unknown>> = [];
  let failures = 0;
  // --only <text>[,<text>…]: just the endpoints whose name contains one of them; --path: that one path.
  const only = args.only?.split(",") ?? null;
  const chosen = args.path ? [{ name: args.path, path: args.path }] : ENDPOINTS.filter((entry) => !only || only.some((text) => entry.name.includes(text)));
  const challenge = seeded.challenges.find((entry) => entry.wave === 3) ?? seeded.challenges[0]!;
  for (const endpoint of chosen) {
    const pathOf = endpoint.path.replace("{challenge}", String(challenge.id));
    // --page-connections N: fewer connections for the Remix pages (on a busy machine a 100-connection closed loop
    // of big pages answers nothing within a run); the API feed keeps --connections.
    const connections = endpoint.path.startsWith("/api/") ? config.connections : (config.pageConnections ?? config.connections);
    const load = (target: typeof web, durationSeconds: number, record: boolean) =>
      runLoad({
        url: `${target.url}${pathOf}`,
        cookies,
        headers: "headers" in endpoint ? endpoint.headers : undefined,
        expectStatus: "expectStatus" in endpoint ? endpoint.expectStatus : undefined,
        connections,
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
      conns: connections,
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
  console.table(wire);
  let render: Record<string, unknown> | null = null;
  if (config.render > 0) {
    // A participant of a team in the middle of the board: on /scoreboard's first page or not, the own team is shown.
    const middle = seeded.participants[Math.floor(seeded.participants.length / 2)];
    const cookie = (await cookiesFor([middle.id])).get(middle.id)!;
    const samples = await measureRender({
      url: `${web.url}/scoreboard`,
      cookie,
      rowSelector: ".scoreboard__row",
      navigations: config.render,
      screenshot: args.out ? undefined : path.join(REPO_ROOT, ".local", `scoreboard-${config.teams}.png`),
    });
    const pick = (key: keyof RenderSample) => acrossRuns(samples.map((sample) => Number(sample[key] ?? NaN)));
    render = { samples, rowsMs: pick("rowsMs"), loadMs: pick("loadMs"), lcpMs: pick("lcpMs"), totalBytes: pick("totalBytes") };
    console.table([
      {
        page: "/scoreboard in Chromium",
        rows: samples[0].rows,
        "rows in DOM ms": showFigure(pick("rowsMs"), 0),
        "DOMContentLoaded ms": showFigure(pick("domContentLoadedMs"), 0),
        "load ms": showFigure(pick("loadMs"), 0),
        "LCP ms": showFigure(pick("lcpMs"), 0),
        "document bytes": samples[0].documentBytes,
        "all bytes until load": samples[0].totalBytes,
        requests: samples[0].requests,
      },
    ]);
  }
  // Beside the report (--out FILE: FILE-browser.json): the bytes and the browser's figures.
  const extra = args.out ? args.out.replace(/(\.json)?$/, "-browser.json") : path.join(REPO_ROOT, "bench", "results", `pages-browser${args.smoke ? ".smoke.tmp" : `-${config.teams}.json`}`);
  writeFileSync(extra, JSON.stringify({ config, machine: { loadAverage: os.loadavg() }, wire, render }, null, 1));
  if (failures > 0) throw new BenchFailure(`${failures} failed requests`);
} finally {
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
