/**
 * A web process emits through its own Socket.IO server (app/infrastructure/emitter.server.ts): its own
 * sockets get the event at once, without the round trip through Redis, and the other web processes through
 * the Redis adapter. Shown on a Redis of the file's own, stopped (SIGSTOP) while the event is sent: the
 * sender's sockets have it at once, the other process's once Redis answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureEventSettings, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { DisposableRedis } from "../support/disposable-redis.ts";
import { connectSocket, nextEvent, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";

let redis: DisposableRedis;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  redis = await DisposableRedis.start();
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  redis.resume();
  await redis.destroy();
});

async function participantSocket(url: string) {
  const team = await makeTeam();
  const socket = await connectSocket(url, await sessionCookie((await makeUser("participant", team.id)).id));
  sockets.push(socket);
  return socket;
}

describe("a web process's own broadcasts", () => {
  it("reach its own sockets without Redis, and the other web process's through it", async () => {
    await ensureEventSettings();
    const [sender, other] = await Promise.all([startRealtimeServer({ REDIS_URL: redis.url }), startRealtimeServer({ REDIS_URL: redis.url })]);
    const here = await participantSocket(sender.url);
    const there = await participantSocket(other.url);
    const notify = async (message: string) => {
      const response = await fetch(`${sender.url}/notify?message=${encodeURIComponent(message)}`, { method: "POST" });
      expect(response.status).toBe(204);
    };

    // Both ways while Redis answers.
    const both = [nextEvent(here, "notification", (event) => event.message === "first"), nextEvent(there, "notification", (event) => event.message === "first")];
    await notify("first");
    await Promise.all(both);

    redis.pause();
    let thereGotIt = false;
    const late = nextEvent(there, "notification", (event) => event.message === "second", 20_000).then((event) => ((thereGotIt = true), event));
    try {
      const local = nextEvent(here, "notification", (event) => event.message === "second", 5_000);
      await notify("second");
      // The sender's own socket: no Redis on its way.
      expect((await local)[0].message).toBe("second");
      // The other process's only through Redis, which answers nothing now.
      expect(thereGotIt).toBe(false);
    } finally {
      redis.resume();
    }
    // The adapter's publish was sent; Redis delivers it once it runs again.
    expect((await late)[0].message).toBe("second");
  });
});
