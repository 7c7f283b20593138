/**
 * Visitors who send bodies slowly or too large, and a participant loading pages meanwhile: the hostile
 * bodies drill runs them against a web process, the web-tier drill through the proxy in front of two.
 */
import net from "node:net";
import { get } from "./http.ts";

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** `samples` loads of /gates, two at a time (a participant's browser): each one's time in ms. */
export async function pageLoads(web: string, cookie: string, samples: number): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  let next = 0;
  const lane = async () => {
    while (next++ < samples) {
      const page = await get(`${web}/gates`, cookie).catch(() => null);
      if (page?.status === 200) ms.push(page.ms);
      else failed++;
    }
  };
  await Promise.all([lane(), lane()]);
  return { ms, failed };
}

/** Keeps `count` slow POSTs (a form, one byte every 2 s) open until stopped; counts how the server ended them. */
export function slowBodies(port: number, count: number) {
  let running = true;
  const endings = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const open = () => {
    if (!running) return;
    const socket = net.connect(port, "127.0.0.1");
    sockets.add(socket);
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    socket.on("connect", () => {
      socket.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n`);
      timer = setInterval(() => socket.write("a"), 2_000);
    });
    socket.on("data", (data) => (answer += data.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      sockets.delete(socket);
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? "closed";
      endings.set(status, (endings.get(status) ?? 0) + 1);
      open();
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    endings,
    stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Oversized bodies until stopped, each sender one every 200 ms: declared 50 MB forms and 4 MB chunked JSON. */
export function oversizedBodies(web: string, rounds = Infinity) {
  const pace = () => new Promise((resolve) => setTimeout(resolve, 200));
  let running = true;
  const statuses = new Map<number | string, number>();
  const count = (status: number | string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const declared = async () => {
    for (let sent = 0; running && sent < rounds; sent++) {
      const status = await new Promise<number | string>((resolve) => {
        const { port } = new URL(web);
        const socket = net.connect(Number(port), "127.0.0.1", () =>
          socket.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 52428800\r\n\r\n`),
        );
        let answer = "";
        // A server that waits for the 50 MB (as before bodies were bounded) is given up on after 5 s.
        socket.setTimeout(5_000, () => socket.destroy());
        socket.on("data", (data) => (answer += data.toString()));
        socket.on("error", () => {});
        socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0) || "no answer"));
      });
      count(status);
      await pace();
    }
  };
  const streamed = async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    for (let sent = 0; running && sent < rounds; sent++) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 64; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const status = await fetch(`${web}/api/v1/announcements`, { method: "POST", headers: { "Content-Type": "application/json" }, body, duplex: "half", signal: AbortSignal.timeout(5_000) } as RequestInit)
        .then((response) => response.status)
        .catch(() => "reset");
      count(status);
      await pace();
    }
  };
  const senders = rounds === Infinity ? 3 : 1;
  const work = Promise.all([...Array.from({ length: senders }, declared), ...Array.from({ length: senders }, streamed)]);
  return {
    statuses,
    /** Ends the attack (a bounded one once its rounds are done). */
    async stop() {
      if (rounds === Infinity) running = false;
      await work;
    },
  };
}

/** "3 × 413, 1 × reset": how a set of hostile requests was answered. */
export const answers = (statuses: Map<number | string, number>) => [...statuses].map(([status, n]) => `${n} × ${status}`).join(", ");
