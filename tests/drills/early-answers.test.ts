/**
 * Answers given before a request's body is read, to a client still sending it, as nginx sends it (the body
 * streamed after the answer, `Connection: close`): the answer arrives, and the connection is not reset while
 * the client sends on, for at least half the app's linger (app/glue/request-bodies.server.ts, closeGentlyIfIncomplete).
 * Reset at once, the proxy in front read the reset instead of the answer and showed its 503 page: the web-tier
 * drill met it for a visitor's upload once in a CI run; through nginx it happened to 1 or 2 in 500.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINGER_MS } from "../../app/glue/request-bodies.server.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { seedDrillEvent } from "./support/event.ts";

const MiB = 1024 * 1024;
/** How often the client sends another piece of the body once answered. */
const EVERY_MS = 20;

afterAll(() => stopAll());

interface Exchange {
  status: number | null;
  /** From the server's end of its answer (its FIN) to the connection's end (a reset, or closed), in ms. */
  openAfterAnswerMs: number;
  /** How it ended: "closed" (a FIN, then nothing more accepted), or the socket error's code (a reset). */
  ending: string;
}

/** Sends `head`, then body pieces every EVERY_MS until the server ends the connection. */
function sendOnAfterAnswer(port: number, head: string): Promise<Exchange> {
  return new Promise((resolve) => {
    // Half-open, as nginx: the server's FIN ends its answer, not the client's body.
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const piece = Buffer.alloc(16 * 1024, 0x61);
    let answer = "";
    let answeredAt: number | null = null;
    let ending = "closed";
    // Written at once (queued until connected): the body's pieces come after it, however late the connection is made.
    socket.write(head);
    let timer: NodeJS.Timeout | undefined;
    socket.once("connect", () => {
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(piece);
      }, EVERY_MS);
    });
    const limit = setTimeout(() => socket.destroy(new Error("still open")), LINGER_MS + 15_000);
    socket.on("data", (data) => (answer += data.toString("latin1")));
    socket.once("end", () => (answeredAt = Date.now()));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      ending = error.code ?? error.message;
    });
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(limit);
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1];
      resolve({ status: status ? Number(status) : null, openAfterAnswerMs: answeredAt === null ? -1 : Date.now() - answeredAt, ending });
    });
  });
}

describe("answers before the body", () => {
  let port: number;
  let challengeId: number;
  beforeAll(async () => {
    const event = await seedDrillEvent({ teams: 1, judges: 0, challenges: 1, submittedChallenges: 0 });
    challengeId = event.challenges[0].id;
    port = Number(new URL((await startWebServer()).url).port);
  });

  const head = (method: string, path: string, contentType: string, declared: number, extra = "") =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nConnection: close\r\n` +
    `Content-Type: ${contentType}\r\nContent-Length: ${declared}\r\n${extra}\r\n`;
  const multipart = "multipart/form-data; boundary=gkb";
  const fileStart = `--gkb\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;

  it.each([
    { what: "a visitor's upload, sent to the login", status: 302, make: () => head("POST", `/submition/${challengeId}/upload`, multipart, 200 * MiB) + fileStart },
    { what: "an API upload without a token", status: 401, make: () => head("POST", `/api/v1/challenges/${challengeId}/submission`, multipart, 200 * MiB) + fileStart },
    { what: "a form declaring 50 MB", status: 413, make: () => head("POST", "/login", "application/x-www-form-urlencoded", 50 * MiB) + "username=" },
    { what: "an API call declaring 50 MB", status: 413, make: () => head("POST", `/api/v1/challenges/${challengeId}/flag`, "application/json", 50 * MiB) + '{"flag":"' },
  ])("$what: answered $status, then not reset while the body still comes", async ({ status, make }) => {
    const exchange = await sendOnAfterAnswer(port, make());
    expect(exchange.status).toBe(status);
    // Reset at once, the client's next piece met the reset within a few pieces (under 100 ms).
    expect(exchange.openAfterAnswerMs, `ended by ${exchange.ending}`).toBeGreaterThanOrEqual(LINGER_MS / 2);
    // Then closed: the rest of the body is never waited for.
    expect(exchange.openAfterAnswerMs).toBeLessThan(LINGER_MS + 10_000);
  });
});
