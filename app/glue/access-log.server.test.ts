import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { accessLog } from "./access-log.server.ts";

const servers: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A web app with the request log at `level`, answering /ok, /fail (500) and /healthz; the lines it wrote. */
async function logged(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const log = pino({ level }, sink);
  const app = express();
  app.use(accessLog(log, (req) => req.path === "/healthz"));
  app.get("/ok", (_req, res) => void res.send("fine"));
  app.get("/fail", (_req, res) => void res.status(500).send("broken"));
  app.get("/healthz", (_req, res) => void res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const response = await fetch(base + path, { headers: { Cookie: "__gk_session=secret-session", Authorization: "Bearer secret-token" } });
    await response.text();
  };
  /** The lines once `count` have been written (a line is written when the answer has been sent). */
  const written = async (count: number) => {
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(count);
    return lines;
  };
  return { get, written, lines };
}

describe("the request log", () => {
  it("writes one line per request at info: method, path without its query, status, time; never a header", async () => {
    const web = await logged("info");
    await web.get("/ok?token=secret-query");
    await web.get("/fail");
    const [ok, fail] = await web.written(2);
    expect(ok).toMatchObject({ level: 30, msg: "request completed", req: { method: "GET", path: "/ok" }, res: { statusCode: 200 } });
    expect(ok.responseTime).toEqual(expect.any(Number));
    expect(fail).toMatchObject({ level: 50, msg: "request errored", res: { statusCode: 500 } });
    expect(JSON.stringify(web.lines)).not.toMatch(/secret/);
  });

  it("at warn writes only the 5xx; a health probe never", async () => {
    const web = await logged("warn");
    await web.get("/ok");
    await web.get("/healthz");
    await web.get("/fail");
    const lines = await web.written(1);
    expect(lines.map((line) => (line.req as { path: string }).path)).toEqual(["/fail"]);
  });
});
