/**
 * 7. Stampede: a gate opens while 500 signed-in participants wait on /gates. Each has loaded /gates
 * (the gate shows its countdown); at the gate's instant T, each (at T plus 0–2 s, as browsers whose
 * timers fire at slightly different moments) loads /gate/N and then one of its challenges, against 2
 * real web processes and 2 workers. Target: 0 errors, p99 ≤ 1.5 s.
 *
 * How a participant loads the two pages (--mode):
 * - `html` (default): each a full HTML GET, a browser's first load (a reload, or no JavaScript). The
 *   heavier case: every loader of the page (root, layout, page) and the whole render.
 * - `data`: what the hydrated /gates page does (docs/performance-log.md "Stampede"): the click on the open
 *   card reads `/gate/N.data` (the page's loader only: the layout's stay), the click on a challenge reads
 *   `/submition/:id.data`. The browser knows every route from the manifest file it loaded with /gates (route
 *   discovery is off: docs/decisions/052-route-discovery-off.md), so it asks for none. (JavaScript and CSS
 *   files are the browser's cache's or the CDN's.)
 *
 * Errors: any answer other than 200, a gate page served closed to a request sent at or after T, a
 * gate page served open to a request answered before T (probes, one every 25 ms in the last 1.5 s
 * before T: the server must never open a gate early). Exit 1 on any error; p99 is reported, not
 * enforced (like the other benchmarks, the figure depends on what else the machine runs).
 *
 *   npm run bench:stampede [-- --smoke] [--participants N] [--gate N] [--spread MS] [--mode html|data]
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { eq } from "drizzle-orm";
import { gates } from "../db/schema.ts";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld, percentile, summarise } from "./lib/env.ts";
import { cpuTimeMs } from "./lib/http-load.ts";
import { BenchFailure, benchArgs, numberOption, report, targetVerdict } from "./lib/report.ts";
import { BENCH_PORT_BASE, sleep, startWebs, startWorkers, stopChildren, type WebProcess } from "./lib/servers.ts";
import { cookiesFor, seedWorld } from "./lib/world.ts";

const args = benchArgs({ participants: { type: "string" }, gate: { type: "string" }, spread: { type: "string" }, mode: { type: "string" } });
const profile = args.smoke
  ? { participants: 30, spreadMs: 500, webs: 1, workers: 1, warmUpRounds: 2, quietBeforeMs: 300, probeForMs: 500 }
  : { participants: 500, spreadMs: 2000, webs: 2, workers: 2, warmUpRounds: 20, quietBeforeMs: 2000, probeForMs: 1500 };
const mode = args.mode ?? "html";
if (mode !== "html" && mode !== "data") throw new Error(`--mode html|data, not ${mode}`);
const config = {
  participants: numberOption(args.participants, profile.participants),
  gate: numberOption(args.gate, 4),
  spreadMs: numberOption(args.spread, profile.spreadMs),
  mode,
  teamSize: 5,
  challenges: 20,
  webs: profile.webs,
  workers: profile.workers,
  /** Participants loading /gates at once while they take their seats (browsers arriving over minutes). */
  seatingConcurrency: 25,
  /** Requests of each kind per web before the run, not recorded. */
  warmUpRounds: profile.warmUpRounds,
  /** T is this long after the last participant is seated, plus the probes' time. */
  quietBeforeMs: profile.quietBeforeMs,
  probeEveryMs: 25,
  probeForMs: profile.probeForMs,
};
const TARGET_P99_MS = 1500;

/** The machine's busy share of its CPUs between two readings of /proc/stat. */
function cpuTicks() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const values = fields.map(Number);
  const idle = values[3] + values[4];
  return { idle, total: values.reduce((sum, value) => sum + value, 0) };
}

/** What else ran: the busiest processes over one second (top's second sample), before the run. */
function busiestProcesses(): string[] {
  try {
    const output = execFileSync("top", ["-b", "-n", "2", "-d", "1", "-w", "200"], { encoding: "utf8" });
    const lastSample = output.slice(output.lastIndexOf("PID USER"));
    return lastSample
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields.length >= 12 && Number(fields[8]) >= 5)
      .slice(0, 10)
      .map((fields) => {
        let command = fields[11];
        try {
          command = readFileSync(`/proc/${fields[0]}/cmdline`, "utf8").split("\0").join(" ").trim().slice(0, 100) || command;
        } catch {
          // gone since
        }
        return `${fields[8]}% ${command}`;
      });
  } catch {
    return [];
  }
}

