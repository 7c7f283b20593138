/**
 * Prometheus metrics from the real processes (docs/operations.md): a web process (server.ts, the built app)
 * and a worker, each scraped as Prometheus would, with and without the bearer token.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser } from "../support/fixtures.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";
import { freePort } from "../support/free-port.ts";
import { connectSocket, nextEvent, startProcess, startWebServer, startWorker, stopAll, type TestSocket } from "../support/processes.ts";
import { waitForEmptyOutbox, whileTeamsLocked } from "../support/standings.ts";

const TOKEN = "metrics-test-token-0123456789abcdef0123";
const sockets: TestSocket[] = [];

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  await closeEmitter();
});

function scrape(url: string, token: string | null = TOKEN) {
  return fetch(`${url}/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

/** One series' value from a scrape's text, by metric name and label subset (null when absent). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return null;
}

describe("metrics", () => {
  let web: string;
  let closedWeb: string;
  let workerUrl: string;

  beforeAll(async () => {
    await ensureEventSettings();
    const workerPort = await freePort();
    [{ url: web }, { url: closedWeb }] = await Promise.all([
      startWebServer({ METRICS_TOKEN: TOKEN }),
      startWebServer(),
      startWorker({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: String(workerPort) }),
    ]);
    workerUrl = `http://127.0.0.1:${workerPort}`;
  }, 90_000);

  it("are never open: 404 without a token configured, 401 without or with a wrong bearer token", async () => {
    expect((await scrape(closedWeb)).status).toBe(404);
    expect((await scrape(web, null)).status).toBe(401);
    expect((await scrape(web, "metrics-test-token-0123456789abcdef0124")).status).toBe(401);
    expect((await scrape(web, TOKEN.slice(0, -1))).status).toBe(401);
    expect((await scrape(workerUrl, null)).status).toBe(401);
    const worker = await fetch(`${workerUrl}/anything`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(worker.status).toBe(404);
  });

  it("a web process reports requests by route pattern (never the raw path), sockets, admission, pool and process figures", async () => {
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const cookie = await login(web, player.name, FIXTURE_PASSWORD);
    for (const id of [987654, 987655]) await fetch(`${web}/submition/${id}`, { headers: { cookie }, redirect: "manual" });
    await fetch(`${web}/login`);
    await fetch(`${web}/healthz`);
    await fetch(`${web}/login`, { method: "PROPFIND" });
    // Only the exact path serves metrics: the other spellings are pages like any unknown path, and a page
    // asked with an Authorization header is a 401 (docs/decisions/009-http-api.md, "Authorization header").
    for (const spelling of ["/METRICS", "/metrics/", "/Metrics"]) {
      const other = await fetch(`${web}${spelling}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(other.status, spelling).toBe(401);
      expect(await other.text()).not.toContain("gatekeeper_");
    }
    const socket = await connectSocket(web, cookie);
    sockets.push(socket);

    const response = await scrape(web);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).not.toContain("987654");
    expect(valueOf(text, "gatekeeper_http_request_duration_seconds_count", { route: "/submition/:id", method: "GET", process_type: "web" })).toBeGreaterThanOrEqual(2);
    expect(valueOf(text, "gatekeeper_http_request_duration_seconds_count", { route: "/login", method: "GET", status: "2xx" })).toBeGreaterThanOrEqual(1);
    // Labels from small fixed sets: a method Node accepts but we do not serve is "other"; probes are named.
    expect(valueOf(text, "gatekeeper_http_request_duration_seconds_count", { route: "/login", method: "other" })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('method="PROPFIND"');
    expect(valueOf(text, "gatekeeper_http_request_duration_seconds_count", { route: "/healthz", method: "GET", status: "2xx" })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/status="\d{3}"/);
    expect(valueOf(text, "gatekeeper_socketio_connections")).toBe(1);
    expect(valueOf(text, "gatekeeper_admission_waiting_requests")).toBe(0);
    expect(valueOf(text, "gatekeeper_admission_active_requests")).not.toBeNull();
    expect(valueOf(text, "gatekeeper_db_pool_in_use")).not.toBeNull();
    expect(valueOf(text, "gatekeeper_db_pool_waiting")).toBe(0);
    // The page above looked its caller up (a new session): at least that statement was sent.
    expect(valueOf(text, "gatekeeper_db_statements_total")).toBeGreaterThan(0);
    expect(valueOf(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(valueOf(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(valueOf(text, "nodejs_eventloop_lag_p99_seconds")).not.toBeNull();
  });

  it("a worker reports its jobs, the queues, the outbox and the live path's lag after a score", async () => {
    const judge = await makeUser("judge");
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ points: 100, category: "AI" });
    const submission = await makeSubmission(team.id, challenge.id, player.id);
    await rebuildStandings();
    const socket = await connectSocket(web, await login(web, player.name, FIXTURE_PASSWORD));
    sockets.push(socket);
    const update = nextEvent(socket, "teams:update", (standing) => standing.id === team.id && standing.totalScore === 42);
    // Its team busy, the score leaves the recompute to the queue (a score's own request does it otherwise).
    await whileTeamsLocked([team.id], () => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "42" }));
    await update;
    await waitForEmptyOutbox();

    // A job counts once BullMQ marks it completed, just after its processor published the update.
    const completedJobs = async () =>
      valueOf(await (await scrape(workerUrl)).text(), "gatekeeper_job_duration_seconds_count", { queue: "standings", outcome: "completed", process_type: "worker" }) ?? 0;
    await expect.poll(completedJobs, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const text = await (await scrape(workerUrl)).text();
    expect(valueOf(text, "gatekeeper_job_queue_wait_seconds_count", { queue: "standings" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, "gatekeeper_standings_publish_lag_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, "gatekeeper_live_events_emitted_total", { event: "teams:update" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, "gatekeeper_queue_jobs", { queue: "standings", state: "waiting" })).not.toBeNull();
    expect(valueOf(text, "gatekeeper_queue_jobs", { queue: "storage-cleanup", state: "failed" })).not.toBeNull();
    expect(valueOf(text, "gatekeeper_standings_outbox_teams")).toBe(0);
    expect(valueOf(text, "gatekeeper_db_pool_in_use")).not.toBeNull();
    expect(valueOf(text, "gatekeeper_db_statements_total")).toBeGreaterThan(0);
    // A worker's series are its own: no web figures in its scrape.
    expect(text).not.toContain("gatekeeper_http_request_duration_seconds");
  });
  it("the Grafana dashboard in the repository names only series the processes serve", async () => {
    const dashboard = JSON.parse(await readFile(new URL("../../deploy/grafana/gatekeeper-dashboard.json", import.meta.url), "utf8")) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const named = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.replace(/by \([^)]*\)/g, "").match(/\b(?:gatekeeper|process|nodejs)_[a-z0-9_]+/g) ?? [])));
    expect(named.size).toBeGreaterThan(10);
    const served = (await (await scrape(web)).text()) + (await (await scrape(workerUrl)).text());
    const missing = [...named].filter((name) => !served.includes(`\n${name}{`) && !served.includes(`\n${name} `));
    expect(missing).toEqual([]);
  });

  it("a second worker on the same host takes the next free port, with series of its own", async () => {
    const firstPort = Number(new URL(workerUrl).port);
    const { match } = await startProcess("workers/index.ts", /"port":(\d+)[^\n]*"msg":"worker metrics on \/metrics"/, {
      METRICS_TOKEN: TOKEN,
      WORKER_METRICS_PORT: String(firstPort),
    });
    const port = Number(match[1]);
    expect(port).toBeGreaterThan(firstPort);
    const [first, second] = await Promise.all([scrape(workerUrl), scrape(`http://127.0.0.1:${port}`)].map(async (answer) => (await answer).text()));
    const instanceOf = (text: string) => /instance_name="([^"]+)"/.exec(text)?.[1];
    expect(instanceOf(second)).toBeDefined();
    expect(instanceOf(second)).not.toBe(instanceOf(first));
  });
});
