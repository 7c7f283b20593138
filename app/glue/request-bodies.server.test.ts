import { createServer, type Server } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../modules/messages.ts";
import { admissionQueue } from "./admission.server.ts";
import { bodyRule, boundedBodies, closeGentlyIfIncomplete, FORM_MAX_BYTES, LINGER_MS, withReadBody } from "./request-bodies.server.ts";

const DEADLINE_MS = 600;
let server: Server;
let port: number;
const seen: Array<{ path: string; bytes: number; streamed: boolean }> = [];

beforeAll(async () => {
  const app = express();
  app.use(boundedBodies({ deadlineMs: DEADLINE_MS }));
  // One request served at a time: a slow body must not take the only slot.
  app.use(admissionQueue({ maxActive: 1, maxHoldMs: 5_000, bypass: (req) => bodyRule(req.method, req.path, req.get("content-type")).kind === "stream" }));
  app.all("*", async (req, res) => {
    const body = withReadBody(req);
    let bytes = 0;
    for await (const chunk of body as unknown as AsyncIterable<Buffer>) bytes += chunk.length;
    seen.push({ path: req.path, bytes, streamed: body === req });
    res.type("text/plain").send(`read ${bytes}`);
  });
  server = createServer(app);
  // As server.ts: a refused body's connection closes gently.
  server.prependListener("request", closeGentlyIfIncomplete);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw HTTP and resolves with the status line, the body and how long it took; `chunks` are written `gapMs` apart. */
function raw(head: string, chunks: string[] = [], gapMs = 0): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (data) => (out += data.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(out)?.[1] ?? 0);
      resolve({ status, body: out.split("\r\n\r\n").slice(1).join("\r\n\r\n"), ms: Date.now() - started });
    });
    socket.on("connect", async () => {
      socket.write(head);
      for (const chunk of chunks) {
        if (gapMs) await new Promise((wait) => setTimeout(wait, gapMs));
        if (socket.destroyed) return;
        socket.write(chunk);
      }
    });
    setTimeout(() => reject(new Error(`no answer: ${out}`)), 10_000).unref();
  });
}

const post = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;

describe("bounded request bodies", () => {
  it("answers a declared Content-Length above the limit with 413 from the headers alone", async () => {
    // Not one byte of the 10 MB is sent: the answer comes anyway, at once.
    const answer = await raw(post("/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 10_000_000 }));
    expect(answer.status).toBe(413);
    expect(answer.body).toContain(messages.errors.bodyTooLarge(FORM_MAX_BYTES));
    expect(answer.ms).toBeLessThan(DEADLINE_MS);
  });

  it("cuts off a chunked body that grows past the limit, in the API's shape under /api/", async () => {
    const chunk = "a".repeat(64 * 1024);
    const frames = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answer = await raw(post("/api/v1/announcements", { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }), frames);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ code: "payload_too_large", message: messages.errors.bodyTooLarge(FORM_MAX_BYTES) });
  });

  it("answers in the asked language: the API by Accept-Language, a page by the lang cookie (decision 025)", async () => {
    const tooLarge = { "Content-Type": "application/json", "Content-Length": 10_000_000 };
    const api = await raw(post("/api/v1/announcements", { ...tooLarge, "Accept-Language": "ar" }));
    expect(api.status).toBe(413);
    expect(JSON.parse(api.body)).toEqual({ code: "payload_too_large", message: "الطلب أكبر من 256 KB، وهو أقصى ما يقبله هذا النموذج أو هذا الاستدعاء. لم يُحفظ شيء." });
    const page = await raw(post("/login", { ...tooLarge, "Content-Type": "application/x-www-form-urlencoded", Cookie: "lang=ar" }));
    expect(page.body).toContain("الطلب أكبر من 256 KB");
  });

  it("times out a body that trickles in (408), and meanwhile serves others although only one request is served at a time", async () => {
    const slow = Array.from({ length: 5 }, () =>
      raw(post("/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 100 }), ["u", "s", "e", "r", "n", "a", "m", "e"], 200),
    );
    const normal = await raw(post("/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": 5 }), ["a=b&c"]);
    expect(normal).toMatchObject({ status: 200, body: "read 5" });
    expect(normal.ms).toBeLessThan(DEADLINE_MS);
    for (const answer of await Promise.all(slow)) {
      expect(answer.status).toBe(408);
      expect(answer.body).toBe(messages.errors.bodyTooSlow);
    }
  });

  it("hands a form's exact bytes on, and streams a multipart upload to an upload endpoint untouched", async () => {
    const form = "username=ada&password=lovelace";
    expect(await raw(post("/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": form.length }), [form])).toMatchObject({ status: 200, body: `read ${form.length}` });
    const big = "x".repeat(FORM_MAX_BYTES * 2);
    const upload = await raw(post("/submition/7/upload", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": big.length }), [big]);
    expect(upload).toMatchObject({ status: 200, body: `read ${big.length}` });
    expect(seen.at(-1)).toMatchObject({ path: "/submition/7/upload", streamed: true });
    // Multipart anywhere else is a form like the others: bounded.
    const elsewhere = await raw(post("/login", { "Content-Type": "multipart/form-data; boundary=b", "Content-Length": big.length }));
    expect(elsewhere.status).toBe(413);
  });
});

describe("a connection closed after its answer", () => {
  /** A server that answers /early at once and /read once the body is in; each socket's close, timed from its answer. */
  async function closingServer() {
    const closedAfterAnswer: Record<string, number> = {};
    const server = createServer((req, res) => {
      const answer = () => {
        const answered = Date.now();
        req.socket.once("close", () => (closedAfterAnswer[req.url!] = Date.now() - answered));
        res.end("ok");
      };
      if (req.url === "/early") return answer();
      req.resume();
      req.once("end", answer);
    });
    server.prependListener("request", closeGentlyIfIncomplete);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, port: (server.address() as AddressInfo).port, closedAfterAnswer };
  }

  it("stays open LINGER_MS for a client still owing body bytes, and closes at once when the body was all received", async () => {
    const { server, port, closedAfterAnswer } = await closingServer();
    const clients: net.Socket[] = [];
    try {
      for (const [path, sent] of [["/early", "abc"], ["/read", "abcdefghij"]] as const) {
        // Half-open and quiet after its bytes: the server decides when the connection ends.
        const client = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
        client.on("error", () => {});
        clients.push(client);
        client.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 10\r\n\r\n${sent}`);
      }
      await expect.poll(() => Object.keys(closedAfterAnswer).length, { timeout: LINGER_MS + 5_000 }).toBe(2);
      expect(closedAfterAnswer["/read"]).toBeLessThan(LINGER_MS / 2);
      expect(closedAfterAnswer["/early"]).toBeGreaterThanOrEqual(LINGER_MS - 50);
    } finally {
      for (const client of clients) client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
