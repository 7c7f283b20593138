import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server, type Socket } from "socket.io";
import { isHearingChanges, onCallersChanged, watchCallerChanges } from "../modules/auth/caller-changes.server.ts";
import { findLiveSessions, hashSessionToken, touchSessions } from "../modules/auth/sessions.server.ts";
import { asCaller, findSessionCaller, type Caller } from "./caller.server.ts";
import { isForeignOrigin } from "./csrf.server.ts";
import { getEnv } from "../infrastructure/env.server.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { socketKey, emitThroughLocalServer } from "../infrastructure/emitter.server.ts";
import { createRedis } from "../infrastructure/redis.server.ts";
import { messages } from "../modules/messages.ts";
import { DEFAULT_LANGUAGE } from "../modules/i18n/i18n.ts";
import { translateMessage } from "../modules/i18n/server-messages.ts";
import { acceptedLanguage, cookieLanguage } from "./language.server.ts";
import { roomsOf } from "../modules/realtime/rooms.ts";
import { readSessionToken } from "./session.server.ts";

interface SocketData {
  user: Caller;
  /** The SHA-256 of the session token the socket was opened with. */
  sessionHash: string;
}

/**
 * How often a web process re-checks its sockets' sessions without being told (a backstop that also
 * records their use); every second while changes are not heard (caller-changes.server.ts).
 */
const SOCKET_SWEEP_MS = 60_000;
const UNHEARD_SWEEP_MS = 1_000;


/**
 * The sockets this web process holds per session and per user: one player's tabs or script cannot take
 * every connection (SOCKETS_PER_SESSION, SOCKETS_PER_USER; docs/RELIABILITY.md). Counted per web process:
 * behind the proxy a signed-in browser's connections all go to the process its session is pinned to.
 */
export function socketCounts(limits = { perSession: getEnv().SOCKETS_PER_SESSION, perUser: getEnv().SOCKETS_PER_USER }) {
  const bySession = new Map<string, number>();
  const byUser = new Map<number, number>();
  const less = <K>(map: Map<K, number>, key: K) => {
    const left = (map.get(key) ?? 0) - 1;
    if (left > 0) map.set(key, left);
    else map.delete(key);
  };
  return {
    /** Takes a place for a new socket, or says why not (connect_error's message, and a code). */
    take(sessionHash: string, userId: number): { code: "too_many_for_session" | "too_many_for_user"; message: string } | null {
      const session = bySession.get(sessionHash) ?? 0;
      const user = byUser.get(userId) ?? 0;
      if (session >= limits.perSession) return { code: "too_many_for_session", message: messages.realtime.tooManyForSession(limits.perSession) };
      if (user >= limits.perUser) return { code: "too_many_for_user", message: messages.realtime.tooManyForUser(limits.perUser) };
      bySession.set(sessionHash, session + 1);
      byUser.set(userId, user + 1);
      return null;
    },
    /** Gives a socket's place back (it disconnected). */
    give(sessionHash: string, userId: number) {
      less(bySession, sessionHash);
      less(byUser, userId);
    },
  };
}

/**
 * Socket.IO on the web process's own HTTP server. The Redis adapter shares every emit with the
 * other web processes, so a browser connected anywhere receives it. Visitors get no socket: the
 * connection is authenticated from the session cookie.
 */
