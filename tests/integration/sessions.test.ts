/**
 * Server-side sessions (docs/decisions/015-server-side-sessions.md): a random token per login, ended by
 * logout, by an admin, by a change to the user, or by expiry; the admin's list and controls; sockets that
 * follow their sessions across web processes; and the Socket.IO handshake refusing a foreign origin.
 */
import { createCookieSessionStorage } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../../db/schema.ts";
import { createRequest } from "../../app/modules/requests/requests.server.ts";
import { broadcastTeamStanding } from "../../app/modules/realtime/broadcast.server.ts";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";
import { updateUser, deleteUser } from "../../app/modules/users/users.server.ts";
import { CALLERS_CHANGED_CHANNEL, isHearingChanges, watchCallerChanges } from "../../app/modules/auth/caller-changes.server.ts";
import { InvalidCredentialsError, sessionHeadersFor, verifyThrottledLogin } from "../../app/glue/auth.server.ts";
import { findSessionCaller } from "../../app/glue/caller.server.ts";
import { getDb, getDbHandle } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { makeTeam, makeUser, setTeamOf, actorFor, asActor } from "../support/fixtures.ts";
import { send, type RouteModule as ApiModule } from "../support/api.ts";
import { connectSocket, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, type RouteModule } from "../support/route-manifest.ts";
import { io } from "socket.io-client";

/** A team's standing as the worker would publish it (the values do not matter here, only who gets it). */
const standingOf = (team: { id: number; name: string }): TeamStanding => ({
  id: team.id,
  name: team.name,
  totalScore: 0,
  categories: { AI: 0, CS: 0, PS: 0, GD: 0 },
  solvedCount: 0,
  rank: 1,
  reachedAt: new Date().toISOString(),
  version: 1,
  division: null,
});

const route = (id: string) => loadRouteModule(routeManifest.find((candidate) => candidate.id === id)!);

const HOUR = 3_600_000;
let loginRoute: RouteModule;
let logoutRoute: RouteModule;
let gatesRoute: RouteModule;
let usersPage: RouteModule;
let sessionsApi: ApiModule;
let sessionApi: ApiModule;
let meApi: ApiModule;

beforeAll(async () => {
  [loginRoute, logoutRoute, gatesRoute, usersPage] = await Promise.all([route("routes/login"), route("routes/logout"), route("routes/_app.gates"), route("routes/dashboard.users")]);
  [sessionsApi, sessionApi, meApi] = (await Promise.all([
    route("routes/api.v1.users.$id.sessions"),
    route("routes/api.v1.users.$id.sessions.$sessionId"),
    route("routes/api.v1.auth.me"),
  ])) as ApiModule[];
});

