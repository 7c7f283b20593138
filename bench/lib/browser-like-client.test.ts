import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import busboy from "busboy";
import { afterEach, describe, expect, it } from "vitest";
import { browserLikeClient, multipartBody } from "./browser-like-client";

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  socket: unknown;
}

const servers: http.Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done)))));

/** A server that records each request and answers a gzip body (as our compression does for fetch's Accept-Encoding). */
async function recordingServer(answer = gzipSync(Buffer.from("<html>".padEnd(5000, "x")))) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({ method: req.method!, headers: req.headers, body: Buffer.concat(chunks), socket: req.socket });
      if (req.method === "POST") res.writeHead(302, { location: "/elsewhere", "content-length": 0 }).end();
      else res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/html" }).end(answer);
    });
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, answer };
}

describe("the event day's HTTP client", () => {
  it("sends what Node's fetch sends: the server sees the same headers, for a page and for a form's POST", async () => {
    const server = await recordingServer();
    const form = { cookie: "session=a", "content-type": "application/x-www-form-urlencoded" };
    await (await fetch(`${server.url}/home`, { redirect: "manual", headers: { cookie: "session=a" } })).text();
    await (await fetch(`${server.url}/dashboard`, { method: "POST", redirect: "manual", headers: form, body: new URLSearchParams({ title: "A" }) })).text();
    const client = browserLikeClient();
    await client.request(`${server.url}/home`, { headers: { cookie: "session=a" } });
    await client.request(`${server.url}/dashboard`, { method: "POST", headers: form, body: new URLSearchParams({ title: "A" }).toString() });
    client.close();
    const [pageByFetch, postByFetch, pageByClient, postByClient] = server.seen;
    const named = (headers: http.IncomingHttpHeaders) => {
      const { host: _host, connection: _connection, ...rest } = headers;
      return rest;
    };
    expect(named(pageByClient.headers)).toEqual(named(pageByFetch.headers));
    expect(named(postByClient.headers)).toEqual(named(postByFetch.headers));
    expect(postByClient.body.equals(postByFetch.body)).toBe(true);
    expect(pageByClient.headers["accept-encoding"]).toBe("gzip, deflate");
  });

  it("gives the status and the body's bytes as they came over the wire, compressed, without following a redirect", async () => {
    const server = await recordingServer();
    const client = browserLikeClient();
    expect(await client.request(`${server.url}/gates`)).toEqual({ status: 200, bytes: server.answer.length });
    const posted = await client.request(`${server.url}/dashboard`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "title=A&content=B" });
    client.close();
    // Not followed: the server saw no request for /elsewhere.
    expect(posted.status).toBe(302);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1].body.toString()).toBe("title=A&content=B");
    expect(server.seen[1].headers["content-length"]).toBe("17");
    // One kept-alive connection for both, as fetch keeps them.
    expect(server.seen[1].socket).toBe(server.seen[0].socket);
  });

  it("builds a multipart form that a multipart parser reads back: the fields, then the file's bytes", async () => {
    const server = await recordingServer();
    const file = Uint8Array.from({ length: 70_000 }, (_, index) => index % 251);
    const form = multipartBody({ text: "Our answer" }, [{ name: "file", fileName: "answer.pdf", bytes: file }]);
    const client = browserLikeClient();
    await client.request(`${server.url}/submition/3/upload`, { method: "POST", headers: { "content-type": form.contentType }, body: form.body });
    client.close();
    const { headers, body } = server.seen[0];
    const read = await new Promise<{ fields: Record<string, string>; files: Array<{ name: string; fileName: string; type: string; bytes: Buffer }> }>((done, fail) => {
      const fields: Record<string, string> = {};
      const files: Array<{ name: string; fileName: string; type: string; bytes: Buffer }> = [];
      const parser = busboy({ headers });
      parser.on("field", (name, value) => (fields[name] = value));
      parser.on("file", (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => files.push({ name, fileName: info.filename, type: info.mimeType, bytes: Buffer.concat(chunks) }));
      });
      parser.on("close", () => done({ fields, files }));
      parser.on("error", fail);
      parser.end(body);
    });
    expect(read.fields).toEqual({ text: "Our answer" });
    expect(read.files).toHaveLength(1);
    expect(read.files[0]).toMatchObject({ name: "file", fileName: "answer.pdf", type: "application/octet-stream" });
    expect(read.files[0].bytes.equals(Buffer.from(file))).toBe(true);
  });
});
