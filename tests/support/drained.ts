import { broadcastNotification } from "../../app/modules/realtime/broadcast.server.ts";
import { nextEvent, type TestSocket } from "./processes.ts";

/**
 * Resolves once the socket has had every event this process sent it before now (one emitter's events keep
 * their order): a notification sent after them is the barrier. To prove something never arrived, with `collect`.
 */
export async function drained(socket: TestSocket) {
  const marker = `barrier ${Math.random()}`;
  const heard = nextEvent(socket, "notification", (event) => event.message === marker);
  broadcastNotification({ message: marker, timestamp: new Date().toISOString() });
  await heard;
}