function form(path: string, fields: Record<string, string>, cookie?: string, userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36") {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      "User-Agent": userAgent,
      "x-gatekeeper-client-ip": "198.51.100.23",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

/** Signs in through the login page; returns the Cookie header the browser would send next. */
async function signIn(name: string, cookie?: string): Promise<string> {
  const answer = await callRoute(loginRoute, "action", { request: form("/login", { username: name, password: "fixture-password" }, cookie), params: {}, context: {} });
  const setCookie = (answer as Response).headers.get("Set-Cookie");
  expect(setCookie, "a login sets the session cookie").toMatch(/^__gk_session=/);
  return setCookie!.split(";")[0];
}

/** What the participants' /gates page answers this cookie: the page, or the way to /login. */
async function gatesFor(cookie: string) {
  const answer = answerOf(await callRoute(gatesRoute, "loader", { request: new Request("http://localhost/gates", { headers: { Cookie: cookie } }), params: {}, context: {} }));
  return answer.location?.startsWith("/login") ? "login" : answer.status === 200 ? "page" : `status ${answer.status}`;
}

async function sessionRows(userId: number) {
  return getDb().select().from(sessions).where(eq(sessions.userId, userId));
}

describe("sessions", () => {
  it("gives each login its own random token, stored only as a hash, with when, where from and which browser", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [first, second] = [await signIn(user.name), await signIn(user.name)];
    expect(first).not.toBe(second);
    expect([await gatesFor(first), await gatesFor(second)]).toEqual(["page", "page"]);
    const rows = await sessionRows(user.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(first).not.toContain(row.tokenHash);
      expect(row).toMatchObject({ ip: "198.51.100.23", userAgent: expect.stringContaining("Chrome/156") });
    }
  });

  it("signing out ends that session on the server: the same cookie sent again is a visitor's, the other session lives", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [phone, laptop] = [await signIn(user.name), await signIn(user.name)];
    const answer = answerOf(await callRoute(logoutRoute, "action", { request: form("/logout", {}, phone), params: {}, context: {} }));
    expect(answer.status).toBe(302);
    expect(await gatesFor(phone)).toBe("login");
    expect((await send(meApi, "GET", "/auth/me", { cookie: phone })).status).toBe(401);
    expect(await gatesFor(laptop)).toBe("page");
  });

  it("a login ends the session its request came with (a planted cookie is worth nothing after the login)", async () => {
    const team = await makeTeam();
    const [victim, attacker] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const planted = await signIn(attacker.name);
    const after = await signIn(victim.name, planted);
    expect(await gatesFor(planted)).toBe("login");
    expect((await send(meApi, "GET", "/auth/me", { cookie: after })).body).toMatchObject({ user: { name: victim.name } });
  });

  it("refuses the old cookie format (a signed user id), an unsigned token and a token that names no session", async () => {
    const admin = await makeUser("admin");
    const old = createCookieSessionStorage({ cookie: { name: "__gk_session", secrets: [getEnv().SESSION_SECRET] } });
    const session = await old.getSession();
    session.set("userId", admin.id);
    const oldCookie = (await old.commitSession(session)).split(";")[0];
    const unsigned = `__gk_session=${Buffer.from(JSON.stringify({ sid: "A".repeat(43) })).toString("base64")}`;
    const unknown = createCookieSessionStorage({ cookie: { name: "__gk_session", secrets: [getEnv().SESSION_SECRET] } });
    const s2 = await unknown.getSession();
    s2.set("sid", "B".repeat(43));
    const unknownCookie = (await unknown.commitSession(s2)).split(";")[0];
    for (const cookie of [oldCookie, unsigned, unknownCookie]) {
      expect(await gatesFor(cookie), cookie).toBe("login");
      expect(await findSessionCaller(cookie)).toBeNull();
    }
  });

  it("ends after 12 h without use and 72 h after the login, used or not; a use is recorded at most once a minute", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const now = Date.now();
    const idle = await signIn(user.name);
    expect(await findSessionCaller(idle, now + 12 * HOUR + 60_000)).toBeNull();

    const busy = await signIn(user.name);
    const { sessionId } = (await findSessionCaller(busy))!;
    const lastUse = async () => (await getDb().select().from(sessions).where(eq(sessions.id, sessionId!)))[0]?.lastUsedAt.getTime();
    // Used every 11 hours: never idle. Each use a minute or more after the last is written; one sooner is not.
    for (const hours of [11, 22, 33, 44, 55, 66]) {
      expect(await findSessionCaller(busy, now + hours * HOUR), `after ${hours} h`).not.toBeNull();
      await expect.poll(lastUse).toBe(now + hours * HOUR);
    }
    // 30 s later: not written. 61 s after the last write: written (had the 30 s use been written, this
    // one would be only 31 s after it, and not written).
    expect(await findSessionCaller(busy, now + 66 * HOUR + 30_000)).not.toBeNull();
    expect(await findSessionCaller(busy, now + 66 * HOUR + 61_000)).not.toBeNull();
    await expect.poll(lastUse).toBe(now + 66 * HOUR + 61_000);
    expect(await findSessionCaller(busy, now + 72 * HOUR + 1000)).toBeNull();
  });

  it("a session remembered as idle too long asks Postgres: live if another process used it since, else refused", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const now = Date.now();
    const almostIdle = now + 12 * HOUR - 30_000;
    for (const usedElsewhere of [true, false]) {
      const cookie = await signIn(user.name);
      const { sessionId } = (await findSessionCaller(cookie))!;
      const lastUse = async () => (await getDb().select().from(sessions).where(eq(sessions.id, sessionId!)))[0]?.lastUsedAt.getTime();
      // Remembered with its last use as of the login; this use is written (fire and forget).
      expect(await findSessionCaller(cookie, almostIdle)).not.toBeNull();
      await expect.poll(lastUse).toBe(almostIdle);
      // Straight in the table (no notice): as if another process wrote it, or as if no use had been written.
      if (!usedElsewhere) await getDb().update(sessions).set({ lastUsedAt: new Date(now) }).where(eq(sessions.id, sessionId!));
      const later = await findSessionCaller(cookie, almostIdle + 31_000);
      expect(later === null ? "refused" : "live", usedElsewhere ? "used elsewhere" : "unused").toBe(usedElsewhere ? "live" : "refused");
    }
  });

  it("a login whose password check raced a password change gets no session", async () => {
    const team = await makeTeam();
    const admin = await makeUser("admin");
    const user = await makeUser("participant", team.id);
    const checked = await verifyThrottledLogin(user.name, "fixture-password", form("/login", {}));
    await updateUser(actorFor(admin.id, admin.name, "admin"), { id: user.id, name: user.name, role: "participant", teamId: team.id, password: "changed-meanwhile" });
    await expect(sessionHeadersFor(checked, form("/login", {}))).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect(await sessionRows(user.id)).toEqual([]);
  });

  it("every process hears a session deleted anywhere (Postgres's notice), and a logout that ends nothing says nothing", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const cookie = await signIn(user.name);
    await watchCallerChanges();
    await expect.poll(() => isHearingChanges()).toBe(true);
    expect(await gatesFor(cookie)).toBe("page"); // remembered now
    const notices: string[] = [];
    const listener = await getDbHandle().sql.listen(CALLERS_CHANGED_CHANNEL, (payload) => {
      if (!payload.startsWith("ping:")) notices.push(payload);
    });
    try {
      // Straight in the table, as another web process or a script would: this process learns it from the notice.
      const deleted = Date.now();
      await getDb().delete(sessions).where(eq(sessions.userId, user.id));
      await expect.poll(() => gatesFor(cookie), { timeout: 2_000, interval: 20 }).toBe("login");
      expect(Date.now() - deleted, "well before the 1 s an unheard process would take").toBeLessThan(500);
      await expect.poll(() => notices.length).toBe(1);
      // Replaying a logout with the dead cookie deletes nothing: no notice, nobody forgets anything.
      await callRoute(logoutRoute, "action", { request: form("/logout", {}, cookie), params: {}, context: {} });
      const live = await signIn(user.name);
      await callRoute(logoutRoute, "action", { request: form("/logout", {}, live), params: {}, context: {} });
      // Notices arrive in commit order: once this marker is heard, every earlier one has been.
      await getDb().execute(sql`select pg_notify(${CALLERS_CHANGED_CHANNEL}, 'marker')`);
      await expect.poll(() => notices.at(-1)).toBe("marker");
      expect(notices).toEqual(["sessions", "sessions", "marker"]);
    } finally {
      await listener.unlisten();
    }
  });

  it("a new role, team or password ends every session of the user; a new name does not; deleting the user ends them", async () => {
    const [a, b] = [await makeTeam(), await makeTeam()];
    const admin = await makeUser("admin");
    const adminCookie = await signIn(admin.name);
    const actor = asActor((await findSessionCaller(adminCookie))!);
    const user = await makeUser("participant", a.id);
    const change = async (values: Partial<Parameters<typeof updateUser>[1]>) => {
      const cookie = await signIn(user.name);
      const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
      await updateUser(actor, { id: user.id, name: row.name, role: row.role, teamId: row.teamId ?? undefined, ...values });
      return gatesFor(cookie);
    };
    expect(await change({ name: `${user.name}-renamed` })).toBe("page");
    await getDb().update(users).set({ name: user.name }).where(eq(users.id, user.id));
    expect(await change({ teamId: b.id })).toBe("login");
    expect(await change({ role: "judge", teamId: undefined })).toBe("login");
    expect(await change({ password: "a-new-password-1" })).toBe("login");

    const doomed = await makeUser("participant", a.id);
    const cookie = await signIn(doomed.name);
    await deleteUser(actor, doomed.id);
    expect(await gatesFor(cookie)).toBe("login");
    expect(await sessionRows(doomed.id)).toEqual([]);
  });

  it("an admin changing their own password keeps the session they did it from and ends their others", async () => {
    const admin = await makeUser("admin");
    const [here, elsewhere] = [await signIn(admin.name), await signIn(admin.name)];
    const actor = asActor((await findSessionCaller(here))!);
    await updateUser(actor, { id: admin.id, name: admin.name, role: "admin", password: "another-password" });
    expect((await send(meApi, "GET", "/auth/me", { cookie: here })).status).toBe(200);
    expect((await send(meApi, "GET", "/auth/me", { cookie: elsewhere })).status).toBe(401);
  });
});

