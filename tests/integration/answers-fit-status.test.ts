/**
 * Every answer fits its status (docs/RELIABILITY.md), on the wire of the real web process (server.ts on the
 * production build): a body no form sends is a 400/415 wherever a body is read, a request no client of ours
 * sends is a 400/405 before any route (nothing logged as an error), and every 4xx says what it is in a
 * sentence, in the caller's language (the API in its error shape).
 */
import { describe, expect, it } from "vitest";
import { ApiErrorSchema } from "../../app/modules/api/errors.ts";
import { FAULT_WORDS, wireRequest, wireWorldForFile, type WireAnswer } from "../support/wire.ts";

const world = wireWorldForFile();

const enc = (text: string) => new TextEncoder().encode(text);
const multipartBody = (boundary: string) => enc(`--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nour answer\r\n--${boundary}--\r\n`);
/** Bodies no form of ours sends, each with its Content-Type (none: no header). */
const unreadable = [
  { what: "multipart without a boundary", type: "multipart/form-data", body: multipartBody("b0") },
  { what: "multipart with the wrong boundary", type: "multipart/form-data; boundary=expected", body: multipartBody("other") },
  { what: "multipart cut short", type: "multipart/form-data; boundary=b1", body: enc('--b1\r\nContent-Disposition: form-data; name="text"\r\n\r\nhalf') },
  { what: "text/plain", type: "text/plain", body: enc("text=x") },
  { what: "no Content-Type", type: null, body: enc("text=x") },
];

function post(path: string, cookie: string, type: string | null, body: Uint8Array, headers: Record<string, string> = {}) {
  return wireRequest(world.url, path, {
    method: "POST",
    headers: { Cookie: cookie, Origin: world.url, ...(type ? { "Content-Type": type } : {}), ...headers },
    body,
  });
}

