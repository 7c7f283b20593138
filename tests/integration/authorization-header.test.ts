/**
 * A request that carries an Authorization header is known by that header alone (docs/decisions/009-http-api.md,
 * "Authorization header"): never a fall-back to the session cookie, and a bearer token waives the cross-site
 * check only under /api/v1, where tokens are accepted. The route modules in-process, then a real web process
 * (server.ts on the production build, `npm run build` first), where the cross-site check runs.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io } from "socket.io-client";
import { createApiToken, revokeApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { messages } from "../../app/modules/messages.ts";
import * as apiLogin from "../../app/routes/api.v1.auth.login.tsx";
import * as me from "../../app/routes/api.v1.auth.me.tsx";
import * as mentors from "../../app/routes/api.v1.mentors.tsx";
import { send } from "../support/api.ts";
import { ensureEventSettings, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, type RouteModule } from "../support/route-manifest.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";

const route = (id: string) => loadRouteModule(routeManifest.find((candidate) => candidate.id === id)!);
const FOREIGN = "https://evil.example";
/** What an Authorization header may hold that is not a live token for pages: every one is refused the same. */
const JUNK_HEADERS = ["Bearer junk", "Bearer gk_notarealtokennotarealtokennotarealtoken1", "Basic dXNlcjpwYXNz", "Bearer", "", "Negotiate abc"];

describe("pages, their data and their actions: an Authorization header is a 401, whatever cookie comes with it", () => {
  let root: RouteModule;
  let gates: RouteModule;
  let logout: RouteModule;
  let cookie: string;
  let liveToken: string;
  beforeAll(async () => {
    [root, gates, logout] = await Promise.all([route("root"), route("routes/_app.gates"), route("routes/logout")]);
    const user = await makeUser("participant", (await makeTeam()).id);
    cookie = await sessionCookie(user.id);
    liveToken = (await createApiToken(testAdmin, user.id, "script")).token;
  });
  const page = (routeModule: RouteModule, path: string, headers: Record<string, string>) =>
    callRoute(routeModule, "loader", { request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie, ...headers } }), params: {}, context: {} }).then(answerOf);

  it("answers the page to the cookie alone, and 401 with a sentence once any Authorization header comes with it", async () => {
    expect((await page(gates, "/gates", {})).status).toBe(200);
    for (const authorization of [...JUNK_HEADERS, `Bearer ${liveToken}`]) {
      for (const [routeModule, path] of [
        [gates, "/gates"],
        [root, "/"],
      ] as const) {
        const answer = await page(routeModule, path, { Authorization: authorization });
        expect(answer.status, `${path} with "${authorization}"`).toBe(401);
        expect(answer.body).toMatchObject({ message: messages.errors.authorizationHeader, lang: "en" });
      }
    }
    // In the caller's language: the refusal names it, for the error page when the root's loader refused.
    expect((await page(root, "/", { Authorization: "Bearer junk", "Accept-Language": "ar" })).body).toMatchObject({ lang: "ar" });
  });

  it("does not sign out with the cookie when an Authorization header comes with it", async () => {
    const request = new Request("http://localhost/logout", {
      method: "POST",
      headers: { Cookie: cookie, Origin: "http://localhost", Authorization: "Bearer junk", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(answerOf(await callRoute(logout, "action", { request, params: {}, context: {} })).status).toBe(401);
    expect((await page(gates, "/gates", {})).status, "the session lives").toBe(200);
  });
});

describe("the API: an Authorization header that is not a live token is a 401, whatever cookie comes with it", () => {
  let cookie: string;
  let user: number;
  beforeAll(async () => {
    user = (await makeUser("participant", (await makeTeam()).id)).id;
    cookie = await sessionCookie(user);
  });

  it("answers the cookie alone, and 401 invalid_token once a header that is not a live token comes with it", async () => {
    expect((await send(me, "GET", "/auth/me", { cookie })).status).toBe(200);
    for (const authorization of JUNK_HEADERS) {
      const answer = await send(me, "GET", "/auth/me", { cookie, headers: { Authorization: authorization } });
      expect(answer.status, `"${authorization}"`).toBe(401);
      expect(answer.body).toMatchObject({ code: "unauthenticated" });
      expect(answer.headers.get("WWW-Authenticate")).toBe('Bearer error="invalid_token"');
    }
    // A revoked token with its user's live cookie: a 401, and nothing done.
    const { id, token } = await createApiToken(testAdmin, user, "old script");
    await revokeApiToken(testAdmin, id);
    const revoked = await send(mentors, "POST", "/mentors", { json: { message: "help" }, token, cookie });
    expect(revoked).toMatchObject({ status: 401, body: { code: "unauthenticated", message: messages.api.invalidToken } });
    const basic = await send(me, "GET", "/auth/me", { cookie, headers: { Authorization: "Basic dXNlcjpwYXNz" } });
    expect(basic.body).toMatchObject({ message: messages.api.notAToken });
    const arabic = await send(me, "GET", "/auth/me", { cookie, headers: { Authorization: "Basic dXNlcjpwYXNz", "Accept-Language": "ar" } });
    expect(String(arabic.body?.message)).toMatch(/^ترويسة Authorization/);
  });

  it("signing in takes no token: a bearer header does not waive its cross-site check (login CSRF)", async () => {
    await makeUser("judge", null, "login-csrf-judge");
    const answer = await send(apiLogin, "POST", "/auth/login", {
      json: { username: "login-csrf-judge", password: FIXTURE_PASSWORD },
      origin: FOREIGN,
      headers: { Authorization: "Bearer junk" },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: "forbidden_origin" } });
  });
});