describe("an admin sees a user's sessions and ends them", () => {
  it("on the Users page: the list, one session ended, then every one", async () => {
    const admin = await makeUser("admin");
    const adminCookie = await signIn(admin.name);
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [phone, laptop] = [await signIn(user.name), await signIn(user.name)];

    const page = answerOf(await callRoute(usersPage, "loader", { request: new Request(`http://localhost/dashboard/users?view=${user.id}`, { headers: { Cookie: adminCookie } }), params: {}, context: {} }));
    const viewing = (page.body as { viewing: { sessions: Array<{ id: number; ip: string; userAgent: string }> } }).viewing;
    expect(viewing.sessions).toHaveLength(2);
    expect(viewing.sessions[0]).toMatchObject({ ip: "198.51.100.23" });
    expect(JSON.stringify(page.body)).not.toMatch(/tokenHash|token_hash/);
    const listed = (page.body as { users: Array<{ id: number; sessions: number }> }).users.find((row) => row.id === user.id);
    expect(listed?.sessions).toBe(2);

    const phoneSession = (await findSessionCaller(phone))!.sessionId!;
    const ended = answerOf(await callRoute(usersPage, "action", { request: form("/dashboard/users", { intent: "end-session", id: String(user.id), sessionId: String(phoneSession) }, adminCookie), params: {}, context: {} }));
    expect(ended).toMatchObject({ status: 302, location: `/dashboard/users?view=${user.id}` });
    expect([await gatesFor(phone), await gatesFor(laptop)]).toEqual(["login", "page"]);

    // Ending it again: it has already ended, and the page says so (no 500).
    const again = answerOf(await callRoute(usersPage, "action", { request: form("/dashboard/users", { intent: "end-session", id: String(user.id), sessionId: String(phoneSession) }, adminCookie), params: {}, context: {} }));
    expect(again.status).toBe(302);

    await callRoute(usersPage, "action", { request: form("/dashboard/users", { intent: "end-sessions", id: String(user.id) }, adminCookie), params: {}, context: {} });
    expect(await gatesFor(laptop)).toBe("login");
    // Only admins: a participant's post is refused before anything ends.
    const mine = await signIn(user.name);
    const refused = answerOf(await callRoute(usersPage, "action", { request: form("/dashboard/users", { intent: "end-sessions", id: String(admin.id) }, mine), params: {}, context: {} }));
    expect(refused.status).toBe(403);
    expect(await gatesFor(adminCookie)).not.toBe("login");
  });

  it("through the API: list (never a token), end one, end all; 404 for a session that is not the user's", async () => {
    const admin = await makeUser("admin");
    const adminCookie = await signIn(admin.name);
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [one, two] = [await signIn(user.name), await signIn(user.name)];
    const list = await send(sessionsApi, "GET", `/users/${user.id}/sessions`, { cookie: adminCookie }, { id: String(user.id) });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(Object.keys(list.body![0]).sort()).toEqual(["createdAt", "id", "ip", "lastUsedAt", "userAgent"]);

    const oneId = (await findSessionCaller(one))!.sessionId!;
    const adminSession = (await findSessionCaller(adminCookie))!.sessionId!;
    const notTheirs = await send(sessionApi, "DELETE", `/users/${user.id}/sessions/${adminSession}`, { cookie: adminCookie }, { id: String(user.id), sessionId: String(adminSession) });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toMatchObject({ message: messages.dashboard.sessionNotFound });
    expect((await send(sessionApi, "DELETE", `/users/${user.id}/sessions/${oneId}`, { cookie: adminCookie }, { id: String(user.id), sessionId: String(oneId) })).status).toBe(204);
    expect([await gatesFor(one), await gatesFor(two)]).toEqual(["login", "page"]);
    expect((await send(sessionsApi, "DELETE", `/users/${user.id}/sessions`, { cookie: adminCookie }, { id: String(user.id) })).status).toBe(204);
    expect(await gatesFor(two)).toBe("login");
    expect((await send(sessionsApi, "GET", "/users/99999999/sessions", { cookie: adminCookie }, { id: "99999999" })).status).toBe(404);
  });
});