interface Sample {
  step: string;
  ms: number;
}
const samples: Sample[] = [];
const errors: Array<{ step: string; why: string }> = [];
const offered = new Map<string, number>();
const served = new Map<string, number>();

/** One request, timed; `check` says what is wrong with the answer (null: nothing). */
async function timed(step: string, url: string, cookie: string, check: (status: number, body: string) => string | null, record = true): Promise<string | null> {
  offered.set(step, (offered.get(step) ?? 0) + 1);
  const started = performance.now();
  try {
    const response = await fetch(url, { redirect: "manual", headers: { cookie } });
    const body = await response.text();
    const ms = performance.now() - started;
    served.set(step, (served.get(step) ?? 0) + 1);
    if (record) samples.push({ step, ms });
    const wrong = response.status === 200 ? check(response.status, body) : `status ${response.status}`;
    if (wrong) errors.push({ step, why: wrong });
    return wrong ? null : body;
  } catch (error) {
    errors.push({ step, why: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** A gate page (HTML or data) with its challenges listed: the seeded titles are "Challenge N". */
const showsChallenges = (body: string) => /Challenge \d+/.test(body);
/** A gate page (HTML) shown open in any way: its challenges, or anything but the sealed card. */
const showsOpen = (body: string) => showsChallenges(body) || !body.includes("This gate is still sealed");

const world = await createBenchWorld("stampede");
try {
  const teams = Math.ceil(config.participants / config.teamSize);
  const seeded = await seedWorld({ teams, membersPerTeam: config.teamSize, challenges: config.challenges, judges: 1, submissionsPerTeam: 2 });
  const participants = seeded.participants.slice(0, config.participants);
  const gateChallenges = seeded.challenges.filter((challenge) => challenge.wave === config.gate).map((challenge) => challenge.id);
  if (gateChallenges.length === 0) throw new Error(`gate ${config.gate} has no challenges`);
  // The gate is set to open in an hour while the participants take their seats; its instant is moved
  // to T once they all sit on /gates (an admin's edit, which the pages read at every load).
  await getDb().update(gates).set({ opensAt: new Date(Date.now() + 3_600_000) }).where(eq(gates.number, config.gate));
  const cookies = await cookiesFor(participants.map((user) => user.id));
  const otherProcesses = busiestProcesses();
  const loadBefore = os.loadavg().map((load) => +load.toFixed(2));
  const [webs] = await Promise.all([startWebs(world.env, config.webs, BENCH_PORT_BASE + 70), startWorkers(world.env, config.workers)]);
  const webFor = (index: number): WebProcess => webs[index % webs.length];

  // Warm-up, not recorded: the event has been running, so the webs have served the other gates' pages.
  const warmChallenge = seeded.challenges.find((challenge) => challenge.wave !== config.gate)!;
  for (const [index, web] of webs.entries()) {
    const cookie = cookies.get(participants[index % participants.length].id)!;
    for (let round = 0; round < config.warmUpRounds; round++) {
      for (const path of [`/gate/${warmChallenge.wave}`, `/submition/${warmChallenge.id}`, `/gate/${warmChallenge.wave}.data`, `/submition/${warmChallenge.id}.data`]) {
        await (await fetch(`${web.url}${path}`, { headers: { cookie } })).text();
      }
    }
  }

  // Seating: every participant loads /gates, where gate N counts down.
  const seatingStarted = performance.now();
  const queue = participants.map((_, index) => index);
  await Promise.all(
    Array.from({ length: config.seatingConcurrency }, async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        await timed("seat: GET /gates", `${webFor(index).url}/gates`, cookies.get(participants[index].id)!, (_, page) =>
          page.includes(`href="/gate/${config.gate}"`) ? `gate ${config.gate} shown open while seating` : null,
        );
      }
    }),
  );
  const seatingSeconds = (performance.now() - seatingStarted) / 1000;

  const opensAt = Date.now() + config.quietBeforeMs + config.probeForMs;
  await getDb().update(gates).set({ opensAt: new Date(opensAt) }).where(eq(gates.number, config.gate));

  // Probes: one request every 25 ms before T; an answer received before T must show the gate closed.
  const probeCookie = cookies.get(participants[0].id)!;
  const probes = { sent: 0, closedBeforeT: 0, answeredAfterT: 0 };
  const probeRun = (async () => {
    await sleep(opensAt - config.probeForMs - Date.now());
    const inFlight: Array<Promise<void>> = [];
    while (Date.now() < opensAt) {
      probes.sent++;
      inFlight.push(
        (async () => {
          const response = await fetch(`${webs[probes.sent % webs.length].url}/gate/${config.gate}`, { headers: { cookie: probeCookie } });
          const body = await response.text();
          const receivedAt = Date.now();
          const open = showsOpen(body);
          if (response.status !== 200) errors.push({ step: "probe before T", why: `status ${response.status}` });
          else if (open && receivedAt < opensAt) errors.push({ step: "probe before T", why: `gate served open ${opensAt - receivedAt} ms before its instant` });
          else if (receivedAt < opensAt) probes.closedBeforeT++;
          // Sent before T, answered after it: either answer is right.
          else probes.answeredAfterT++;
        })().catch((error: unknown) => void errors.push({ step: "probe before T", why: String(error) })),
      );
      await sleep(config.probeEveryMs);
    }
    await Promise.all(inFlight);
  })();

  // Load during the stampede: the machine's CPU share and the 1-minute load average, every 250 ms.
  const cpuBefore = cpuTicks();
  const webCpuBefore = webs.map((web) => cpuTimeMs(web.pid));
  const loadDuring: number[] = [];
  const sampler = setInterval(() => loadDuring.push(os.loadavg()[0]), 250);
  const gatePath = (id: number) => `/submition/${id}`;
  const journeys: number[] = [];

  const participantRun = async (index: number) => {
    const cookie = cookies.get(participants[index].id)!;
    const base = webFor(index).url;
    const firesAt = opensAt + Math.random() * config.spreadMs;
    await sleep(firesAt - Date.now());
    // A timer may fire a millisecond early by the wall clock: never before the participant's moment.
    while (Date.now() < firesAt) await sleep(1);
    const started = performance.now();
    const closedAfterT = (_: number, body: string) => (showsChallenges(body) ? null : "gate served closed after its instant");
    let challengeId: number | undefined;
    if (config.mode === "html") {
      const page = await timed("GET /gate/:n", `${base}/gate/${config.gate}`, cookie, closedAfterT);
      if (!page) return;
      const links = [...page.matchAll(/href="\/submition\/(\d+)"/g)].map((match) => Number(match[1]));
      challengeId = links[Math.floor(Math.random() * links.length)];
      if (challengeId === undefined || !gateChallenges.includes(challengeId)) return void errors.push({ step: "GET /gate/:n", why: `links ${links.join(",")}` });
      if (!(await timed("GET /submition/:id", `${base}${gatePath(challengeId)}`, cookie, () => null))) return;
    } else {
      const routes = encodeURIComponent("routes/_app.gate.$wave");
      if (!(await timed("GET /gate/:n.data", `${base}/gate/${config.gate}.data?_routes=${routes}`, cookie, closedAfterT))) return;
      challengeId = gateChallenges[Math.floor(Math.random() * gateChallenges.length)];
      const challengeRoutes = encodeURIComponent("routes/_app.submition.$id");
      const check = (_: number, body: string) => (body.includes(`Challenge `) ? null : "challenge page without its challenge");
      if (!(await timed("GET /submition/:id.data", `${base}${gatePath(challengeId)}.data?_routes=${challengeRoutes}`, cookie, check))) return;
    }
    journeys.push(performance.now() - started);
  };

  const stampedeStarted = Date.now();
  // T on the monotonic clock V8's CPU profiles use (µs): to read only the stampede out of a profile.
  const opensAtMonotonicMicros = Number(process.hrtime.bigint() / 1000n) + (opensAt - stampedeStarted) * 1000;
  await Promise.all([probeRun, ...participants.map((_, index) => participantRun(index))]);
  clearInterval(sampler);
  const stampedeSeconds = (Date.now() - Math.max(stampedeStarted, opensAt)) / 1000;
  const cpuAfter = cpuTicks();
  const webCpuMs = webs.map((web, index) => cpuTimeMs(web.pid) - webCpuBefore[index]);
  const machineBusyPct = (1 - (cpuAfter.idle - cpuBefore.idle) / (cpuAfter.total - cpuBefore.total)) * 100;

  const stampedeSteps = [...new Set(samples.map((sample) => sample.step))];
  const rowOf = (step: string, values: number[]) => {
    const stats = summarise(values);
    return {
      step,
      offered: offered.get(step) ?? values.length,
      served: served.get(step) ?? values.length,
      "p50 ms": +stats.p50.toFixed(0),
      "p95 ms": +percentile([...values].sort((a, b) => a - b), 95).toFixed(0),
      "p99 ms": +stats.p99.toFixed(0),
      "max ms": +stats.max.toFixed(0),
      errors: errors.filter((error) => error.step === step).length,
    };
  };
  const rows = stampedeSteps.map((step) => rowOf(step, samples.filter((sample) => sample.step === step).map((sample) => sample.ms)));
  const stampedeSamples = samples.filter((sample) => !sample.step.startsWith("seat")).map((sample) => sample.ms);
  const overall = rowOf("after T: every request", stampedeSamples);
  overall.offered = stampedeSteps.filter((step) => !step.startsWith("seat")).reduce((sum, step) => sum + (offered.get(step) ?? 0), 0);
  overall.served = stampedeSteps.filter((step) => !step.startsWith("seat")).reduce((sum, step) => sum + (served.get(step) ?? 0), 0);
  overall.errors = errors.filter((error) => !error.step.startsWith("seat")).length;
  rows.push(overall, { ...rowOf("after T: a participant's two pages", journeys), offered: participants.length, served: journeys.length, errors: participants.length - journeys.length });
  const totalWebCpu = webCpuMs.reduce((sum, ms) => sum + ms, 0);
  const conditions = {
    loadAverageBefore: loadBefore,
    loadAverageDuringMax: +Math.max(...loadDuring, 0).toFixed(2),
    machineCpuBusyDuringPct: +machineBusyPct.toFixed(0),
    otherProcessesBefore: otherProcesses,
    loadGenerator: "this benchmark's own Node process on the same machine (fetch/undici, loopback)",
  };
  // Offered: the participants' first requests arrive over the spread; served: every request after T over the time it took.
  const rates = { offeredFirstRequestsPerSecond: +(participants.length / (config.spreadMs / 1000)).toFixed(0), servedPerSecond: +(overall.served / stampedeSeconds).toFixed(0) };
  const passed = errors.length === 0 && overall["p99 ms"] <= TARGET_P99_MS;
  report(
    "stampede",
    args.smoke,
    `7. Stampede (${config.mode}): gate ${config.gate} opens with ${participants.length} participants on /gates (seated in ${seatingSeconds.toFixed(1)} s), ` +
      `each at T + 0–${config.spreadMs} ms loads the gate then a challenge, ${config.webs} web + ${config.workers} worker processes — ` +
      `errors ${targetVerdict(errors.length === 0)} (${errors.length}); p99 ≤ ${TARGET_P99_MS} ms ${targetVerdict(overall["p99 ms"] <= TARGET_P99_MS)} (${overall["p99 ms"]} ms); ` +
      `offered ${rates.offeredFirstRequestsPerSecond} first requests/s, served ${rates.servedPerSecond} req/s; web CPU ${webCpuMs.map((ms) => (ms / 1000).toFixed(1)).join(" + ")} s in ${stampedeSeconds.toFixed(1)} s (${(totalWebCpu / Math.max(1, overall.served)).toFixed(1)} ms a request); ` +
      `machine ${conditions.machineCpuBusyDuringPct} % busy, load ${loadBefore[0]} before, ${conditions.loadAverageDuringMax} at most during; ` +
      `probes before T: ${probes.sent} (${probes.closedBeforeT} answered closed before T, ${probes.answeredAfterT} answered after T)`,
    rows,
    { config, target: { p99Ms: TARGET_P99_MS, errors: 0 }, passed, conditions, rates, opensAt: new Date(opensAt).toISOString(), opensAtMonotonicMicros, seatingSeconds, stampedeSeconds, webCpuMs, probes, errors: errors.slice(0, 20) },
    args.out,
  );
  if (errors.length > 0) throw new BenchFailure(`${errors.length} errors, e.g. ${JSON.stringify(errors.slice(0, 3))}`);
} finally {
  await stopChildren();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