/** A 4xx that says what it is: a sentence, none of the words for a fault. */
function expectSentence(answer: WireAnswer, what: string) {
  expect(answer.status, `${what}: ${answer.status} ${answer.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, what).toBeLessThan(500);
  expect(answer.body, what).not.toMatch(FAULT_WORDS);
  expect(answer.body.trim().length, `${what}: no sentence`).toBeGreaterThan(10);
}

function expectApiShape(answer: WireAnswer, code: string, what: string) {
  expectSentence(answer, what);
  expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
  const body = ApiErrorSchema.parse(JSON.parse(answer.body));
  expect(body.code, what).toBe(code);
}

describe("a body that cannot be read, wherever a body is read", () => {
  it("the upload endpoint, the challenge page and its .data post answer 400 or 415 with the sentence, never 500", async () => {
    for (const path of [`/submition/${world.challengeId}/upload`, `/submition/${world.challengeId}`, `/submition/${world.challengeId}.data`]) {
      for (const { what, type, body } of unreadable) {
        const answer = await post(path, world.cookies.participant, type, body);
        expectSentence(answer, `${path}, ${what}`);
        expect([400, 415], `${path}, ${what}`).toContain(answer.status);
      }
    }
  });

  it("a new challenge (with its attachment) and the import answer 400 or 415 with the sentence, never 500", async () => {
    for (const path of ["/dashboard/challenges", "/dashboard/import"]) {
      for (const { what, type, body } of unreadable) {
        const answer = await post(path, world.cookies.admin, type, body);
        expectSentence(answer, `${path}, ${what}`);
        expect([400, 415], `${path}, ${what}`).toContain(answer.status);
      }
    }
  });

  it("in the caller's language; the API's upload in its error shape", async () => {
    const answer = await post(`/submition/${world.challengeId}/upload`, world.cookies.participant, "multipart/form-data", multipartBody("b0"), { "Accept-Language": "ar" });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-language"]).toBe("ar");
    expect(answer.body).toMatch(/[\u0600-\u06ff]/);
    const api = await post(`/api/v1/challenges/${world.challengeId}/submission`, world.cookies.participant, "multipart/form-data", multipartBody("b0"));
    expectApiShape(api, "bad_request", "API upload, multipart without a boundary");
  });
});

describe("a request no client of ours sends, refused before any route", () => {
  it("TRACE, PROPFIND, CONNECT and other unserved methods: 405 with Allow and a sentence", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "LOCK", "CONNECT"]) {
      for (const path of ["/gates", "/login", "/api/v1/scoreboard", "/healthz"]) {
        const answer = await wireRequest(world.url, path, { method, headers: { Cookie: world.cookies.participant } });
        expectSentence(answer, `${method} ${path}`);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.allow, `${method} ${path}`).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
        if (path.startsWith("/api/") && method !== "CONNECT") expectApiShape(answer, "method_not_allowed", `${method} ${path}`);
      }
    }
  });

  it("a Host that is not a host, or a port out of range: 400 with a sentence", async () => {
    const port = new URL(world.url).port;
    for (const host of ["ex ample", "localhost:99999", "localhost:0", "local/host", "[::1", `127.0.0.1:${port}:1`]) {
      for (const path of ["/gates", "/login", "/api/v1/scoreboard"]) {
        const answer = await wireRequest(world.url, path, { headers: { Host: host, Cookie: world.cookies.participant } });
        expectSentence(answer, `Host ${host}, ${path}`);
        expect(answer.status, `Host ${host}, ${path}`).toBe(400);
      }
    }
    // These pass a host name's pattern, but no URL parser takes them, and Remix's adapter builds a URL of the
    // Host (the scoreboard's feed, which builds none, may answer them).
    for (const host of ["1.2.3.256", "999999999999", "[1::2::3]"]) {
      for (const path of ["/gates", "/login", "/gates.data"]) {
        const answer = await wireRequest(world.url, path, { headers: { Host: host, Cookie: world.cookies.participant } });
        expectSentence(answer, `Host ${host}, ${path}`);
        expect(answer.status, `Host ${host}, ${path}`).toBe(400);
      }
    }
    const forwarded = await wireRequest(world.url, "/gates", { headers: { "X-Forwarded-Host": "gates.example:70000" } });
    expectSentence(forwarded, "X-Forwarded-Host with a port out of range");
    expect(forwarded.status).toBe(400);
    const posted = await wireRequest(world.url, "/login", { method: "POST", headers: { Host: "localhost:99999", "Content-Type": "application/x-www-form-urlencoded" }, body: "username=a&password=b" });
    expect(posted.status).toBe(400);
  });

  it("a request line whose target builds no URL with the Host's port (absolute form, `*`): 400, not 500", async () => {
    const port = new URL(world.url).port;
    for (const path of ["http://gates.example/gates", "*"]) {
      const answer = await wireRequest(world.url, path, { headers: { Host: `127.0.0.1:${port}` } });
      expect(answer.status, path).toBeLessThan(500);
      expectSentence(answer, path);
    }
  });

  it("health, readiness and metrics probes answer whatever Host a proxy sends", async () => {
    for (const host of ["", "ex ample", "x:0"]) {
      expect((await wireRequest(world.url, "/healthz", { headers: { Host: host } })).status, `Host "${host}"`).toBe(200);
    }
    expect((await wireRequest(world.url, "/healthz", { headers: { "X-Forwarded-Host": "junk host," } })).status).toBe(200);
  });

  it("a _data parameter however it is spelled, and an empty Authorization header with a session cookie, are refused", async () => {
    for (const search of ["?%5Fdata=root", "?_dat%61=root"]) expect((await wireRequest(world.url, `/gates${search}`, { headers: { Cookie: world.cookies.participant } })).status, search).toBe(400);
    for (const path of ["/gates", "/gates.data", "/api/v1/auth/me"]) {
      const answer = await wireRequest(world.url, path, { headers: { Cookie: world.cookies.participant, Authorization: "" } });
      expect(answer.status, path).toBe(401);
      expectSentence(answer, path);
    }
  });

  it("none of them is logged as an error, and no stack is printed", async () => {
    await wireRequest(world.url, "/gates", { headers: { Host: "1.2.3.256" } });
    await wireRequest(world.url, "/gates", { method: "TRACE" });
    await wireRequest(world.url, "/gates", { headers: { Host: "localhost:99999" } });
    await wireRequest(world.url, "/gates?_data=routes%2Fnowhere");
    // The log is written as the answer goes: one more request, answered, and every line before it is in.
    expect((await wireRequest(world.url, "/healthz")).status).toBe(200);
    expect(world.errors()).toEqual([]);
  });
});

describe("every 4xx says what it is, in the caller's language", () => {
  it("a participant asking for an admin export: 403 with the sentence, in Arabic when asked", async () => {
    for (const path of ["/dashboard/exports/standings.csv", "/dashboard/exports/audit.csv", "/dashboard/registrations/export"]) {
      const english = await wireRequest(world.url, path, { headers: { Cookie: world.cookies.participant } });
      expectSentence(english, path);
      expect(english.status, path).toBe(403);
      expect(english.body).toContain("Your role does not open this page.");
      const arabic = await wireRequest(world.url, path, { headers: { Cookie: world.cookies.participant, "Accept-Language": "ar" } });
      expect(arabic.status).toBe(403);
      expect(arabic.headers["content-language"]).toBe("ar");
      expect(arabic.body).toMatch(/[\u0600-\u06ff]/);
    }
  });

  it("a POST to a page without an action: 405 with a sentence on its page, not 'Something broke'", async () => {
    const answer = await post("/gates", world.cookies.participant, "application/x-www-form-urlencoded", enc("a=b"));
    expectSentence(answer, "POST /gates");
    expect(answer.status).toBe(405);
    expect(answer.body).toContain("This page has no form to send");
    const arabic = await post("/gates", world.cookies.participant, "application/x-www-form-urlencoded", enc("a=b"), { "Accept-Language": "ar" });
    expect(arabic.status).toBe(405);
    expect(arabic.body).toContain("لا تحوي هذه الصفحة نموذجًا");
  });

  it("a POST to a download or export (a resource route without an action): 405 with Allow and a sentence", async () => {
    const answer = await post("/dashboard/exports/standings.csv", world.cookies.admin, "application/x-www-form-urlencoded", enc("a=b"));
    expectSentence(answer, "POST an export");
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD");
  });

  it("an unknown _data id: 400 with a sentence", async () => {
    const answer = await wireRequest(world.url, "/gates?_data=routes%2Fnowhere", { headers: { Cookie: world.cookies.participant } });
    expectSentence(answer, "_data");
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("_data");
  });

  it("a file that does not exist: 404 with a sentence", async () => {
    const answer = await wireRequest(world.url, "/submissions/2147483647/file", { headers: { Cookie: world.cookies.participant } });
    expectSentence(answer, "a missing file");
    expect(answer.status).toBe(404);
    expect(answer.body).not.toBe("Not found");
  });

  it("a method the API does not serve: 405 in the API's error shape, with Allow", async () => {
    for (const method of ["PATCH", "OPTIONS", "TRACE"]) {
      const answer = await wireRequest(world.url, "/api/v1/scoreboard", { method, headers: { "Accept-Language": "ar" } });
      expectApiShape(answer, "method_not_allowed", `${method} /api/v1/scoreboard`);
      expect(answer.headers.allow, method).toBeTruthy();
      expect(answer.headers["content-language"], method).toBe("ar");
    }
  });
});
