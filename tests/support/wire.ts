/**
 * Requests on the wire to the real web process (server.ts on the production build, `npm run build` first):
 * what the in-process route harness cannot send (a Host header, TRACE, CONNECT) and what it cannot see (the
 * build's own copy of app/ code beside server.ts's, Express's answers, the process's log).
 */
import http from "node:http";
import type { Socket } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";
import { ensureEventSettings, makeChallenge, makeTeam, makeUser } from "./fixtures.ts";
import { startWebServer, stopAll } from "./processes.ts";

export interface WireAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request as a client sends it: any method, any Host, the body's bytes as given. */
export function wireRequest(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string } = {}): Promise<WireAnswer> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: options.method ?? "GET",
        // A body's length always said: Node's client sends a DELETE's or an OPTIONS's body without one otherwise.
        headers: { Connection: "close", ...(options.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(options.body)) }), ...options.headers },
        setHost: !options.headers?.Host,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    // A CONNECT's answer comes as a tunnel: its head parsed, its body on the socket.
    request.on("connect", (response: http.IncomingMessage, socket: Socket, head: Buffer) => {
      const chunks: Buffer[] = [head];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      socket.on("error", reject);
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

export interface WireWorld {
  url: string;
  /** Session cookies (the production `__Host-` cookie) of a participant of a team and of an admin. */
  cookies: { participant: string; admin: string };
  /** An open challenge (gate 1). */
  challengeId: number;
  /** Every line the process wrote to stdout and stderr since it started listening. */
  log: string[];
  /** The lines that are errors: pino's level 50 and above, and anything printed to stderr (a stack). */
  errors(): string[];
}

/** A real web process over an event whose gates are open, for the whole test file. */
export function wireWorldForFile(): WireWorld {
  const world = { log: [] as string[], stderr: [] as string[] } as unknown as WireWorld & { stderr: string[] };
  world.errors = () => [...world.log.filter((line) => /"level":(5|6)\d/.test(line)), ...world.stderr];
  beforeAll(async () => {
    await ensureEventSettings();
    await getDb().execute(sql`insert into gates (number, title, description, opens_at)
      select n, 'Gate ' || n, 'Door ' || n, now() - interval '1 hour' from generate_series(1, 5) n on conflict (number) do nothing`);
    const team = await makeTeam();
    const [participant, admin] = [await makeUser("participant", team.id), await makeUser("admin")];
    world.challengeId = (await makeChallenge({ wave: 1 })).id;
    const web = await startWebServer({}, { stderr: "pipe" });
    web.child.stdout!.on("data", (chunk: Buffer) => world.log.push(...chunk.toString().split("\n").filter(Boolean)));
    web.child.stderr!.on("data", (chunk: Buffer) => world.stderr.push(...chunk.toString().split("\n").filter(Boolean)));
    world.url = web.url;
    world.cookies = { participant: await login(web.url, participant.name, FIXTURE_PASSWORD), admin: await login(web.url, admin.name, FIXTURE_PASSWORD) };
  }, 90_000);
  afterAll(() => stopAll());
  return world;
}

/** What no 4xx of ours may say: Remix's and the status page's words for a fault. */
export const FAULT_WORDS = /Unexpected Server Error|Something broke|Internal Server Error/;
