import { request as httpRequest } from "node:http";

/** What a browser does against the real web process: sign in, open pages, post forms. */

/** The session cookie (name=value) a browser keeps after signing in through /login. */
export async function login(base: string, name: string, password: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ username: name, password }),
    headers: { origin: base },
    redirect: "manual",
  });
  // The production cookie carries the __Host- prefix (app/glue/session.server.ts).
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("__Host-gk_session="));
  if (response.status !== 302 || !cookie) throw new Error(`login of ${name} failed: HTTP ${response.status}`);
  return cookie.split(";")[0];
}

export interface PageResult {
  status: number;
  body: string;
  ms: number;
}

/** A page or endpoint as a signed-in browser gets it, with how long it took. */
export async function get(url: string, cookie?: string): Promise<PageResult> {
  const started = Date.now();
  const response = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual", signal: AbortSignal.timeout(15_000) });
  return { status: response.status, body: await response.text(), ms: Date.now() - started };
}

/** A form post (application/x-www-form-urlencoded), as a page without JavaScript sends it. */
export async function postForm(url: string, cookie: string, fields: Record<string, string>): Promise<PageResult> {
  const started = Date.now();
  const response = await fetch(url, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { cookie, origin: new URL(url).origin },
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.text(), ms: Date.now() - started };
}

export type Part = { name: string; value: string } | { name: string; filename: string; body: AsyncIterable<Uint8Array> };

/** A streamed multipart body, so a test can cut a large upload while it is still being sent. */
export function multipartBody(parts: Part[]) {
  const boundary = `----gkdrill${Math.random().toString(16).slice(2)}`;
  const encoder = new TextEncoder();
  async function* generate() {
    for (const part of parts) {
      if ("value" in part) {
        yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
      } else {
        yield encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        );
        yield* part.body;
        yield encoder.encode("\r\n");
      }
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, stream: generate() };
}

/**
 * Posts a multipart form, streaming the body. The outcome is what the browser would see: the response
 * (the server may answer before the whole body was sent), or the connection failing.
 */
export function postMultipart(url: string, cookie: string, parts: Part[]): Promise<PageResult | { status: "network-error"; error: string; ms: number }> {
  const started = Date.now();
  const { contentType, stream } = multipartBody(parts);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: PageResult | { status: "network-error"; error: string; ms: number }) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = httpRequest(url, {
      method: "POST",
      headers: { cookie, origin: new URL(url).origin, "content-type": contentType, "transfer-encoding": "chunked" },
      timeout: 60_000,
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => settle({ status: response.statusCode ?? 0, body, ms: Date.now() - started }));
      response.on("error", (error) => settle({ status: "network-error", error: error.message, ms: Date.now() - started }));
    });
    request.on("error", (error: NodeJS.ErrnoException) => settle({ status: "network-error", error: error.code ?? error.message, ms: Date.now() - started }));
    request.on("timeout", () => request.destroy(new Error("timeout")));
    void (async () => {
      try {
        for await (const chunk of stream) {
          if (request.destroyed || settled) return;
          if (!request.write(chunk)) {
            await new Promise<void>((resume) => {
              const done = () => {
                request.off("drain", done);
                request.off("close", done);
                resume();
              };
              request.once("drain", done);
              request.once("close", done);
            });
          }
        }
        request.end();
      } catch (error) {
        request.destroy(error as Error);
      }
    })();
  });
}

/** The signs of a leaked stack trace or internal error text in a page. */
export function leaksInternals(body: string): boolean {
  return /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|ECONNREFUSED|Failed query|postgres:\/\//.test(body);
}

/**
 * A request from a chosen client address on the loopback network (127.0.0.2, 127.0.0.3, …): several
 * "clients" behind the proxy, each with an address of its own, as the proxy and the app see it.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PageResult & { location?: string }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? "GET", headers: options.headers, localAddress, timeout: 15_000 }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, ms: Date.now() - started, location: response.headers.location }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.end(options.body);
  });
}

/** A form post from a chosen client address (see `requestFrom`), as a browser on that page sends it. */
export function postFormFrom(localAddress: string, url: string, cookie: string | undefined, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(fields).toString();
  return requestFrom(localAddress, url, {
    method: "POST",
    body,
    headers: { ...(cookie ? { cookie } : {}), origin: new URL(url).origin, "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), ...headers },
  });
}
