/**
 * The first-blood webhook end to end (docs/domain.md "First-blood webhook"): saved from Dashboard →
 * Settings, queued, delivered by a BullMQ worker to a real HTTPS receiver on this machine (its certificate
 * made here with openssl, trusted by this test only), signed; retried on a 500, given up on a 400 or on an
 * address that is not public; never in the way of the caller when Redis is down; its secret shown once.
 */
import { execFileSync } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker, type Job } from "bullmq";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog } from "../../db/schema.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getLogger } from "../../app/infrastructure/logger.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix, closeQueues, getQueue } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { trustCertificateForTests } from "../../app/modules/webhooks/delivery.server.ts";
import { readWebhookConfig } from "../../app/modules/webhooks/settings.server.ts";
import { enqueueFirstBloodWebhook } from "../../app/modules/webhooks/webhooks.server.ts";
import { action, loader } from "../../app/routes/dashboard.settings.tsx";
import { processFirstBloodWebhook } from "../../workers/processors/first-blood-webhook.ts";
import { DisposableRedis } from "../support/disposable-redis.ts";
import { ensureEventSettings, makeUser, sessionCookie } from "../support/fixtures.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, routeUrl } from "../support/route-manifest.ts";
import { createRouteWorld, worldRoles } from "../support/route-world.ts";

const m = messages.webhooks;

/** A post as the receiver got it: the headers and the raw body, and the status it answered. */
interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status: number;
}

/** A local HTTPS receiver answering the statuses queued in `answers` (then 200). */
class Receiver {
  received: Received[] = [];
  answers: number[] = [];
  port = 0;
  private server: Server;

