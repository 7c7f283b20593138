/**
 * A web process's live half for integration tests: an HTTP server with our Socket.IO server
 * (session-cookie auth, rooms, Redis adapter) exactly as server.ts attaches it, without needing a
 * Remix build. Prints "listening <port>" once ready. `POST /notify?message=…` broadcasts a notification
 * from inside this process, as a web action does.
 */
import { createServer } from "node:http";
import { attachRealtime } from "../../app/glue/realtime.server.ts";
import { broadcastNotification } from "../../app/modules/realtime/broadcast.server.ts";

const httpServer = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (req.method === "POST" && url.pathname === "/notify") {
    broadcastNotification({ message: url.searchParams.get("message") ?? "", timestamp: new Date().toISOString() });
    res.statusCode = 204;
    res.end();
    return;
  }
  res.statusCode = 404;
  res.end();
});
const realtime = attachRealtime(httpServer);
httpServer.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = httpServer.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => void realtime.close().then(() => process.exit(0)));
