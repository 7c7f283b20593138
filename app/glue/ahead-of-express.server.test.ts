import { createServer, IncomingMessage, ServerResponse, type Server } from "node:http";
import { connect, Socket } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { aheadOfExpress, answerFailure, assertPageReadsRunExpressMiddleware, mountMatches, routeMatches, type Step } from "./ahead-of-express.server.ts";
import { appendHeader } from "./remix-express.server.ts";

describe("which paths an Express route claims", () => {
  it("a route: any letter case, one trailing slash at most", () => {
    for (const path of ["/healthz", "/HEALTHZ", "/Healthz/"]) expect(routeMatches("/healthz", path)).toBe(true);
    for (const path of ["/healthz//", "/healthzx", "/healthz/x", "/%68ealthz", "/"]) expect(routeMatches("/healthz", path)).toBe(false);
  });

  it("a mount: the prefix in any letter case, then a slash or the end", () => {
    for (const path of ["/build", "/BUILD/", "/build/entry.js", "/Build/x/y"]) expect(mountMatches("/build", path)).toBe(true);
    for (const path of ["/buildx", "/builds/x", "/", "/x/build"]) expect(mountMatches("/build", path)).toBe(false);
  });
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A web process in miniature: the branch first, then Express with the same steps; what each request met. */
async function serve(steps: Step[], options: { trustProxy?: string; onError?: (error: unknown, res: ServerResponse) => void; noAnswer?: boolean } = {}) {
  const app = express();
  app.set("trust proxy", options.trustProxy ?? "loopback");
  const seen: Array<{ via: "ahead" | "express"; ip: string | undefined; protocol: string; hostname: string | undefined; path: string; plainResponse: boolean }> = [];
  const record =
    (via: "ahead" | "express"): Step =>
    (req, res, next) => {
      seen.push({ via, ip: req.ip, protocol: req.protocol, hostname: req.hostname, path: req.path, plainResponse: Object.getPrototypeOf(res) === ServerResponse.prototype });
      next();
    };
  const answer: Step = (_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    res.end("ok");
  };
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.use(...steps, record("express"), answer);
  const failures: unknown[] = [];
  const ahead = aheadOfExpress({
    app,
    claimedByExpress: (path) => routeMatches("/healthz", path),
    steps: [...steps, record("ahead"), ...(options.noAnswer ? [] : [answer])],
    onError: (error, _req, res) => {
      failures.push(error);
      if (options.onError) return options.onError(error, res);
      res.statusCode = 500;
      res.end("failed");
    },
  });
  server = createServer((req, res) => {
    if (!ahead(req, res)) app(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return { base, seen, failures };
}

describe("page reads ahead of Express", () => {
  it("a GET or HEAD goes ahead with Express's own request facts and Node's plain response; other methods and claimed paths go to Express", async () => {
    const order: string[] = [];
    const step =
      (name: string): Step =>
      (_req, _res, next) => {
        order.push(name);
        next();
      };
    const nextNull: Step = (_req, _res, next) => next(null);
    const { base, seen } = await serve([step("first"), nextNull, step("second")]);
    const headers = { "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "gates.example:8443" };
    expect(await (await fetch(`${base}/gate/3?x=1`, { headers })).text()).toBe("ok");
    expect((await fetch(`${base}/gates`, { method: "HEAD" })).status).toBe(200);
    expect(await (await fetch(`${base}/gate/3?x=1`, { method: "POST", headers })).text()).toBe("ok");
    expect(await (await fetch(`${base}/HEALTHZ/`)).json()).toEqual({ status: "ok" });
    expect(order).toEqual(["first", "second", "first", "second", "first", "second"]);
    // Behind a trusted proxy (loopback here) both read the client, the scheme and the host from its headers.
    expect(seen).toEqual([
      { via: "ahead", ip: "203.0.113.7", protocol: "https", hostname: "gates.example", path: "/gate/3", plainResponse: true },
      { via: "ahead", ip: "127.0.0.1", protocol: "http", hostname: "127.0.0.1", path: "/gates", plainResponse: true },
      { via: "express", ip: "203.0.113.7", protocol: "https", hostname: "gates.example", path: "/gate/3", plainResponse: false },
    ]);
  });

  it("an untrusted client's forwarding headers are ignored, as Express ignores them", async () => {
    const { base, seen } = await serve([], { trustProxy: "10.0.0.0/8" });
    const headers = { "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" };
    await fetch(`${base}/gates`, { headers });
    await fetch(`${base}/gates`, { method: "POST", headers });
    expect(seen.map(({ ip, protocol, hostname }) => ({ ip, protocol, hostname }))).toEqual([
      { ip: "127.0.0.1", protocol: "http", hostname: "127.0.0.1" },
      { ip: "127.0.0.1", protocol: "http", hostname: "127.0.0.1" },
    ]);
  });

  it("a step that throws, rejects or passes an error on: the error handler answers, and the steps after it never run", async () => {
    const failing: Array<Step> = [
      () => {
        throw new Error("thrown");
      },
      async () => {
        throw new Error("rejected");
      },
      (_req: Request, _res: Response, next: NextFunction) => next(new Error("passed on")),
    ];
    for (const failure of failing) {
      const { base, seen, failures } = await serve([failure]);
      const response = await fetch(`${base}/gates`);
      expect(response.status).toBe(500);
      expect(failures).toHaveLength(1);
      expect(seen).toEqual([]);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });
});

describe("page reads ahead of Express: what Express would answer itself", () => {
  /** One request as raw bytes on a fresh connection; the answer's first line. */
  const rawRequest = (base: string, lines: string) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(base);
      const socket = connect(Number(url.port), url.hostname, () => socket.write(lines));
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("end", () => resolve(answer.split("\r\n")[0] ?? ""));
      socket.on("error", reject);
    });

  it("a request target Express's parser throws on goes to Express, and the process serves on", async () => {
    const { base, seen } = await serve([]);
    const first = await rawRequest(base, "GET http://[::1/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(first).toMatch(/^HTTP\/1\.1 [45]\d\d /);
    expect(await (await fetch(`${base}/gates`)).text()).toBe("ok");
    expect(seen.map(({ via }) => via)).toEqual(["ahead"]);
  });

  it("steps that all pass the request on: a 404, as Express's final handler", async () => {
    const { base } = await serve([], { noAnswer: true });
    const response = await fetch(`${base}/gates`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not Found");
  });

  it("a failed step's answer: a 500 of known length, a policy that runs nothing, no header describing another body", async () => {
    const encoded: Step = (_req, res, next) => {
      res.setHeader("Content-Encoding", "br");
      res.setHeader("Content-Security-Policy", "script-src 'self' 'nonce-x'");
      next(new Error("failed after its headers"));
    };
    const { base, failures } = await serve([encoded], { onError: (_error, res) => answerFailure(res) });
    const response = await fetch(`${base}/gates`);
    expect(response.status).toBe(500);
    expect(failures).toHaveLength(1);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-length")).toBe("21");
    expect(await response.text()).toBe("Internal Server Error");
  });
});

describe("a Remix answer's headers, as Express's res.append adds them", () => {
  /** A response nobody sends: only its headers are looked at. */
  const response = () => new ServerResponse(new IncomingMessage(new Socket()));

  it("the same headers as Express gives, for each case", () => {
    const cases: Array<{ before: Record<string, string | string[]>; added: Array<[string, string]> }> = [
      { before: {}, added: [["Content-Type", "text/html; charset=utf-8"]] },
      { before: {}, added: [["content-type", "text/x-script"]] },
      { before: {}, added: [["content-type", "application/json"]] },
      { before: {}, added: [["content-type", "application/octet-stream"]] },
      { before: {}, added: [["content-type", "text/plain;charset=latin1"]] },
      { before: {}, added: [["set-cookie", "a=1"], ["set-cookie", "b=2"], ["set-cookie", "c=3"]] },
      { before: { "Set-Cookie": "z=0" }, added: [["set-cookie", "a=1"]] },
      { before: { "X-Frame-Options": "SAMEORIGIN" }, added: [["x-frame-options", "DENY"]] },
      { before: { Vary: ["Accept-Encoding", "Cookie"] }, added: [["vary", "Origin"]] },
      { before: { "Cache-Control": "" }, added: [["cache-control", "no-store"]] },
    ];
    for (const { before, added } of cases) {
      const ours = response();
      const theirs = Object.setPrototypeOf(response(), express.response) as Response;
      for (const [name, value] of Object.entries(before)) {
        ours.setHeader(name, value);
        theirs.setHeader(name, value);
      }
      for (const [name, value] of added) {
        appendHeader(ours, name, value);
        theirs.append(name, value);
      }
      expect(ours.getHeaders()).toEqual(theirs.getHeaders());
    }
  });
});

describe("the page reads' steps are Express's own middleware", () => {
  const step = (name: string): Step => Object.defineProperty((_req: Request, _res: Response, next: NextFunction) => next(), "name", { value: name });
  const [observe, compress, nonce, forgeries, bodies, remix, mounted] = ["observe", "compress", "nonce", "forgeries", "bodies", "remix", "mounted"].map(step);
  const app = express();
  app.use(observe);
  app.use(compress);
  app.use(nonce);
  app.use(forgeries);
  app.get("/healthz", (_req, res) => void res.end());
  app.use("/queues", mounted);
  app.use(bodies);
  app.all("*", remix);

  it("passes when they are the same functions in the same order (routes, mounts and the ones named besides left out)", () => {
    expect(() => assertPageReadsRunExpressMiddleware(app, [compress, nonce, forgeries, bodies], [observe])).not.toThrow();
  });

  it("stops the process when Express runs a middleware the page reads would skip, or the other way round", () => {
    expect(() => assertPageReadsRunExpressMiddleware(app, [compress, nonce, bodies], [observe])).toThrow(/Express runs \[compress, nonce, forgeries, bodies\]/);
    expect(() => assertPageReadsRunExpressMiddleware(app, [compress, nonce, forgeries, bodies, step("extra")], [observe])).toThrow(/page reads ahead of Express run/);
    expect(() => assertPageReadsRunExpressMiddleware(app, [nonce, compress, forgeries, bodies], [observe])).toThrow();
    expect(() => assertPageReadsRunExpressMiddleware(app, [compress, nonce, forgeries, bodies], [])).toThrow(/observe/);
  });
});