describe("sockets follow sessions, on every web process", () => {
  let web1: string;
  let web2: string;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    [{ url: web1 }, { url: web2 }] = await Promise.all([startRealtimeServer(), startRealtimeServer()]);
  });
  afterAll(async () => {
    for (const socket of open) socket.disconnect();
    stopAll();
    await closeEmitter();
  });
  const connect = async (url: string, cookie: string) => {
    const socket = await connectSocket(url, cookie);
    open.push(socket);
    return socket;
  };
  const ended = (socket: TestSocket) =>
    new Promise<number>((resolve) => {
      const start = Date.now();
      socket.once("disconnect", () => resolve(Date.now() - start));
    });

  it("ending a session disconnects its sockets on both processes within a second; the user's other session keeps its own", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [cookie, other] = [await signIn(user.name), await signIn(user.name)];
    const [s1, s2, kept] = [await connect(web1, cookie), await connect(web2, cookie), await connect(web2, other)];
    const told = new Promise<void>((resolve) => s1.once("session:ended", () => resolve()));
    const gone = Promise.all([ended(s1), ended(s2)]);
    await callRoute(logoutRoute, "action", { request: form("/logout", {}, cookie), params: {}, context: {} });
    await told;
    const [t1, t2] = await gone;
    expect(Math.max(t1, t2)).toBeLessThan(1000);
    expect(kept.connected).toBe(true);
  });

  it("a demoted admin stops receiving admin events at once; their sessions end", async () => {
    const admin = await makeUser("admin");
    const other = await makeUser("admin");
    const cookie = await signIn(admin.name);
    const socket = await connect(web1, cookie);
    const gone = ended(socket);
    await updateUser(actorFor(other.id, other.name, "admin"), { id: admin.id, name: admin.name, role: "judge" });
    expect(await gone).toBeLessThan(1000);
    // A socket opened with the ended session is refused.
    await expect(connectSocket(web2, cookie)).rejects.toThrow("unauthorized");
  });

  it("a participant moved to another team (by any path) is moved between rooms before the next event", async () => {
    const [a, b] = [await makeTeam(), await makeTeam()];
    const user = await makeUser("participant", a.id);
    const socket = await connect(web2, await signIn(user.name));
    const received: number[] = [];
    socket.on("teams:update", (team) => received.push(team.id));
    // Straight in the table (an import, a script): no session ends, the socket's rooms follow.
    await setTeamOf(user.id, b.id);
    await expect
      .poll(async () => {
        broadcastTeamStanding(standingOf(b), { frozen: true, frozenRank: 1 });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return received.includes(b.id);
      })
      .toBe(true);
    received.length = 0;
    broadcastTeamStanding(standingOf(a), { frozen: true, frozenRank: 1 });
    broadcastTeamStanding(standingOf(b), { frozen: true, frozenRank: 1 });
    await expect.poll(() => received).toContain(b.id);
    expect(received).not.toContain(a.id);
  });

  it("an admin moved to judge straight in the table leaves the admins' room: requests no longer reach them", async () => {
    const admin = await makeUser("admin");
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const socket = await connect(web1, await signIn(admin.name));
    const requests: string[] = [];
    socket.on("request:new", (request) => requests.push(request.message));
    await createRequest("mentor", "before", { userId: player.id, userName: player.name, teamId: team.id, teamName: team.name });
    await expect.poll(() => requests).toContain("before");
    await getDb().update(users).set({ role: "judge" }).where(eq(users.id, admin.id));
    // Judges get standings; wait until this socket is in the judges' room, then send an admin-only event.
    const updates: number[] = [];
    socket.on("teams:update", (standing) => updates.push(standing.id));
    await expect
      .poll(async () => {
        broadcastTeamStanding(standingOf(team), { frozen: true, frozenRank: 1 });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return updates.length > 0;
      })
      .toBe(true);
    await createRequest("mentor", "after", { userId: player.id, userName: player.name, teamId: team.id, teamName: team.name });
    broadcastTeamStanding(standingOf(team), { frozen: true, frozenRank: 1 });
    const before = updates.length;
    await expect.poll(() => updates.length).toBeGreaterThan(before);
    expect(requests).toEqual(["before"]);
  });

  it("the handshake refuses a page on another site, and accepts our own", async () => {
    const admin = await makeUser("admin");
    const cookie = await signIn(admin.name);
    const attempt = (url: string, origin: string) =>
      new Promise<string>((resolve) => {
        const socket = io(url, { transports: ["polling"], extraHeaders: { cookie, origin }, reconnection: false, forceNew: true });
        socket.once("connect", () => {
          socket.disconnect();
          resolve("connected");
        });
        socket.once("connect_error", (error) => resolve(`refused: ${error.message}`));
      });
    expect(await attempt(web1, "https://evil.example")).toMatch(/^refused/);
    expect(await attempt(web1, "null")).toMatch(/^refused/);
    expect(await attempt(web1, new URL(web1).origin)).toBe("connected");
  });
});
