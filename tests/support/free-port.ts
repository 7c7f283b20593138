import { createServer } from "node:net";

/** Ports other work on this machine holds (e2e servers, other checkouts' benches): never hand them out. */
const RESERVED = (port: number) => port === 3105 || port === 3205 || port === 3305 || (port >= 4100 && port <= 4199);

/** A TCP port that was free a moment ago, chosen by the OS (so two callers never race for one number). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port: chosen } = server.address() as { port: number };
        server.close(() => resolve(chosen));
      });
    });
    if (!RESERVED(port)) return port;
  }
}