  constructor(key: string, cert: string) {
    this.server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const status = this.answers.shift() ?? 200;
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "ok" : "no");
      });
    });
  }

  static async start(key: string, cert: string): Promise<Receiver> {
    const receiver = new Receiver(key, cert);
    // Both stacks: "localhost" may name ::1 or 127.0.0.1.
    await new Promise<void>((resolve) => receiver.server.listen({ port: 0, host: "::", ipv6Only: false }, resolve));
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  url(host = "127.0.0.1", pathname = "/hooks/1234/s3cr3t-token") {
    return `https://${host}:${this.port}${pathname}`;
  }

  reset(answers: number[] = []) {
    this.received = [];
    this.answers = answers;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The signature a receiver checks (docs/API.md, "First-blood webhook"): HMAC-SHA256 of `<timestamp>.<raw body>`. */
function verifies(post: Received, secret: string): boolean {
  const timestamp = String(post.headers["x-gatekeeper-timestamp"]);
  const given = String(post.headers["x-gatekeeper-signature"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${post.body}`).digest("hex")}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

function setLoopback(on: boolean) {
  process.env.WEBHOOK_ALLOW_LOOPBACK = on ? "1" : "0";
  resetEnvForTests();
}

let redis: DisposableRedis;
let receiver: Receiver;
let worker: Worker | null = null;
let certDir: string;
let adminCookie: string;

beforeAll(async () => {
  // This file's own Redis: its last test stops it.
  redis = await DisposableRedis.start();
  process.env.REDIS_URL = redis.url;
  setLoopback(true);
  certDir = mkdtempSync(path.join(tmpdir(), "gk-webhook-"));
  const [keyFile, certFile] = [path.join(certDir, "key.pem"), path.join(certDir, "cert.pem")];
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-keyout", keyFile, "-out", certFile, "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
  ], { stdio: "ignore" });
  const cert = readFileSync(certFile, "utf8");
  receiver = await Receiver.start(readFileSync(keyFile, "utf8"), cert);
  trustCertificateForTests(cert);
  worker = new Worker(queues.firstBloodWebhook.name, processFirstBloodWebhook, { connection: createRedis("worker"), prefix: bullPrefix() });
  await ensureEventSettings();
  adminCookie = await sessionCookie((await makeUser("admin")).id);
}, 60_000);

afterAll(async () => {
  await worker?.close();
  trustCertificateForTests(null);
  await receiver?.close();
  await closeQueues();
  await redis?.destroy();
  rmSync(certDir, { recursive: true, force: true });
  delete process.env.WEBHOOK_ALLOW_LOOPBACK;
  resetEnvForTests();
});

const pageUrl = "http://localhost/dashboard/settings";

/** A post of the settings page's form, as the admin. */
async function post(fields: Record<string, string>) {
  const request = new Request(pageUrl, { method: "POST", headers: { Cookie: adminCookie, Origin: "http://localhost" }, body: new URLSearchParams(fields) });
  return answerOf(await callRoute({ action: action as never }, "action", { request, params: {}, context: {} }));
}

type FormAnswer = { intent: string; secret: string | null; result: { error?: Record<string, string[]> } | null };

/** Saves the webhook; the secret, if this save made one. */
async function saveWebhook(url: string, format: "discord" | "slack" = "discord") {
  const answer = await post({ intent: "webhook", url, format });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(400);
  return answer.status === 200 ? (answer.body as FormAnswer).secret : null;
}

let challengeIds = 1000;
const firstBlood = (over: Partial<Parameters<typeof enqueueFirstBloodWebhook>[0]> = {}) => ({
  challengeId: ++challengeIds,
  challengeTitle: "Reverse me",
  category: "CS" as const,
  points: 300,
  teamId: 7,
  teamName: "Null Pointers",
  solvedAt: new Date(),
  ...over,
});

/** The job once it has finished, one way or the other (BullMQ keeps it a while). */
async function settled(jobId: string): Promise<Job> {
  return vi.waitFor(
    async () => {
      const job = await getQueue("firstBloodWebhook").getJob(jobId);
      const state = await job?.getState();
      if (!job || (state !== "completed" && state !== "failed")) throw new Error(`job ${jobId} is ${state ?? "missing"}`);
      return job;
    },
    { timeout: 20_000, interval: 100 },
  );
}

describe("the first-blood webhook", () => {
  let secret: string;

  it("an address is https only and must not be this machine when the test switch is off; the form keeps what was typed", async () => {
    const plain = await post({ intent: "webhook", url: "http://chat.example.org/hook", format: "discord" });
    expect(plain.status).toBe(400);
    expect((plain.body as FormAnswer).result?.error?.url).toEqual([m.httpsOnly]);
    setLoopback(false);
    try {
      for (const url of [receiver.url(), receiver.url("localhost"), "https://[::ffff:127.0.0.1]/x", "https://10.0.0.8/hook", "https://169.254.169.254/latest"]) {
        const refused = await post({ intent: "webhook", url, format: "slack" });
        expect(refused.status, url).toBe(400);
        expect((refused.body as FormAnswer).result?.error?.url, url).toEqual([messages.dashboard.warn(m.urlNotPublic)]);
      }
    } finally {
      setLoopback(true);
    }
    expect(await readWebhookConfig()).toBeNull();
  });

  it("the first save makes the secret and shows it once (no cache keeps it); the page's loader never carries it", async () => {
    const answer = await post({ intent: "webhook", url: receiver.url(), format: "discord" });
    expect(answer.status).toBe(200);
    secret = (answer.body as FormAnswer).secret!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    // A save that changes nothing, or only the format, makes no new secret.
    expect(await saveWebhook(receiver.url(), "discord")).toBeNull();
    const page = await loader({ request: new Request(pageUrl, { headers: { Cookie: adminCookie } }), params: {}, context: {} });
    expect(page.webhook).toEqual({ url: receiver.url(), format: "discord", hasSecret: true });
    expect(JSON.stringify(page)).not.toContain(secret);
  });

  it("delivers a first blood with a valid signature, in Discord's format, names made literal", async () => {
    receiver.reset();
    await enqueueFirstBloodWebhook(firstBlood({ teamName: "@everyone *Null*", challengeTitle: "Reverse <me>" }));
    const job = await settled(`first-blood-${challengeIds}`);
    expect(await job.getState()).toBe("completed");
    expect(receiver.received).toHaveLength(1);
    const [delivered] = receiver.received;
    expect(delivered.headers["content-type"]).toBe("application/json");
    expect(verifies(delivered, secret)).toBe(true);
    expect(verifies({ ...delivered, body: delivered.body.replace("300", "900") }, secret)).toBe(false);
    expect(Math.abs(Number(delivered.headers["x-gatekeeper-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.parse(delivered.body)).toEqual({
      content: "🩸 First blood on Reverse \\<me\\> (CS, 300 points): \\@everyone \\*Null\\*",
      allowed_mentions: { parse: [] },
    });
  });

  it("a 500 is tried again with backoff, and the first blood is delivered once; a second call for the challenge adds nothing", async () => {
    receiver.reset([500]);
    const event = firstBlood();
    await enqueueFirstBloodWebhook(event);
    const job = await settled(`first-blood-${event.challengeId}`);
    expect(await job.getState()).toBe("completed");
    expect(job.attemptsMade).toBe(2);
    expect(receiver.received.map((post) => post.status)).toEqual([500, 200]);
    expect(receiver.received.every((post) => verifies(post, secret))).toBe(true);
    await enqueueFirstBloodWebhook(event);
    expect(await (await getQueue("firstBloodWebhook").getJob(`first-blood-${event.challengeId}`))?.getState()).toBe("completed");
    expect(receiver.received).toHaveLength(2);
  });

  it("Slack's format; another 4xx is given up at once", async () => {
    await saveWebhook(receiver.url(), "slack");
    receiver.reset([404]);
    const event = firstBlood({ teamName: "<!channel> & co" });
    await enqueueFirstBloodWebhook(event);
    const job = await settled(`first-blood-${event.challengeId}`);
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body)).toEqual({ text: "🩸 First blood on Reverse me (CS, 300 points): &lt;!channel&gt; &amp; co", mrkdwn: false });
  });

  it("the test button posts a test message; a new secret is shown once, and signs from then on", async () => {
    receiver.reset();
    const queued = await post({ intent: "webhook-test" });
    expect(queued.status).toBe(302);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(JSON.parse(receiver.received[0].body).text).toMatch(/test message/);
    expect(verifies(receiver.received[0], secret)).toBe(true);

    const renewed = await post({ intent: "webhook-secret" });
    expect(renewed.status).toBe(200);
    const fresh = (renewed.body as FormAnswer).secret!;
    expect(fresh).not.toBe(secret);
    receiver.reset();
    await post({ intent: "webhook-test" });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(verifies(receiver.received[0], fresh)).toBe(true);
    expect(verifies(receiver.received[0], secret)).toBe(false);
    secret = fresh;
  });

  it("a name that resolves to this machine is refused at delivery (no retry) when the test switch is off", async () => {
    await saveWebhook(receiver.url("localhost"), "discord");
    // With the switch on, the name's checked address is the one connected to.
    receiver.reset();
    const allowed = firstBlood();
    await enqueueFirstBloodWebhook(allowed);
    expect(await (await settled(`first-blood-${allowed.challengeId}`)).getState()).toBe("completed");
    expect(receiver.received).toHaveLength(1);

    setLoopback(false);
    try {
      receiver.reset();
      const refused = firstBlood();
      await enqueueFirstBloodWebhook(refused);
      const job = await settled(`first-blood-${refused.challengeId}`);
      expect(await job.getState()).toBe("failed");
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toMatch(/resolves to a loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      setLoopback(true);
    }
  });

  it("turned off (an empty address): nothing is queued", async () => {
    const off = await post({ intent: "webhook", url: "", format: "discord" });
    expect(off.status).toBe(302);
    const event = firstBlood();
    await enqueueFirstBloodWebhook(event);
    expect(await getQueue("firstBloodWebhook").getJob(`first-blood-${event.challengeId}`)).toBeUndefined();
    await saveWebhook(receiver.url(), "discord");
  });

  it("the audit trail records each change, never the secret nor the address's path", async () => {
    const records = await getDb().select().from(auditLog).where(eq(auditLog.kind, "event.webhook"));
    expect(records.length).toBeGreaterThanOrEqual(5);
    const text = JSON.stringify(records);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/whsec_/);
    expect(text).not.toContain("s3cr3t-token");
    expect(records.some((record) => (record.after as Record<string, unknown>).secretIssued === true)).toBe(true);
    expect(records.at(-1)?.after).toMatchObject({ webhook: true, host: `127.0.0.1:${receiver.port}`, format: "discord" });
  });

  it("no page's loader answer carries the secret, for any role", async () => {
    const world = await createRouteWorld();
    const config = await readWebhookConfig();
    expect(config?.secret).toBe(secret);
    let pages = 0;
    for (const route of routeManifest) {
      // Routes with parameters are left out (their loaders read rows the parameters name, not the settings).
      if (/[:*]/.test(routeUrl(route))) continue;
      const module = await loadRouteModule(route);
      if (!module.loader) continue;
      for (const role of worldRoles) {
        const cookie = world.cookies[role];
        const request = new Request(`http://localhost${routeUrl(route)}`, { headers: cookie ? { Cookie: cookie } : {} });
        const answer = answerOf(await callRoute(module, "loader", { request, params: {}, context: {} }));
        const body = answer.body instanceof Response ? await answer.body.text() : JSON.stringify(answer.body ?? null);
        expect(body, `${route.id} as ${role}`).not.toContain(secret);
        pages += 1;
      }
    }
    expect(pages).toBeGreaterThan(50);
  });

  it("with Redis down, queueing a first blood neither throws nor hangs: a warning is logged", async () => {
    await worker?.close();
    worker = null;
    await redis.kill();
    const warn = vi.spyOn(getLogger(), "warn");
    const started = Date.now();
    await expect(enqueueFirstBloodWebhook(firstBlood())).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ challengeId: challengeIds }), expect.stringMatching(/not queued/));
    warn.mockRestore();
  });
});