export function attachRealtime(httpServer: HttpServer) {
  const pub = createRedis("subscriber");
  const sub = pub.duplicate();
  sub.on("error", () => {});
  // The adapter publishes each broadcast without handling a failure (a command still queued when the connection
  // closes): logged, never an unhandled rejection. Events are hints (app/infrastructure/emitter.server.ts).
  const publish = pub.publish.bind(pub);
  pub.publish = ((channel: string, message: string | Buffer) =>
    publish(channel, message).catch((error: unknown) => {
      getLogger().warn({ err: error, channel }, "live event not published");
      return 0;
    })) as typeof pub.publish;
  const io = new Server(httpServer, {
    adapter: createAdapter(pub, sub, { key: socketKey() }),
    transports: ["websocket", "polling"],
    serveClient: false,
    // Cross-site WebSocket hijacking: a page on another site could open a socket with our cookie (the
    // handshake is a GET, so the CSRF check lets it through). A browser always names its page's origin.
    allowRequest: (req, callback) => {
      const refused = isForeignOrigin(req.headers.origin, req.headers.host, getEnv().APP_ORIGIN);
      if (refused) getLogger().warn({ origin: req.headers.origin }, "socket from a foreign origin refused");
      callback(refused ? "foreign origin" : null, !refused);
    },
  });

  // While the subscriber is cut off, events from other processes (standings, announcements) are lost, yet
  // browsers keep their sockets and would never re-read. Once it is back, tell them to (Redis restart drill).
  // setImmediate: ioredis announces "ready" just before it re-subscribes; the resubscription goes out first.
  let subscriberLost = false;
  sub.on("close", () => (subscriberLost = true));
  sub.on("ready", () => {
    if (!subscriberLost) return;
    subscriberLost = false;
    setImmediate(() => io.local.emit("resync"));
  });

  // Counts the changes heard: a socket whose handshake overlapped one is re-checked once it is in the list.
  let changesHeard = 0;
  const counts = socketCounts();
  io.use(async (socket, next) => {
    socket.data.changesSeen = changesHeard;
    let data: SocketData;
    try {
      // Sockets take no token: an Authorization header is the caller's alone, so no one (app/glue/caller.server.ts).
      if (socket.request.headers.authorization !== undefined) return next(new Error("unauthorized"));
      const cookie = socket.request.headers.cookie;
      const [user, token] = await Promise.all([findSessionCaller(cookie), readSessionToken(cookie)]);
      if (!user || !token) return next(new Error("unauthorized"));
      data = { user, sessionHash: hashSessionToken(token) };
    } catch (error) {
      getLogger().warn({ err: error }, "socket authentication failed");
      return next(new Error("unavailable"));
    }
    // The browser left during the lookup: Socket.IO drops the socket, nothing to count.
    if (socket.conn.readyState !== "open") return next(new Error("closed"));
    const refusal = counts.take(data.sessionHash, data.user.id);
    if (refusal) {
      getLogger().warn({ userId: data.user.id, refusal: refusal.code }, "socket refused: too many connections");
      // In the browser's language (its `lang` cookie, then Accept-Language), as every refusal.
      const headers = socket.request.headers;
      const language = cookieLanguage(headers.cookie ?? null) ?? acceptedLanguage(headers["accept-language"] ?? null) ?? DEFAULT_LANGUAGE;
      return next(Object.assign(new Error(translateMessage(refusal.message, language)), { data: { code: refusal.code } }));
    }
    // Given back once, whichever comes first: the socket's disconnect, or its connection closing before
    // Socket.IO let it in (it then never connects, and never disconnects).
    let held = true;
    const giveBack = () => {
      if (!held) return;
      held = false;
      counts.give(data.sessionHash, data.user.id);
    };
    socket.once("disconnect", giveBack);
    socket.conn.once("close", giveBack);
    Object.assign(socket.data, data);
    next();
  });

  io.on("connection", (socket) => {
    void socket.join(roomsOf((socket.data as SocketData).user));
    if (socket.data.changesSeen !== changesHeard) void check();
  });

  /**
   * Sockets follow sessions: after every change Postgres reports to users, teams or sessions (on every
   * web process at once), and once a minute regardless, each process re-reads the sessions of its own
   * sockets in one query. A socket whose session has ended is told and disconnected; a socket whose
   * user changed role or team is moved to the right rooms. Both once the notice has arrived and the
   * query answered: an event emitted in those milliseconds after the commit still reaches the old rooms.
   */
  let checking: Promise<void> | null = null;
  let again = false;
  let againRecord = false;
  const reconcile = async (record: boolean) => {
    const local = [...io.of("/").sockets.values()] as Array<Socket & { data: SocketData }>;
    const hashes = [...new Set(local.map((socket) => socket.data.sessionHash))];
    if (hashes.length === 0) return;
    // An open page is a page in use: the sweep records it, so a big screen's session does not go idle.
    if (record) await touchSessions(hashes);
    const live = new Map((await findLiveSessions(hashes)).map((session) => [session.tokenHash, session]));
    for (const socket of local) {
      if (!socket.connected) continue;
      const session = live.get(socket.data.sessionHash);
      if (!session) {
        socket.emit("session:ended");
        socket.disconnect(true);
        continue;
      }
      const now = asCaller(session);
      const before = roomsOf(socket.data.user);
      const after = roomsOf(now);
      for (const room of before) if (!after.includes(room)) void socket.leave(room);
      if (after.some((room) => !before.includes(room))) void socket.join(after);
      socket.data.user = now;
    }
  };
  const check = (record = false): Promise<void> => {
    if (checking) {
      again = true;
      againRecord ||= record;
      return checking;
    }
    checking = reconcile(record)
      .catch((error: unknown) => getLogger().warn({ err: error }, "cannot re-check the sockets' sessions"))
      .finally(() => {
        checking = null;
        if (again) {
          const recordNext = againRecord;
          again = false;
          againRecord = false;
          void check(recordNext);
        }
      });
    return checking;
  };
  const stopHearing = onCallersChanged(() => {
    changesHeard++;
    void check();
  });
  void watchCallerChanges();
  let lastSweep = Date.now();
  const sweep = setInterval(() => {
    if (isHearingChanges() && Date.now() - lastSweep < SOCKET_SWEEP_MS) return;
    const record = Date.now() - lastSweep >= SOCKET_SWEEP_MS;
    if (record) lastSweep = Date.now();
    void check(record);
  }, UNHEARD_SWEEP_MS);
  sweep.unref();

  // This process's own broadcasts go out through this server: its sockets get them without the round trip
  // through Redis (app/infrastructure/emitter.server.ts).
  emitThroughLocalServer(io);
  return {
    io,
    async close() {
      emitThroughLocalServer(null);
      clearInterval(sweep);
      stopHearing();
      // io.close() disconnects every socket and closes the HTTP server it is attached to.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all([pub.quit().catch(() => {}), sub.quit().catch(() => {})]);
    },
  };
}
