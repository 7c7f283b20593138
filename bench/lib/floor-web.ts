/**
 * The live-path benchmark's floor (bench/live-path.ts --floor, on by default): a "web process" with no
 * application. A Socket.IO server with the Redis adapter, as app/glue/realtime.server.ts builds it (same
 * socket.io and adapter versions, same options, a Redis connection for publishing and a duplicate for
 * subscribing, the key `<prefix>:socket.io`), on a bare HTTP server: no Express, no Remix, no sessions.
 * Each socket joins the rooms a participant's socket joins (its role's and a team's), with no lookup.
 *
 *   PORT, REDIS_URL, FLOOR_KEY (the adapter's key: another prefix than the app's, so neither hears the other)
 */
import { createServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import { Server } from "socket.io";

const port = Number(process.env.PORT);
const key = process.env.FLOOR_KEY!;
// The app's "subscriber" purpose (app/infrastructure/redis.server.ts): it blocks, so it waits for Redis.
const pub = new Redis(process.env.REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: null });
const sub = pub.duplicate();
pub.on("error", () => {});
sub.on("error", () => {});

const httpServer = createServer((req, res) => {
  res.writeHead(req.url === "/healthz" ? 200 : 404, { "content-type": "application/json" }).end('{"status":"ok"}');
});
const io = new Server(httpServer, {
  adapter: createAdapter(pub, sub, { key }),
  transports: ["websocket", "polling"],
  serveClient: false,
});
let connected = 0;
io.on("connection", (socket) => {
  // A participant's rooms (app/modules/realtime/rooms.ts): "participants" and their team's.
  void socket.join(["participants", `team:${connected++ % 250}`]);
});
httpServer.listen(port);

process.on("SIGTERM", () => {
  io.close(() => {
    void Promise.allSettled([pub.quit(), sub.quit()]).then(() => process.exit(0));
  });
});
