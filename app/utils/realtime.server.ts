import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server } from "socket.io";
import { findSessionUser } from "../modules/auth/login.server.ts";
import { getLogger } from "./logger.server.ts";
import { socketKey } from "./emitter.server.ts";
import { createRedis } from "./redis.server.ts";
import { rooms } from "./rooms.ts";
import { getSessionStorage } from "./session.server.ts";


/**
 * Socket.IO on the web process's own HTTP server. The Redis adapter shares every emit with the
 * other web processes, so a browser connected anywhere receives it. Visitors get no socket: the
 * connection is authenticated from the session cookie.
 */
export function attachRealtime(httpServer: HttpServer) {
  const pub = createRedis("subscriber");
  const sub = pub.duplicate();
  sub.on("error", () => {});
  const io = new Server(httpServer, {
    adapter: createAdapter(pub, sub, { key: socketKey() }),
    transports: ["websocket", "polling"],
    serveClient: false,
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

  io.use(async (socket, next) => {
    try {
      const session = await getSessionStorage().getSession(socket.request.headers.cookie);
      const userId = session.get("userId");
      const user = typeof userId === "number" ? await findSessionUser(userId) : null;
      if (!user) return next(new Error("unauthorized"));
      socket.data.user = user;
      next();
    } catch (error) {
      getLogger().warn({ err: error }, "socket authentication failed");
      next(new Error("unavailable"));
    }
  });

  io.on("connection", (socket) => {
    const user = socket.data.user as Awaited<ReturnType<typeof findSessionUser>> & object;
    const joined: string[] = [
      user.role === "admin" ? rooms.admins : user.role === "judge" ? rooms.judges : rooms.participants,
    ];
    if (user.teamId !== null) joined.push(rooms.team(user.teamId));
    void socket.join(joined);
  });

  return {
    io,
    async close() {
      // io.close() disconnects every socket and closes the HTTP server it is attached to.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all([pub.quit().catch(() => {}), sub.quit().catch(() => {})]);
    },
  };
}
