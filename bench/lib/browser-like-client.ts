/**
 * The event day's load generator's HTTP client: sends each request as Node's fetch sent it (the same headers,
 * among them `Accept-Encoding: gzip, deflate`, so the server compresses and answers exactly as before), on
 * kept-alive connections, and reads each answer off its socket to the end without decoding it.
 *
 * Why not fetch: the load generator runs on the machine it measures, and what it spends there the server
 * does not get. fetch (undici) spent about 0.6–0.9 ms of CPU more a request than this (a 30 KB gzip page from
 * a bare node:http server, one request at a time on this VM: 0.70–1.09 ms against 0.10–0.22 for client and
 * server together), in undici's own machinery and in inflating and decoding a body that the event day only
 * checks the status of. A browser does that work on its own machine, not the server's. In the event day the
 * generator went from 1.6–1.8 ms of CPU a request served to 0.6–0.7 (docs/performance-log.md, "The load generator
 * off the server's CPU").
 */
import http from "node:http";
import { multipartEnd, multipartField, multipartFileHead } from "../../tests/support/multipart.ts";

/** The headers Node's fetch adds to a request of ours (read off a server, Node 20): the server sees the same. */
export const FETCH_LIKE_HEADERS: Readonly<Record<string, string>> = {
  accept: "*/*",
  "accept-language": "*",
  "sec-fetch-mode": "cors",
  "user-agent": "node",
  "accept-encoding": "gzip, deflate",
};

export interface Answer {
  status: number;
  /** The body's bytes as they came over the wire (compressed, if the server compressed it). */
  bytes: number;
}

export interface BrowserLikeRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A client with its own pool of kept-alive connections (as fetch keeps one per origin); `close` ends them. */
export function browserLikeClient() {
  const agent = new http.Agent({ keepAlive: true });
  return {
    request(url: string, { method = "GET", headers = {}, body }: BrowserLikeRequest = {}): Promise<Answer> {
      const all: Record<string, string | number> = { ...FETCH_LIKE_HEADERS, ...headers };
      if (body !== undefined) all["content-length"] = Buffer.byteLength(body);
      return new Promise((resolve, reject) => {
        const request = http.request(url, { method, agent, headers: all }, (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => void (bytes += chunk.length));
          response.once("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
          response.once("error", reject);
        });
        request.once("error", reject);
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * A multipart/form-data body, as a browser's form sends it: text fields, then files (name, file name, bytes).
 * Returns the body and its Content-Type (with the boundary).
 */
export function multipartBody(fields: Record<string, string>, files: Array<{ name: string; fileName: string; bytes: Uint8Array; type?: string }> = []) {
  const boundary = `----gatekeeper-bench-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(multipartField(boundary, name, value)));
  for (const file of files) parts.push(Buffer.from(multipartFileHead(boundary, file.name, file.fileName, file.type)), Buffer.from(file.bytes), Buffer.from("\r\n"));
  parts.push(Buffer.from(multipartEnd(boundary)));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
