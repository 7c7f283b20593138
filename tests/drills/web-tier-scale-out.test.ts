/**
 * Drill: the web tier scaled out behind the proxy of docker-compose.yml. Debian's nginx runs
 * deploy/nginx/gatekeeper.conf.template (the file compose runs, its upstream list filled in with two
 * ports) in front of two real web processes (server.ts on the production build) and a worker. Browsers
 * are Socket.IO clients that reconnect and re-read as the app's do, all through the proxy.
 *
 * - The client's address reaches the app: wrong passwords from one address (each with a forged
 *   X-Forwarded-For) lock that address for the account; another address only sits out the account's
 *   short wait across addresses (5 s after 5 attempts), then signs in and its own address is recorded.
 * - A judge's score sent through one process reaches a participant whose socket sits on the other; a
 *   client that can only long-poll connects, receives events and stays on one process.
 * - The hardening checks hold through the proxy: the app's own 413 and 408, slow bodies holding
 *   nothing while pages load, and a 200 MiB upload streamed (answered before its body is in).
 * - A web process killed (-9): its clients are on the other within 5 s, and each one's board and
 *   unread count equal the server's (what they missed is re-read on reconnect).
 * - A rolling restart: a web process stopped with SIGTERM finishes its in-flight upload, its clients
 *   reconnect elsewhere, and pages requested meanwhile through the proxy all load.
 */
