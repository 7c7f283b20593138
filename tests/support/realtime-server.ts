/**
 * A web process's live half for integration tests: an HTTP server with our Socket.IO server
 * (session-cookie auth, rooms, Redis adapter) exactly as server.ts attaches it, without needing a
 * Remix build. Prints "listening <port>" once ready.
 */
import { createServer } from "node:http";
import { attachRealtime } from "../../app/glue/realtime.server.ts";

const httpServer = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
const realtime = attachRealtime(httpServer);
httpServer.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = httpServer.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => void realtime.close().then(() => process.exit(0)));