describe("through a real web process: the cross-site check and the header", () => {
  let web: { url: string };
  let cookie: string;
  let token: string;
  let participant: string;
  beforeAll(async () => {
    await ensureEventSettings();
    const user = await makeUser("participant", (await makeTeam()).id);
    participant = user.name;
    token = (await createApiToken(testAdmin, user.id, "script")).token;
    web = await startWebServer();
    cookie = await login(web.url, user.name, FIXTURE_PASSWORD);
  }, 90_000);
  afterAll(() => stopAll());

  const post = (path: string, headers: Record<string, string>, body = "") =>
    fetch(`${web.url}${path}`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body });
  const signedIn = async () => (await fetch(`${web.url}/gates`, { headers: { Cookie: cookie }, redirect: "manual" })).status;

  /** A POST with its path sent as written (fetch would resolve its dot segments first). */
  const rawPost = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${web.url}/`, { method: "POST", path, headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0", ...headers } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      request.end();
    });

  it("refuses a page post from another site with a bearer header and the cookie: no waiver outside /api/v1", async () => {
    for (const path of ["/logout", "/gates", "/api/v1/../../logout", "/api/v1/%2e%2e/%2e%2e/logout"]) {
      const answer = await rawPost(path, { Cookie: cookie, Origin: FOREIGN, Authorization: "Bearer junk" });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatch(/from another site and was refused/);
    }
    expect(await signedIn(), "still signed in").toBe(200);
  });

  it("answers a page, its data and the queue board 401, not the page, to a bearer header with a live cookie", async () => {
    for (const path of ["/gates", "/gates.data", "/dashboard/queues"]) {
      const answer = await fetch(`${web.url}${path}`, { headers: { Cookie: cookie, Authorization: "Bearer junk" }, redirect: "manual" });
      expect(answer.status, path).toBe(401);
      expect(await answer.text(), path).toContain(messages.errors.authorizationHeader);
    }
    // The error page in the caller's language, though the root's own loader refused.
    const arabic = await fetch(`${web.url}/gates`, { headers: { Authorization: "Bearer junk", "Accept-Language": "ar" } });
    const html = await arabic.text();
    expect([arabic.status, /<html lang="ar" dir="rtl"/.test(html)]).toEqual([401, true]);
    expect(html).toContain("هذه الصفحة لا تقبل ترويسة Authorization");
  });

  it("takes a live token under /api/v1 from anywhere, with or without an Origin", async () => {
    for (const origin of [undefined, FOREIGN]) {
      const answer = await fetch(`${web.url}/api/v1/mentors`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(origin ? { Origin: origin } : {}) },
        body: JSON.stringify({ message: "help" }),
      });
      expect(answer.status, `Origin ${origin}`).toBe(201);
    }
  });

  it("answers 4xx, never 500, to an Authorization header from another site, anywhere", async () => {
    const paths = ["/logout", "/login", "/gates", "/gates.data", "/submition/1/upload", "/dashboard/queues/api/queues/standings/clean/completed", "/api/v1/mentors", "/api/v1/auth/login"];
    const outcomes: string[] = [];
    for (const path of paths) {
      for (const authorization of JUNK_HEADERS) {
        for (const withCookie of [true, false]) {
          const answer = await post(path, { Origin: FOREIGN, Authorization: authorization, ...(withCookie ? { Cookie: cookie } : {}) }, "username=x&password=y");
          outcomes.push(`${answer.status} POST ${path} "${authorization}"${withCookie ? " + cookie" : ""}`);
          await answer.arrayBuffer();
        }
      }
    }
    expect(outcomes.filter((outcome) => !/^4\d\d /.test(outcome))).toEqual([]);
    expect(await signedIn(), "still signed in").toBe(200);
  });

  it("refuses a socket whose handshake carries an Authorization header, whatever cookie comes with it", async () => {
    const handshake = async (extraHeaders: Record<string, string>) => {
      const socket = io(web.url, { transports: ["websocket"], extraHeaders, reconnection: false, forceNew: true });
      const outcome = await new Promise<string>((resolve) => {
        socket.once("connect", () => resolve("connected"));
        socket.once("connect_error", (error) => resolve(error.message));
      });
      socket.close();
      return outcome;
    };
    const fresh = await login(web.url, participant, FIXTURE_PASSWORD);
    expect(await handshake({ cookie: fresh })).toBe("connected");
    expect(await handshake({ cookie: fresh, authorization: "Bearer junk" })).toBe("unauthorized");
  });
});