import { spawnSync } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import net from "node:net";
import { desc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { sessions, submissions, submissionScores } from "../../db/schema.ts";
import { countUnreadAnnouncements } from "../../app/modules/announcements/announcements.server.ts";
import { FORM_MAX_BYTES } from "../../app/glue/request-bodies.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getScoreboard } from "../../app/modules/standings/scoreboard.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { nginxBinary } from "../../scripts/lib/proxy-config.ts";
import { DisposableNginx, type AccessLogEntry } from "../support/disposable-nginx.ts";
import { freePort } from "../support/free-port.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { waitForEmptyOutbox } from "../support/standings.ts";
import type { ChildProcess } from "node:child_process";
import { countRows, FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { answers, oversizedBodies, pageLoads, percentile, slowBodies } from "./support/hostile-clients.ts";
import { get, login, postForm, postFormFrom, postMultipart, requestFrom } from "./support/http.ts";
import { LiveClient } from "./support/live-client.ts";
import { fullDrills, recordDrill } from "./support/report.ts";

const METRICS_TOKEN = "drill-metrics-token-0123456789abcdef0123456789";
/** The deadline for a form body, shortened so that the slow-body check takes seconds. */
const BODY_DEADLINE_MS = 3_000;
// The judge signs in again until a session lands on each process (up to 17 sign-ins): above the default
// SESSIONS_PER_USER, a later one would end the first (docs/RELIABILITY.md).
const WEB_ENV = { TRUST_PROXY: "1", METRICS_TOKEN, WEB_BODY_DEADLINE_MS: String(BODY_DEADLINE_MS), SESSIONS_PER_USER: "100" };
/** The issue's bound: clients of a stopped or killed process are live on another within 5 s. */
const MOVED_LIMIT_MS = 5_000;
const TEAMS = fullDrills ? 8 : 4;
const MiB = 1024 * 1024;

let nginx: DisposableNginx | undefined;
const clients: LiveClient[] = [];

afterAll(async () => {
  for (const client of clients) client.close();
  stopAll();
  await nginx?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long until `condition` holds (polled every 20 ms), or null if not within `limitMs`. */
async function waitFor(condition: () => boolean | Promise<boolean>, limitMs: number, since = Date.now()): Promise<number | null> {
  while (Date.now() - since < limitMs) {
    if (await condition()) return Date.now() - since;
    await sleep(20);
  }
  return (await condition()) ? Date.now() - since : null;
}

/** One web process on a port of its own, so that it comes back where the proxy expects it. */
class WebProcess {
  child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
  ) {}

  get address() {
    return `127.0.0.1:${this.port}`;
  }

  /** Starts it; resolves with how long it took to listen. */
  async start(): Promise<number> {
    const started = Date.now();
    this.child = (await startWebServer({ ...WEB_ENV, PORT: String(this.port) })).child;
    return Date.now() - started;
  }

  /** Signals it and resolves with how long it took to exit. */
  async stop(signal: "SIGTERM" | "SIGKILL"): Promise<number> {
    const child = this.child!;
    const started = Date.now();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
    return Date.now() - started;
  }

  /** The Socket.IO clients it holds, from its own metrics (as Prometheus scrapes each process). */
  async sockets(): Promise<number> {
    const response = await fetch(`http://${this.address}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const match = /^gatekeeper_socketio_connections(?:\{[^}]*\})? (\d+)$/m.exec(await response.text());
    if (!match) throw new Error(`${this.name}: no socket gauge in its metrics`);
    return Number(match[1]);
  }
}

/** A client address of its own for each tagged request (127.1.0.1 …): the proxy's log names who served it. */
let lastAddress = 0;
const nextAddress = () => {
  lastAddress++;
  return `127.1.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
};

/** The proxy's log entry for the request that came from `address` (written once its answer is sent). */
async function servedFrom(address: string): Promise<AccessLogEntry> {
  let entry: AccessLogEntry | undefined;
  await waitFor(() => Boolean((entry = nginx!.accessLog().find((line) => line.client === address))), 3_000);
  if (!entry) throw new Error(`no access log entry from ${address}`);
  return entry;
}

/** Page loads through the proxy until stopped, one lane per cookie (a browser each), like people reloading. */
function pageStream(base: string, cookies: string[]) {
  let running = true;
  const statuses = new Map<number | string, number>();
  const ms: number[] = [];
  const lane = async (cookie: string) => {
    while (running) {
      const page = await get(`${base}/gates`, cookie).catch((error: unknown) => ({ status: `network error (${String(error)})`, ms: 0 }));
      statuses.set(page.status, (statuses.get(page.status) ?? 0) + 1);
      ms.push(page.ms);
      await sleep(10);
    }
  };
  const work = Promise.all(cookies.map(lane));
  return {
    statuses,
    ms,
    async stop() {
      running = false;
      await work;
    },
    get total() {
      return [...statuses.values()].reduce((sum, n) => sum + n, 0);
    },
    get failed() {
      return [...statuses].filter(([status]) => status !== 200).reduce((sum, [, n]) => sum + n, 0);
    },
  };
}

/** A judge re-scoring one submission through the proxy until stopped (the score alternates): form posts during a restart. */
function scoreStream(base: string, cookie: string, submission: { id: number; points: number }) {
  let running = true;
  const statuses = new Map<number | string, number>();
  const work = (async () => {
    for (let round = 0; running; round++) {
      const result = await postForm(`${base}/dashboard/submissions`, cookie, { submissionId: String(submission.id), score: String(submission.points - 1 - (round % 2)) }).catch(
        (error: unknown) => ({ status: `network error (${String(error)})` }),
      );
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      await sleep(50);
    }
  })();
  return {
    statuses,
    async stop() {
      running = false;
      await work;
    },
  };
}

/** A raw HTTP exchange on a fresh connection: `head` sent, then `body` chunks every `everyMs`, until the answer (or `limitMs`). */
function rawExchange(port: number, head: string, body: { chunk: Buffer; count: number; everyMs: number } | null, limitMs: number) {
  return new Promise<{ status: number | null; text: string; ms: number; sentBytes: number }>((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let sentBytes = 0;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1];
      resolve({ status: status ? Number(status) : null, text: answer.slice(answer.indexOf("\r\n\r\n") + 4), ms: Date.now() - started, sentBytes });
    };
    socket.once("connect", () => {
      socket.write(head);
      if (!body) return;
      let sent = 0;
      timer = setInterval(() => {
        if (sent++ >= body.count) return clearInterval(timer);
        socket.write(body.chunk);
        sentBytes += body.chunk.length;
      }, body.everyMs);
    });
    socket.on("data", (data) => {
      answer += data.toString();
      // The whole answer: headers and a body as long as declared.
      const length = /\r\ncontent-length: (\d+)/i.exec(answer)?.[1];
      const headEnd = answer.indexOf("\r\n\r\n");
      if (headEnd >= 0 && length !== undefined && Buffer.byteLength(answer.slice(headEnd + 4)) >= Number(length)) done();
    });
    socket.on("error", () => {});
    socket.on("close", done);
    const limit = setTimeout(done, limitMs);
  });
}

/** A file body paced like a steady connection: `chunkBytes` every `everyMs`; `onSent` sees the bytes sent so far. */
async function* pacedFile(bytes: number, chunkBytes: number, everyMs: number, onSent: (sent: number) => void = () => {}) {
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  for (let sent = 0; sent < bytes; sent += chunkBytes) {
    yield chunk.subarray(0, Math.min(chunkBytes, bytes - sent));
    onSent(sent + chunkBytes);
    if (everyMs > 0) await sleep(everyMs);
  }
}

const version = () => /nginx\/(\S+)/.exec(spawnSync(nginxBinary(), ["-v"], { encoding: "utf8" }).stderr)?.[1] ?? "?";

describe("drill: the web tier behind nginx", () => {
  it("two web processes behind the proxy: one client address each, live events across processes, polling pinned, bounded bodies, a kill and a rolling restart without an error page", async () => {
    // First: without nginx the drill fails at once, saying how to get it (never skipped).
    nginxBinary();
    const event = await seedDrillEvent({ teams: TEAMS, judges: 1, challenges: 3, submittedChallenges: 2 });
    const webs = [new WebProcess("A", await freePort()), new WebProcess("B", await freePort())];
    await Promise.all([...webs.map((web) => web.start()), startWorker()]);
    nginx = await DisposableNginx.start(webs.map((web) => web.address));
    const proxy = nginx.url;
    const proxyPort = nginx.port;
    const webAt = (address: string | undefined) => webs.find((web) => web.address === address);
    const observations: string[] = [`nginx ${version()} (Debian) running deploy/nginx/gatekeeper.conf.template in front of web processes A and B, a worker behind them`];
    const scoresBefore = await countRows(submissionScores);
    const submissionsBefore = await countRows(submissions);
    let scoresSaved = 0;
    let uploadsCreated = 0;

    // --- The client's address: nginx appends it to X-Forwarded-For; the app (TRUST_PROXY=1) believes only that entry.
    const throttled = event.teams[0].participant;
    const loginAs = (from: string, password: string, forged?: string) =>
      postFormFrom(from, `${proxy}/login`, undefined, { username: throttled.name, password }, forged ? { "x-forwarded-for": forged } : {});
    const wrong: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) wrong.push((await loginAs("127.0.0.2", "wrong-password", `198.51.100.${attempt}`)).status);
    const sixth = await loginAs("127.0.0.2", FIXTURE_PASSWORD, "198.51.100.99");
    // The account's own wait across addresses (docs/RELIABILITY.md, "Web security"): a few seconds, then one attempt passes.
    const elsewhereFirst = await loginAs("127.0.0.3", FIXTURE_PASSWORD);
    const waitStarted = Date.now();
    let elsewhere = elsewhereFirst;
    while (elsewhere.status === 429 && Date.now() - waitStarted < 10_000) {
      await delay(200);
      elsewhere = await loginAs("127.0.0.3", FIXTURE_PASSWORD);
    }
    const waited = Date.now() - waitStarted;
    const [newest] = await getDb().select({ ip: sessions.ip }).from(sessions).where(eq(sessions.userId, throttled.id)).orderBy(desc(sessions.id)).limit(1);
    observations.push(
      `client address: 5 wrong passwords from 127.0.0.2, each claiming another X-Forwarded-For (${wrong.join(", ")}), then the right one from there: ${sixth.status}; from 127.0.0.3: ${elsewhereFirst.status}, then ${elsewhere.status} after the account's wait (${waited} ms), its session recorded as ${newest?.ip}`,
    );
    expect(wrong, "wrong passwords").toEqual([401, 401, 401, 401, 401]);
    expect(sixth.status, "the sixth attempt from the same client, whatever it claims").toBe(429);
    expect(elsewhereFirst.status, "another client sits out the account's wait").toBe(429);
    expect(elsewhere.status, "then signs in: a wait, not a lockout").toBe(302);
    expect(waited, "the account's first wait is 5 s").toBeLessThan(6_000);
    expect(newest?.ip).toBe("127.0.0.3");

    // --- Metrics: served by each process to the scraper, never through the proxy (token or not).
    const throughProxy = await fetch(`${proxy}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const direct = await fetch(`http://${webs[0].address}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(throughProxy.status, "/metrics through the proxy").toBe(404);
    for (const spelling of ["/METRICS", "/metrics/", "/Metrics/x"]) {
      const other = await fetch(`${proxy}${spelling}`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(other.status, `${spelling} through the proxy`).toBe(404);
      expect(await other.text(), spelling).not.toContain("gatekeeper_");
    }
    expect(direct.status, "/metrics on the process itself").toBe(200);

    // --- Browsers through the proxy; each one's web process read from the processes' own socket gauges.
    const [judge, admin] = await Promise.all([login(proxy, event.judges[0].name, FIXTURE_PASSWORD), login(proxy, event.admin.name, FIXTURE_PASSWORD)]);
    const home = new Map<LiveClient, WebProcess>();
    /** Where the proxy sends each participant's requests while both processes are up (the socket's process then). */
    const routeOf = new Map<string, WebProcess>();
    const userOf = new Map<LiveClient, (typeof event.teams)[number]>();
    const connect = async (index: number, transports?: Array<"websocket" | "polling">) => {
      const member = event.teams[index % event.teams.length];
      const viewer = member.participant;
      const cookie = await login(proxy, viewer.name, FIXTURE_PASSWORD);
      const before = await Promise.all(webs.map((web) => web.sockets()));
      const client = await LiveClient.connect(
        `${viewer.name}${transports ? " (polling)" : ""}`,
        proxy,
        cookie,
        async () => (await getScoreboard({ id: viewer.id, role: viewer.role, teamId: viewer.teamId })).teams,
        { transports, readUnread: () => countUnreadAnnouncements(viewer.id) },
      );
      clients.push(client);
      const after = await Promise.all(webs.map((web) => web.sockets()));
      const on = webs.find((_web, i) => after[i] > before[i]);
      if (!on) throw new Error(`cannot tell which process holds ${client.label}'s socket`);
      home.set(client, on);
      if (!transports) routeOf.set(cookie, on);
      userOf.set(client, member);
      return { client, cookie };
    };
    const cookies: string[] = [];
    for (let index = 0; index < TEAMS; index++) cookies.push((await connect(index)).cookie);
    // Sessions are spread by their cookie: sign in again (another session) until each process holds a browser.
    for (let extra = 0; webs.some((web) => ![...home.values()].includes(web)) && extra < 16; extra++) cookies.push((await connect(extra)).cookie);
    const { client: poller } = await connect(1, ["polling"]);
    const websocketClients = clients.filter((client) => client !== poller);
    /** Browsers that keep reloading pages: two whose requests go to each process. */
    const reloaders = webs.flatMap((web) => cookies.filter((cookie) => routeOf.get(cookie) === web).slice(0, 2));
    expect(
      webs.map((web) => websocketClients.filter((client) => home.get(client) === web).length).every((n) => n > 0),
      "a browser on each process",
    ).toBe(true);
    observations.push(
      `${clients.length} browsers through the proxy: ${webs.map((web) => `${clients.filter((client) => home.get(client) === web).length} on ${web.name}`).join(", ")}; one long-polling only (on ${home.get(poller)!.name})`,
    );

    // --- (a) A judge's score through one process reaches a participant whose socket is on the other.
    const judgeFrom = nextAddress();
    await requestFrom(judgeFrom, `${proxy}/healthz`, { headers: { cookie: judge } });
    const judgeOn = webAt((await servedFrom(judgeFrom)).upstreams[0])!;
    const watcher = websocketClients.find((client) => home.get(client) !== judgeOn)!;
    const watchedTeam = userOf.get(watcher)!.team.id;
    const scored = event.submissions.find((submission) => submission.teamId === watchedTeam)!;
    const seenBefore = { watcher: watcher.standings.get(watchedTeam)?.version ?? -1, poller: poller.standings.get(watchedTeam)?.version ?? -1 };
    const scoreFrom = nextAddress();
    const scoredAt = Date.now();
    const score = await postFormFrom(scoreFrom, `${proxy}/dashboard/submissions`, judge, { submissionId: String(scored.id), score: String(scored.points - 1) });
    const scoreServedBy = webAt((await servedFrom(scoreFrom)).upstreams[0]);
    const acrossMs = await waitFor(() => (watcher.standings.get(watchedTeam)?.version ?? -1) > seenBefore.watcher, 10_000, scoredAt);
    const pollerMs = await waitFor(() => (poller.standings.get(watchedTeam)?.version ?? -1) > seenBefore.poller, 10_000, scoredAt);
    observations.push(
      `live across processes: the judge's score went through ${scoreServedBy?.name} (HTTP ${score.status}); the participant on ${home.get(watcher)!.name} had the teams:update ${acrossMs} ms after it was sent, the long-polling client ${pollerMs} ms`,
    );
    if (score.status === 302) scoresSaved++;
    expect(score.status).toBe(302);
    expect(scoreServedBy, "the judge stays on one process").toBe(judgeOn);
    expect(acrossMs, "teams:update on the other process").not.toBeNull();

    // An announcement from the admin: every browser counts it, as the server does.
    const announced = await postFormFrom(nextAddress(), `${proxy}/dashboard?index`, admin, { title: "Drill", content: "Through the proxy" });
    expect(announced.status).toBe(302);
    /** Browsers whose board or unread count differ from what the server says for their user. */
    const mismatches = async () => {
      const wrongViews: string[] = [];
      for (const client of clients) {
        const viewer = userOf.get(client)!.participant;
        const [board, unread] = await Promise.all([getScoreboard({ id: viewer.id, role: viewer.role, teamId: viewer.teamId }), countUnreadAnnouncements(viewer.id)]);
        const stale = board.teams.filter((team) => client.standings.get(team.id)?.totalScore !== team.totalScore);
        if (stale.length > 0 || client.unread !== unread) wrongViews.push(`${client.label}: ${stale.length} stale teams, unread ${client.unread} (server ${unread})`);
      }
      return wrongViews;
    };
    const countedMs = await waitFor(async () => (await mismatches()).length === 0, 5_000);
    expect(countedMs, (await mismatches()).join("; ")).not.toBeNull();

    // --- (b) The long-polling client: polling all along, every one of its requests answered by one process.
    const polls = nginx.accessLog().filter((line) => line.transport === "polling");
    const pollServers = new Set(polls.flatMap((line) => line.upstreams));
    observations.push(
      `long-polling only: ${polls.length} polling requests so far, all answered by ${[...pollServers].map((address) => webAt(address)?.name).join(", ")} (transport: ${poller.transport})`,
    );
    expect(poller.transport).toBe("polling");
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect([...pollServers]).toEqual([home.get(poller)!.address]);
    expect(pollerMs, "the polling client receives live events").not.toBeNull();

    // --- (d) The app's own limits hold behind the proxy.
    const participant = cookies[0];
    const tooLargeText = messages.errors.bodyTooLarge(FORM_MAX_BYTES);
    const declared = await rawExchange(
      proxyPort,
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${proxyPort}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 52428800\r\n\r\n`,
      null,
      5_000,
    );
    const bigForm = await requestFrom(nextAddress(), `${proxy}/login`, {
      method: "POST",
      headers: { origin: proxy, "content-type": "application/x-www-form-urlencoded" },
      body: `username=${"a".repeat(300 * 1024)}&password=x`,
    }).catch((error: unknown) => ({ status: String(error), body: "", ms: 0 }));
    const chunked = oversizedBodies(proxy, 3);
    await chunked.stop();
    const slowStarted = Date.now();
    const slow = await rawExchange(
      proxyPort,
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${proxyPort}\r\nOrigin: http://127.0.0.1:${proxyPort}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n`,
      { chunk: Buffer.from("a"), count: 200, everyMs: 500 },
      BODY_DEADLINE_MS + 10_000,
    );
    const slowMs = Date.now() - slowStarted;
    // Pages while 40 slow bodies hold connections through the proxy.
    const quiet = await pageLoads(proxy, participant, fullDrills ? 300 : 100);
    const slowCrowd = slowBodies(proxyPort, 40);
    await sleep(500);
    // Past the deadline, so that the app has ended every one of the first 40 meanwhile.
    const [underSlow] = await Promise.all([pageLoads(proxy, participant, fullDrills ? 300 : 100), sleep(BODY_DEADLINE_MS + 1_000)]);
    const slowEndings = answers(slowCrowd.endings);
    slowCrowd.stop();
    // An upload declared at 200 MiB, sent by a visitor: the app refuses it (302 to the login) from its
    // headers, which only happens if nginx neither buffers the body first nor refuses its size.
    const boundary = "gkdrillboundary";
    const upload = await rawExchange(
      proxyPort,
      `POST /submition/${event.challenges[2].id}/upload HTTP/1.1\r\nHost: 127.0.0.1:${proxyPort}\r\nOrigin: http://127.0.0.1:${proxyPort}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${200 * MiB}\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
      { chunk: Buffer.alloc(64 * 1024, 0x61), count: 32, everyMs: 20 },
      5_000,
    );
    observations.push(
      `bodies through the proxy: a form declaring 50 MB: HTTP ${declared.status} from the app ("${declared.text.trim().slice(0, 40)}…"); a 300 KB form: HTTP ${bigForm.status}; 4 MB chunked API bodies: ${answers(chunked.statuses)}; a form sent a byte every 500 ms: HTTP ${slow.status} after ${slowMs} ms (deadline ${BODY_DEADLINE_MS} ms)`,
      `pages through the proxy (p50/p99): ${percentile(quiet.ms, 50)}/${percentile(quiet.ms, 99)} ms quiet, ${percentile(underSlow.ms, 50)}/${percentile(underSlow.ms, 99)} ms under 40 slow bodies (ended by the app meanwhile: ${slowEndings || "none"}); failed: ${quiet.failed + underSlow.failed}`,
      `an upload declared at 200 MiB, from a visitor: the app's answer (HTTP ${upload.status}, to the login) after ${upload.ms} ms, with ${(upload.sentBytes / MiB).toFixed(2)} MiB of the body sent: nginx neither refused its size nor waited for its body`,
    );
    if (fullDrills) {
      // The full drill sends a whole 200 MiB submission through the proxy.
      const whole = await postMultipart(`${proxy}/submition/${event.challenges[2].id}/upload`, participant, [
        { name: "text", value: "200 MiB through the proxy" },
        { name: "file", filename: "large.bin", body: pacedFile(200 * MiB, MiB, 0) },
      ]);
      if (whole.status === 200 && (JSON.parse(whole.body) as { created?: boolean }).created) uploadsCreated++;
      observations.push(`a 200 MiB submission through the proxy: HTTP ${whole.status} after ${(whole.ms / 1000).toFixed(1)} s (${(200 / (whole.ms / 1000)).toFixed(0)} MiB/s into storage)`);
      expect(whole.status, "a 200 MiB upload through the proxy").toBe(200);
    }
    expect(declared.status).toBe(413);
    expect(declared.text).toContain(tooLargeText);
    expect(bigForm.status).toBe(413);
    expect(bigForm.body).toContain(tooLargeText);
    expect([...chunked.statuses.keys()].every((status) => status === 413 || status === "reset"), answers(chunked.statuses)).toBe(true);
    expect(slow.status).toBe(408);
    expect(slow.text).toContain(messages.errors.bodyTooSlow);
    expect(slowMs).toBeLessThan(BODY_DEADLINE_MS + 2_000);
    expect(quiet.failed + underSlow.failed, "page loads that failed").toBe(0);
    expect(percentile(underSlow.ms, 99)).toBeLessThan(1_000);
    expect(slowCrowd.endings.get("408"), "slow bodies ended by the app's deadline").toBeGreaterThanOrEqual(40);
    expect(upload.status, "the app's answer to a visitor's upload").toBe(302);
    expect(upload.sentBytes).toBeLessThan(2 * MiB + 1);

    // --- (c) A web process killed (-9) mid-event: the one holding the long-polling client.
    const victim = home.get(poller)!;
    const survivor = webs.find((web) => web !== victim)!;
    const onVictim = clients.filter((client) => home.get(client) === victim);
    const reconnectsBefore = new Map(clients.map((client) => [client, client.reconnects.length]));
    const logBeforeKill = nginx.accessLog().length;
    const duringKill = pageStream(proxy, reloaders);
    await sleep(300);
    const killedAt = Date.now();
    // Watched from now on, while the drill goes on.
    const moved = waitFor(() => onVictim.every((client) => client.connected && client.reconnects.length > reconnectsBefore.get(client)!), 15_000, killedAt);
    await victim.stop("SIGKILL");
    // While its browsers are away: a score for every team watched from there, and an announcement.
    const missedTeams = [...new Set(onVictim.map((client) => userOf.get(client)!.team.id))];
    const missedScores = await Promise.all(
      missedTeams.map((teamId) => {
        const submission = event.submissions.find((candidate) => candidate.teamId === teamId && candidate.id !== scored.id)!;
        return postFormFrom(nextAddress(), `${proxy}/dashboard/submissions`, judge, { submissionId: String(submission.id), score: String(submission.points - 2) });
      }),
    );
    scoresSaved += missedScores.filter((result) => result.status === 302).length;
    const missedAnnouncement = await postFormFrom(nextAddress(), `${proxy}/dashboard?index`, admin, { title: "Drill 2", content: "While a process was down" });
    const movedMs = await moved;
    await duringKill.stop();
    const survivorSockets = await survivor.sockets();
    await waitForEmptyOutbox(20_000);
    const settledMs = await waitFor(async () => (await mismatches()).length === 0, 10_000, killedAt);
    const stillWrong = await mismatches();
    const missedLive = onVictim.filter((client) => client.announcements.size < 2).length;
    const retriedDuringKill = nginx.accessLog().slice(logBeforeKill).filter((line) => line.upstreams.length > 1).length;
    for (const client of onVictim) home.set(client, survivor);
    observations.push(
      `kill -9 of ${victim.name}: its ${onVictim.length} browsers connected to ${survivor.name} after ${movedMs ?? "> 15000"} ms (${survivor.name} now holds ${survivorSockets}); the scores (${missedScores.map((result) => result.status).join(", ")}) and the announcement (${missedAnnouncement.status}) sent meanwhile went through ${survivor.name}`,
      `after the kill: ${missedLive} of ${onVictim.length} moved browsers never got the announcement live and have it from the re-read on reconnect; every board and unread count equal the server's ${settledMs ?? "never"} ms after the kill`,
      `pages during the kill: ${duringKill.total} loads, ${answers(duringKill.statuses)}; requests tried on ${victim.name} first and answered by ${survivor.name}: ${retriedDuringKill}`,
    );
    expect(missedScores.every((result) => result.status === 302)).toBe(true);
    expect(missedAnnouncement.status).toBe(302);
    expect(movedMs, "browsers of the killed process reconnected").not.toBeNull();
    expect(movedMs!).toBeLessThan(MOVED_LIMIT_MS);
    expect(survivorSockets).toBe(clients.length);
    expect(stillWrong).toEqual([]);

    // Back on its port, as an orchestrator restarts it.
    await victim.start();

    /**
     * How long until the proxy sends this process's participants to it again: after a failed connection
     * nginx leaves it alone for fail_timeout (5 s). Stopping the other one before then leaves no process
     * nginx is willing to try.
     */
    const takenBack = async (web: WebProcess) => {
      const cookie = cookies.find((candidate) => routeOf.get(candidate) === web)!;
      return waitFor(async () => {
        const from = nextAddress();
        await requestFrom(from, `${proxy}/healthz`, { headers: { cookie } });
        if ((await servedFrom(from)).upstreams.at(-1) === web.address) return true;
        await sleep(100);
        return false;
      }, 15_000);
    };
    const victimBackMs = await takenBack(victim);
    /** Where the proxy sends a cookie's requests now (both processes up). */
    const routeNow = async (cookie: string) => {
      const from = nextAddress();
      await requestFrom(from, `${proxy}/healthz`, { headers: { cookie } });
      return webAt((await servedFrom(from)).upstreams.at(-1));
    };
    // A judge signed in on each process, to post scores to the one being restarted.
    const judges = new Map<WebProcess, string>([[judgeOn, judge]]);
    for (let tries = 0; judges.size < webs.length && tries < 16; tries++) {
      const cookie = await login(proxy, event.judges[0].name, FIXTURE_PASSWORD);
      const on = await routeNow(cookie);
      if (on && !judges.has(on)) judges.set(on, cookie);
    }
    observations.push(`${victim.name} restarted on its port; the proxy sent its participants to it again after ${victimBackMs ?? "> 15000"} ms`);
    expect(victimBackMs).not.toBeNull();

    // --- (e) A rolling restart: each process in turn told to stop (SIGTERM) while pages load through the proxy.
    const restarts: Array<{ name: string; moved: number; exitMs: number; backMs: number | null; startMs: number; takenBackMs: number | null; upload: string; pages: string; retried: number }> = [];
    // Each time the process holding every browser (they all moved to the survivor, then move at each stop).
    const order = fullDrills ? [survivor, victim, survivor, victim] : [survivor];
    let allPages = { total: 0, failed: 0 };
    let allPosts = { total: 0, failed: 0 };
    for (const web of order) {
      // A participant whose requests the proxy sends to this process uploads a file through it.
      const uploader = cookies.find((cookie) => routeOf.get(cookie) === web)!;
      const logBefore = nginx.accessLog().length;
      const reconnects = new Map(clients.map((client) => [client, client.reconnects.length]));
      const leaving = clients.filter((client) => home.get(client) === web);
      const pages = pageStream(proxy, reloaders);
      const posts = judges.has(web) ? scoreStream(proxy, judges.get(web)!, scored) : null;
      await sleep(300);
      let sentBytes = 0;
      const uploading = postMultipart(`${proxy}/submition/${event.challenges[2].id}/upload`, uploader, [
        { name: "text", value: "sent during a restart" },
        { name: "file", filename: "restart.bin", body: pacedFile(6 * MiB, 256 * 1024, 40, (sent) => (sentBytes = sent)) },
      ]);
      await waitFor(() => sentBytes >= 1 * MiB, 10_000);
      const termAt = Date.now();
      const back = waitFor(() => clients.every((client) => client.connected) && leaving.every((client) => client.reconnects.length > reconnects.get(client)!), 15_000, termAt);
      const exitMs = await web.stop("SIGTERM");
      const uploaded = await uploading;
      const backMs = await back;
      const startMs = await web.start();
      const takenBackMs = await takenBack(web);
      await pages.stop();
      await posts?.stop();
      for (const client of leaving) home.set(client, webs.find((other) => other !== web)!);
      if (uploaded.status === 200 && (JSON.parse(uploaded.body) as { created?: boolean }).created) uploadsCreated++;
      const retried = nginx
        .accessLog()
        .slice(logBefore)
        .filter((line) => line.upstreams.length > 1).length;
      allPages = { total: allPages.total + pages.total, failed: allPages.failed + pages.failed };
      for (const [status, n] of posts?.statuses ?? []) allPosts = { total: allPosts.total + n, failed: allPosts.failed + (status === 302 ? 0 : n) };
      restarts.push({
        name: web.name,
        moved: leaving.length,
        exitMs,
        backMs,
        startMs,
        takenBackMs,
        upload: `HTTP ${uploaded.status} after ${uploaded.ms} ms`,
        pages: `${pages.total} loads, ${answers(pages.statuses)}, p99 ${percentile(pages.ms, 99)} ms; a judge's score posts: ${posts ? answers(posts.statuses) : "none (no judge session there)"}`,
        retried,
      });
    }
    await waitForEmptyOutbox(20_000);
    const finalMs = await waitFor(async () => (await mismatches()).length === 0, 10_000);
    const finalWrong = await mismatches();
    const scoresAfter = await countRows(submissionScores);
    const submissionsAfter = await countRows(submissions);
    for (const restart of restarts) {
      observations.push(
        `SIGTERM to ${restart.name}: exited after ${restart.exitMs} ms, its in-flight upload ${restart.upload}; its ${restart.moved} browsers connected to the other after ${restart.backMs ?? "> 15000"} ms; restarted in ${restart.startMs} ms and taken back by the proxy ${restart.takenBackMs ?? "> 15000"} ms later; pages meanwhile: ${restart.pages}; requests tried on ${restart.name} first and answered by the other: ${restart.retried}`,
      );
    }
    // Form posts are recorded, not asserted: one sent in the instant a process closes its listening socket
    // can be reset after it was sent, and nginx never sends a POST twice (decision 023).
    observations.push(
      `through the proxy during the restart${order.length > 1 ? "s" : ""}: ${allPages.total} page loads, ${allPages.failed} failed; ${allPosts.total} form posts (a judge's score), ${allPosts.failed} failed`,
    );
    observations.push(`after the restarts: every board and unread count equal the server's (${finalMs ?? "never"} ms); the long-polling client reconnected ${poller.reconnects.length} times in all`);

    // Last, every web process gone at once: the proxy answers with the app's words, not an nginx page.
    await Promise.all(webs.map((web) => web.stop("SIGKILL")));
    const noneLeft = await get(`${proxy}/gates`, cookies[0]);
    observations.push(`no web process left: the proxy answers HTTP ${noneLeft.status} "${noneLeft.body.trim()}"`);

    const slowest = restarts.length > 1 ? ` (slowest of ${restarts.length} restarts)` : "";
    recordDrill({
      drill: "web-tier-scale-out",
      fault: `2 web processes behind nginx (the compose proxy's configuration): one killed (-9), then ${order.length === 1 ? "the other" : "each in turn, twice,"} stopped with SIGTERM and restarted`,
      faults: 1 + order.length,
      observations,
      items: [
        { what: "judge scores (rows)", before: scoresBefore, added: scoresSaved, after: scoresAfter },
        { what: "submissions (rows)", before: submissionsBefore, added: uploadsCreated, after: submissionsAfter },
      ],
      timings: [
        { what: "a judge's score on one process → teams:update on the other", ms: acrossMs ?? 10_000 },
        { what: "browsers of the killed process live on the other", ms: movedMs ?? 15_000, limitMs: MOVED_LIMIT_MS },
        { what: `SIGTERM → every browser connected again${slowest}`, ms: Math.max(...restarts.map((restart) => restart.backMs ?? 15_000)), limitMs: MOVED_LIMIT_MS },
        { what: `SIGTERM → process exited, its in-flight upload finished first${slowest}`, ms: Math.max(...restarts.map((restart) => restart.exitMs)) },
        { what: `restarted process sent traffic again by the proxy${slowest}`, ms: Math.max(...restarts.map((restart) => restart.takenBackMs ?? 15_000)) },
      ],
    });

    for (const restart of restarts) {
      expect(restart.upload, "the in-flight upload finished").toMatch(/^HTTP 200/);
      expect(restart.moved, `browsers on ${restart.name} when it was stopped`).toBeGreaterThan(0);
      expect(restart.backMs, `browsers back after SIGTERM to ${restart.name}`).not.toBeNull();
      expect(restart.backMs!).toBeLessThan(MOVED_LIMIT_MS);
    }
    expect(allPages.failed, "page loads that failed during the rolling restart").toBe(0);
    expect(noneLeft.status).toBe(503);
    expect(noneLeft.body.trim()).toBe(messages.errors.unavailable);
    expect(finalWrong).toEqual([]);
    expect(scoresAfter).toBe(scoresBefore + scoresSaved);
    expect(submissionsAfter).toBe(submissionsBefore + uploadsCreated);
  });
});
