/**
 * The route fuzz on the wire (the in-process fuzz, tests/support/route-fuzz.ts, calls route modules; it
 * cannot send a Host header or TRACE, and runs one copy of app/ code where the web process runs two): every
 * route of the Remix manifest, asked by the real web process (server.ts on the production build) with
 * hostile methods, hosts, content types, bodies and headers, by a visitor, a participant and an admin.
 * Never a 5xx; every 4xx says what it is in a sentence, never "Unexpected Server Error" or "Something
 * broke"; the API's in its error shape; a 405 for a method nothing serves names what is (Allow); and the
 * process logs no error (docs/RELIABILITY.md, "Every answer fits its status").
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiErrorSchema } from "../../app/modules/api/errors.ts";
import { SERVED_METHODS } from "../../app/glue/malformed-requests.server.ts";
import { routeManifest, routeUrl } from "../support/route-manifest.ts";
import { FAULT_WORDS, wireRequest, wireWorldForFile } from "../support/wire.ts";

const RUNS_PER_ROUTE = 40;
const world = wireWorldForFile();

const methods = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SERVED_METHODS) },
  { weight: 2, arbitrary: fc.constantFrom("OPTIONS", "TRACE", "PROPFIND", "MKCOL", "LOCK", "SEARCH", "FOO") },
);
type HostChoice = "own" | "spaced" | "portTooHigh" | "portZero" | "brokenIpv6" | "withPath" | "forwardedTooHigh" | "forwardedSpaced";
const hosts = fc.oneof(
  { weight: 6, arbitrary: fc.constant<HostChoice>("own") },
  { weight: 3, arbitrary: fc.constantFrom<HostChoice>("spaced", "portTooHigh", "portZero", "brokenIpv6", "withPath", "forwardedTooHigh", "forwardedSpaced") },
);
const enc = (text: string) => new TextEncoder().encode(text);
const part = (boundary: string, disposition: string) =>
  enc(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`);
/** Bodies no form of ours sends (and one it does), each with its Content-Type (null: no header). */
const bodies: Array<{ type: string | null; body: Uint8Array | undefined }> = [
  { type: null, body: undefined },
  { type: null, body: enc("name=x&intent=save") },
  { type: "application/x-www-form-urlencoded", body: enc("%%%&&&==&intent=delete&id=0") },
  { type: "application/json", body: enc('{"name":"x","intent":"save"') },
  { type: "application/json", body: enc('{"name":"x"}') },
  { type: "text/plain", body: enc("name=x") },
  { type: "application/octet-stream", body: new Uint8Array([0, 255, 13, 10]) },
  { type: "multipart/form-data", body: part("b0", 'name="text"') },
  { type: "multipart/form-data; boundary=expected", body: part("other", 'name="text"') },
  { type: "multipart/form-data; boundary=b1", body: enc('--b1\r\nContent-Disposition: form-data; name="text"\r\n\r\nhalf') },
  { type: "multipart/form-data; boundary=b2", body: part("b2", `name="file"; filename*=UTF-8''%E0%A4%A; filename="\u0000"`) },
  { type: "multipart/form-data; boundary=", body: enc("--\r\n") },
];
const languages = fc.constantFrom(undefined, "ar", "en", "*", "ar-EG,ar;q=0.9,en;q=0.1", "zz;q=abc", ",,,;");
const origins = fc.constantFrom<"own" | "foreign" | "none">("own", "own", "foreign", "none");
const accepts = fc.constantFrom(undefined, "*/*", "application/json", "text/html", "text/x-script", "text/html;q=abc, */*;;");
const roles = fc.constantFrom<"visitor" | "participant" | "admin" | "garbage">("visitor", "participant", "admin", "garbage");

const request = fc.record({
  method: methods,
  host: hosts,
  body: fc.nat(bodies.length - 1),
  language: languages,
  origin: origins,
  accept: accepts,
  role: roles,
  suffix: fc.constantFrom<"" | ".data" | "_data" | "index">("", "", "", ".data", "_data", "index"),
});

function hostHeaders(choice: HostChoice, own: string): Record<string, string> {
  switch (choice) {
    case "own":
      return {};
    case "spaced":
      return { Host: "ex ample" };
    case "portTooHigh":
      return { Host: "localhost:99999" };
    case "portZero":
      return { Host: "localhost:0" };
    case "brokenIpv6":
      return { Host: "[::1" };
    case "withPath":
      return { Host: "local/host" };
    case "forwardedTooHigh":
      return { Host: own, "X-Forwarded-Host": "gates.example:70000" };
    case "forwardedSpaced":
      return { Host: own, "X-Forwarded-Host": "gates example" };
  }
}

describe("every route on the wire, under hostile methods, hosts, content types and headers", () => {
  for (const route of routeManifest) {
    const api = route.id.startsWith("routes/api.");
    it(`${route.id}: never a 5xx; every 4xx a sentence (the API's in its shape)`, async () => {
      // A real row for the pages; for the API's writes one that does not exist (a DELETE must not remove the fuzz's users).
      const own = new URL(world.url).host;
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          const unsafe = !["GET", "HEAD", "OPTIONS"].includes(input.method);
          const id = api && unsafe ? "2147483647" : String(world.challengeId);
          let path = routeUrl(route, { id, challengeId: id, wave: "1", sessionId: "1", "*": "nowhere" });
          if (input.suffix === ".data" && !api) path = path.includes("?") ? path.replace("?", ".data?") : `${path === "/" ? "/_root" : path}.data`;
          if (input.suffix === "_data") path += `${path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(input.method === "GET" ? "routes/nowhere" : route.id)}`;
          const cookie = input.role === "garbage" ? "__Host-gk_session=garbage; lang=xx" : input.role === "visitor" ? undefined : world.cookies[input.role];
          const { type, body } = bodies[input.body];
          const sendsBody = input.method !== "GET" && input.method !== "HEAD" && body !== undefined;
          const headers: Record<string, string> = {
            ...hostHeaders(input.host, own),
            ...(cookie ? { Cookie: cookie } : {}),
            ...(input.language ? { "Accept-Language": input.language } : {}),
            ...(input.accept ? { Accept: input.accept } : {}),
            ...(input.origin === "own" ? { Origin: world.url } : input.origin === "foreign" ? { Origin: "https://elsewhere.example" } : {}),
            ...(sendsBody && type ? { "Content-Type": type } : {}),
          };
          const answer = await wireRequest(world.url, path, { method: input.method, headers, body: sendsBody ? body : undefined });
          const what = `${input.method} ${path} (${JSON.stringify(input)}): ${answer.status} ${answer.body.slice(0, 160)}`;
          expect(answer.status, what).toBeLessThan(500);
          if (answer.status === 405 && !(SERVED_METHODS as readonly string[]).includes(input.method)) expect(answer.headers.allow, what).toBeTruthy();
          if (answer.status < 400 || input.method === "HEAD") return;
          expect(answer.body, what).not.toMatch(FAULT_WORDS);
          expect(answer.body.trim().length, `${what}: no sentence`).toBeGreaterThan(10);
          if (path.startsWith("/api/")) expect(ApiErrorSchema.safeParse(JSON.parse(answer.body)).success, what).toBe(true);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  }

  it("the web process logged no error and printed no stack", async () => {
    expect((await wireRequest(world.url, "/healthz")).status).toBe(200);
    expect(world.errors()).toEqual([]);
  });
});
