/** API sign-in, tokens (create, use, revoke), the login throttle and the CSRF check. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiTokens, users } from "../../db/schema.ts";
import { createApiToken, hashToken, listApiTokens, revokeApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { MeSchema } from "../../app/modules/api/schemas.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { CLIENT_IP_HEADER } from "../../app/glue/request.server.ts";
import * as login from "../../app/routes/api.v1.auth.login.tsx";
import * as me from "../../app/routes/api.v1.auth.me.tsx";
import * as mentors from "../../app/routes/api.v1.mentors.tsx";
import * as notFound from "../../app/routes/api.v1.$.tsx";
import { makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { send } from "../support/api.ts";

describe("POST /api/v1/auth/login", () => {
  it("signs in: the answer is the original platform's (role, team, user) and the session cookie works for the API", async () => {
    const team = await makeTeam("Phoenix");
    const user = await makeUser("participant", team.id, "amina");
    const response = await send(login, "POST", "/auth/login", { json: { username: "AMINA", password: "fixture-password" } });
    expect(response.status).toBe(200);
    expect(MeSchema.parse(response.body)).toEqual({ user: { id: user.id, name: "amina" }, role: "participant", team: { id: team.id, name: "Phoenix" } });
    const cookie = response.headers.get("Set-Cookie")?.split(";")[0];
    expect(cookie).toMatch(/^__gk_session=/);
    expect(response.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);

    const who = await send(me, "GET", "/auth/me", { cookie });
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ user: { id: user.id }, role: "participant" });
  });

  it("validates the body with the login form's messages, and accepts a form encoding", async () => {
    const empty = await send(login, "POST", "/auth/login", { json: { username: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: "validation_failed", message: messages.login.emptyFields, fieldErrors: { username: [messages.login.emptyFields] } });

    await makeUser("judge", null, "formjudge");
    const form = await send(login, "POST", "/auth/login", {
      body: new URLSearchParams({ username: "formjudge", password: "fixture-password" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);

    const text = await send(login, "POST", "/auth/login", { body: "username=x", headers: { "Content-Type": "text/plain" } });
    expect(text).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    const broken = await send(login, "POST", "/auth/login", { body: "{nope", headers: { "Content-Type": "application/json" } });
    expect(broken).toMatchObject({ status: 400, body: { code: "bad_request", message: messages.api.invalidJson } });
  });

  it("refuses a wrong password with 401, then throttles like /login with 429 and Retry-After", async () => {
    await makeUser("participant", (await makeTeam()).id, "guesser-target");
    const attempt = () =>
      send(login, "POST", "/auth/login", { json: { username: "guesser-target", password: "wrong-password" }, headers: { [CLIENT_IP_HEADER]: "203.0.113.9" } });
    for (let i = 0; i < 5; i++) {
      const refused = await attempt();
      expect(refused).toMatchObject({ status: 401, body: { code: "invalid_credentials", message: messages.login.invalidCredentials } });
    }
    const throttled = await attempt();
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ code: "throttled" });
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("counts attempts at one account across addresses: a fourth address waits, told how long in the caller's language", async () => {
    await makeUser("participant", (await makeTeam()).id, "roaming-target");
    const attempt = (ip: string) =>
      send(login, "POST", "/auth/login", { json: { username: "roaming-target", password: "wrong-password" }, headers: { [CLIENT_IP_HEADER]: ip } });
    for (const ip of ["203.0.113.31", "203.0.113.31", "203.0.113.32", "203.0.113.32", "203.0.113.33"]) expect((await attempt(ip)).status).toBe(401);
    const waiting = await send(login, "POST", "/auth/login", {
      json: { username: "roaming-target", password: "fixture-password" },
      headers: { [CLIENT_IP_HEADER]: "203.0.113.34", "Accept-Language": "ar" },
    });
    expect(waiting).toMatchObject({ status: 429, body: { code: "throttled" } });
    expect(Number(waiting.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(waiting.headers.get("Retry-After"))).toBeLessThanOrEqual(5);
    expect(String(waiting.body?.message)).toMatch(/^محاولات فاشلة كثيرة على هذا الحساب\. حاول مجددًا بعد/);
  });

  it("refuses a login posted from another site (login CSRF)", async () => {
    await makeUser("admin", null, "csrf-admin");
    const response = await send(login, "POST", "/auth/login", { json: { username: "csrf-admin", password: "fixture-password" }, origin: "https://evil.example" });
    expect(response).toMatchObject({ status: 403, body: { code: "forbidden_origin" } });
  });
});

describe("personal API tokens", () => {
  it("are stored hashed, carry their user's role as it is now, and stop working once revoked", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const { id, token } = await createApiToken(testAdmin, user.id, "big screen");
    expect(token).toMatch(/^gk_[0-9A-Za-z]{40}$/);
    const [row] = await getDb().select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.prefix).toBe(token.slice(0, 9));
    expect(row.lastUsedAt).toBeNull();

    expect((await send(me, "GET", "/auth/me", { token })).body).toMatchObject({ role: "participant", user: { id: user.id } });
    const [used] = await getDb().select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(used.lastUsedAt).toBeInstanceOf(Date);

    // The token carries the user's role at each request, not the role it was created with.
    await getDb().update(users).set({ role: "judge", teamId: null }).where(eq(users.id, user.id));
    expect((await send(me, "GET", "/auth/me", { token })).body).toMatchObject({ role: "judge", team: null });

    await revokeApiToken(testAdmin, id);
    const revoked = await send(me, "GET", "/auth/me", { token });
    expect(revoked).toMatchObject({ status: 401, body: { code: "unauthenticated", message: messages.api.invalidToken } });
    expect(revoked.headers.get("WWW-Authenticate")).toMatch(/invalid_token/);
    expect((await listApiTokens()).find((listed) => listed.id === id)?.revokedAt).toBeInstanceOf(Date);
  });

  it("dies with its user", async () => {
    const admin = await makeUser("admin");
    const { token } = await createApiToken(testAdmin, admin.id, "script");
    await getDb().delete(users).where(eq(users.id, admin.id));
    expect((await send(me, "GET", "/auth/me", { token })).status).toBe(401);
  });

  it("refuses a made-up token and a visitor", async () => {
    expect((await send(me, "GET", "/auth/me", { token: "gk_notarealtokennotarealtokennotarealtoken1" })).status).toBe(401);
    expect((await send(me, "GET", "/auth/me", { token: "something-else" })).status).toBe(401);
    expect((await send(me, "GET", "/auth/me")).body).toMatchObject({ code: "unauthenticated", message: messages.api.unauthenticated });
  });
});

describe("CSRF: a change made with the session cookie must come from our own pages", () => {
  let cookie: string;
  let token: string;
  beforeAll(async () => {
    const user = await makeUser("participant", (await makeTeam()).id);
    cookie = await sessionCookie(user.id);
    token = (await createApiToken(testAdmin, user.id, "script")).token;
  });
  const post = (options: Parameters<typeof send>[3]) => send(mentors, "POST", "/mentors", { json: { message: "help" }, ...options });

  it("accepts our Origin, or our Referer when there is no Origin", async () => {
    expect((await post({ cookie })).status).toBe(201);
    expect((await post({ cookie, origin: null, headers: { Referer: "http://localhost/welcome" } })).status).toBe(201);
  });

  it("refuses another site's Origin or Referer, an opaque origin, and no origin at all", async () => {
    for (const options of [
      { cookie, origin: "https://evil.example" },
      { cookie, origin: "null" },
      { cookie, origin: null, headers: { Referer: "https://evil.example/page" } },
      { cookie, origin: null },
    ]) {
      const response = await post(options);
      expect(response.status, JSON.stringify(options)).toBe(403);
      expect(response.body).toMatchObject({ code: "forbidden_origin" });
    }
  });

  it("leaves token requests and reads alone (a browser never adds a bearer token itself)", async () => {
    expect((await post({ token, origin: "https://evil.example" })).status).toBe(201);
    expect((await send(mentors, "GET", "/mentors", { cookie, origin: "https://evil.example" })).status).toBe(403); // a role refusal, not CSRF
    expect((await send(me, "GET", "/auth/me", { cookie, origin: "https://evil.example" })).status).toBe(200);
  });
});

describe("unknown /api/v1 paths", () => {
  it("answer the API's JSON 404", async () => {
    const response = await send(notFound, "GET", "/nope");
    expect(response).toMatchObject({ status: 404, body: { code: "not_found", message: messages.api.notFound } });
    expect((await send(notFound, "POST", "/nope", { json: {} })).status).toBe(404);
  });
});
