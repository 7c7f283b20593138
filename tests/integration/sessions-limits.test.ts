/**
 * One player cannot hold what others need (docs/RELIABILITY.md): at most SESSIONS_PER_USER (10) live
 * sessions a user (a login past it ends the oldest, and its first page says so), and at most
 * SOCKETS_PER_SESSION (10) and SOCKETS_PER_USER (20) Socket.IO connections on a web process, refused at
 * the handshake with a sentence; a socket that goes gives its place back.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../../db/schema.ts";
import { findSessionCaller } from "../../app/glue/caller.server.ts";
import { getToast } from "../../app/glue/toast.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { startSession } from "../../app/modules/auth/sessions.server.ts";
import { translateMessage } from "../../app/modules/i18n/server-messages.ts";
import { messages } from "../../app/modules/messages.ts";
import { makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { connectSocket, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";
import { answerOf, callRoute, loadRouteModule, routeManifest, type RouteModule } from "../support/route-manifest.ts";

const route = (id: string) => loadRouteModule(routeManifest.find((candidate) => candidate.id === id)!);
let loginRoute: RouteModule;
let gatesRoute: RouteModule;

beforeAll(async () => {
  [loginRoute, gatesRoute] = await Promise.all([route("routes/login"), route("routes/_app.gates")]);
});

/** Signs in through the login page; returns the cookies the browser keeps (session, and the toast if any). */
async function signIn(name: string) {
  const request = new Request("http://localhost/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost", "x-gatekeeper-client-ip": "198.51.100.40" },
    body: new URLSearchParams({ username: name, password: "fixture-password" }),
  });
  const answer = (await callRoute(loginRoute, "action", { request, params: {}, context: {} })) as Response;
  expect(answer.status).toBe(302);
  const cookies = answer.headers.getSetCookie().map((line) => line.split(";")[0]);
  return { session: cookies.find((cookie) => cookie.startsWith("__gk_session="))!, toast: cookies.find((cookie) => cookie.startsWith("__gk_toast=")) };
}

const liveCount = async (userId: number) => (await getDb().select({ n: sql<number>`count(*)::int` }).from(sessions).where(eq(sessions.userId, userId)))[0].n;

/** What a page answers the cookie: 200, or a redirect to /login for a visitor. */
async function gatesAs(cookie: string) {
  const request = new Request("http://localhost/gates", { headers: { Cookie: cookie } });
  return answerOf(await callRoute(gatesRoute, "loader", { request, params: {}, context: {} }));
}

describe("live sessions per user", () => {
  it("a login past 10 live sessions ends the oldest; its next request is signed out; the new session's first page says so, in English and Arabic", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const first = await sessionCookie(user.id);
    const others: string[] = [];
    for (let i = 0; i < 9; i++) others.push(await sessionCookie(user.id));
    expect(await liveCount(user.id)).toBe(10);
    expect((await gatesAs(first)).status).toBe(200);

    const { session, toast } = await signIn(user.name);
    expect(await liveCount(user.id)).toBe(10);
    // The oldest sign-in is over, as any ended session: a visitor's, sent to /login.
    expect(await findSessionCaller(first)).toBeNull();
    const oldest = await gatesAs(first);
    expect(oldest.status).toBe(302);
    expect(oldest.location).toMatch(/^\/login/);
    for (const cookie of [...others, session]) expect(await findSessionCaller(cookie)).toMatchObject({ id: user.id });
    // The first page after the login shows the toast.
    expect(toast).toBeDefined();
    const shown = await getToast(new Request("http://localhost/", { headers: { Cookie: toast! } }));
    expect(shown.toast?.title).toBe("You were signed in on too many devices; the oldest sign-in was ended.");
    expect(translateMessage(shown.toast!.title, "ar")).toBe("كنت مسجّل الدخول على أجهزة كثيرة جدًا؛ أُنهي أقدم تسجيل دخول.");
  });

  it("a login under the limit ends nothing and shows no toast", async () => {
    const user = await makeUser("judge");
    for (let i = 0; i < 3; i++) await sessionCookie(user.id);
    const { toast } = await signIn(user.name);
    expect(toast).toBeUndefined();
    expect(await liveCount(user.id)).toBe(4);
  });

  it("simultaneous logins leave the user at the limit, never above it, the newest kept", async () => {
    const user = await makeUser("judge");
    for (let i = 0; i < 8; i++) await sessionCookie(user.id);
    const started = await Promise.all(Array.from({ length: 6 }, () => startSession(user.id, { ip: null, userAgent: null })));
    expect(await liveCount(user.id)).toBe(10);
    for (const each of started) expect(each).not.toBeNull();
    const kept = await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(kept).toHaveLength(10);
  });
});

describe("Socket.IO connections per session and per user, on one web process", () => {
  let url: string;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    ({ url } = await startRealtimeServer());
  });
  afterAll(async () => {
    for (const socket of open) socket.disconnect();
    stopAll();
    await closeEmitter();
  });
  const connect = async (cookie: string) => {
    const socket = await connectSocket(url, cookie);
    open.push(socket);
    return socket;
  };
  const gone = (socket: TestSocket) => new Promise<void>((resolve) => (socket.connected ? socket.once("disconnect", () => resolve()) : resolve()));

  it("refuses an 11th socket of one session and a 21st of one user with a sentence; a socket that leaves frees its place", async () => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [a, b, c] = [await sessionCookie(user.id), await sessionCookie(user.id), await sessionCookie(user.id)];
    const ofA: TestSocket[] = [];
    for (let i = 0; i < 10; i++) ofA.push(await connect(a));
    await expect(connectSocket(url, a)).rejects.toThrow(messages.realtime.tooManyForSession(10));
    expect(messages.realtime.tooManyForSession(10)).toBe("Too many live connections for this sign-in (10 at most): close a tab, then reload.");

    // In the language the browser chose with the switch.
    await expect(connectSocket(url, `${a}; lang=ar`)).rejects.toThrow("اتصالات مباشرة كثيرة لتسجيل الدخول هذا (10 على الأكثر): أغلق تبويبًا ثم أعد تحميل الصفحة.");

    for (let i = 0; i < 10; i++) await connect(b);
    await expect(connectSocket(url, c)).rejects.toThrow(messages.realtime.tooManyForUser(20));
    // Another user is not held up.
    const someoneElse = await makeUser("participant", team.id);
    await connect(await sessionCookie(someoneElse.id));

    // One of A's tabs closes: the user has a place again, and so has session A.
    const leaving = ofA.pop()!;
    const left = gone(leaving);
    leaving.disconnect();
    await left;
    await expect.poll(async () => connectSocket(url, c).then((socket) => (open.push(socket), "connected"), (error: Error) => error.message), { timeout: 5_000 }).toBe("connected");

    // Every socket of the user goes: nothing is left counted against them.
    const mine = open.filter((socket) => socket.connected);
    await Promise.all(mine.map((socket) => {
      const done = gone(socket);
      socket.disconnect();
      return done;
    }));
    await expect.poll(async () => connectSocket(url, a).then((socket) => (open.push(socket), "connected"), (error: Error) => error.message), { timeout: 5_000 }).toBe("connected");
    for (let i = 0; i < 9; i++) await connect(a);
    await expect(connectSocket(url, a)).rejects.toThrow(messages.realtime.tooManyForSession(10));
  });
});
