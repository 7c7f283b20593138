/**
 * How the web process sends what it answers (app/glue/remix-express.server.ts): a page rendered whole goes
 * out as one body of a known length, plain or compressed, and HEAD, `.data`, redirects and not-found pages
 * still answer as Remix makes them. Seen on the wire of a real web process.
 */
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { signedInWebForFile } from "../support/signed-in-web.ts";

const session = signedInWebForFile();

/** One request as it comes off the wire: status, headers and the raw bytes of the body. */
function raw(path: string, { method = "GET", encoding = "identity", withCookie = true } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(`${session.web.url}${path}`, { method, headers: { "Accept-Encoding": encoding, ...(withCookie ? { Cookie: session.cookie } : {}) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a page's answer", () => {
  it("is the whole page with its length, not chunks", async () => {
    const page = await raw("/gates");
    expect(page.status).toBe(200);
    expect(page.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(page.headers["content-length"])).toBe(page.body.length);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = page.body.toString();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("</html>");
    // The headers the routes and server.ts set still come with it.
    expect(page.headers["content-security-policy"]).toMatch(/'nonce-/);
  });

  it("read ahead of Express (server.ts), with every security header an Express answer carries, the same", async () => {
    // /healthz is answered by an Express route, a page read ahead of Express's router: the same functions.
    const [page, viaExpress, head] = await Promise.all([raw("/gate/3", { encoding: "gzip" }), raw("/healthz", { encoding: "gzip" }), raw("/gates", { method: "HEAD" })]);
    const security = (headers: http.IncomingHttpHeaders) => {
      const {
        date: _date,
        connection: _connection,
        "keep-alive": _keepAlive,
        "content-type": _type,
        "content-length": _length,
        "content-encoding": _encoding,
        "transfer-encoding": _transfer,
        etag: _etag,
        vary: _vary,
        "cache-control": _cache,
        "set-cookie": _cookies,
        ...rest
      } = headers;
      return { ...rest, "content-security-policy": String(rest["content-security-policy"]).replace(/'nonce-[^']+'/, "'nonce-…'") };
    };
    expect(page.status).toBe(200);
    expect(Object.keys(security(page.headers)).length).toBeGreaterThanOrEqual(10);
    expect(security(page.headers)).toEqual(security(viaExpress.headers));
    expect(security(head.headers)).toEqual(security(viaExpress.headers));
    // Each answer its own nonce.
    expect(page.headers["content-security-policy"]).not.toBe(head.headers["content-security-policy"]);
    expect(gunzipSync(page.body).toString()).toContain("</html>");
    // A route's spelling in another case is still Express's route, not a page.
    const shouted = await raw("/HEALTHZ/");
    expect(shouted.status).toBe(200);
    expect(JSON.parse(shouted.body.toString())).toEqual({ status: "ok" });
  });

  it("compressed when asked, the same page once unpacked", async () => {
    const page = await raw("/gates", { encoding: "gzip" });
    expect(page.headers["content-encoding"]).toBe("gzip");
    const html = gunzipSync(page.body).toString();
    expect(html).toContain("<!DOCTYPE html>");
    expect(html).toContain("</html>");
  });

  it("HEAD: the page's status and type, no body", async () => {
    const head = await raw("/gates", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("the page's data, a redirect, the not-found page: as Remix makes them", async () => {
    const data = await raw("/gates.data");
    expect(data.status).toBe(200);
    expect(data.body.length).toBeGreaterThan(0);
    const signedOut = await raw("/gates", { withCookie: false });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.location).toMatch(/^\/login/);
    const unknown = await raw("/no-such-page");
    expect(unknown.status).toBe(302);
    expect(unknown.headers.location).toBe("/404");
    const missing = await raw("/404");
    expect(missing.status).toBe(404);
    expect(Number(missing.headers["content-length"])).toBe(missing.body.length);
    expect(missing.body.toString()).toContain("</html>");
  });
});

// Route discovery is off (docs/decisions/052-route-discovery-off.md).
describe("the routes a page knows", () => {
  it("come as the build's manifest file, which the document imports; none inlined", async () => {
    const html = (await raw("/gates")).body.toString();
    const manifest = /import "(\/build\/manifest-[0-9A-Fa-f]+\.js)"/.exec(html)?.[1];
    expect(manifest).toBeDefined();
    expect(html).not.toContain("window.__remixManifest");
    const file = await raw(manifest!);
    expect(file.status).toBe(200);
    // Every route of the build: the admin's pages too (their paths were never secret: discovery served them).
    expect(file.body.toString()).toContain('"routes/dashboard.submissions"');
  });

  it("a page of an earlier build asking for a route is told to reload, at once", async () => {
    const [signedIn, visitor] = await Promise.all([
      raw("/__manifest?p=%2Fgate%2F4&p=%2Fstatus&version=0ld0ld00"),
      raw("/__MANIFEST?p=%2Fgates&version=0ld0ld00", { withCookie: false }),
    ]);
    for (const answer of [signedIn, visitor]) {
      expect(answer.status).toBe(204);
      expect(answer.headers["x-remix-reload-document"]).toBe("true");
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.body.length).toBe(0);
    }
  });
});
