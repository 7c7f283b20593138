import { spawn, type ChildProcess } from "node:child_process";
import { io, type Socket } from "socket.io-client";
import type { ServerToClientEvents } from "../../app/modules/realtime/events.ts";
import { productionServiceEnv } from "../../scripts/lib/local-services.ts";
import { childEnv } from "../setup/env.ts";

const children = new Set<ChildProcess>();

/**
 * Starts a child (node --import tsx file) and resolves when its output matches `ready`. `stderr: "pipe"` keeps
 * its stderr readable (`child.stderr`), for a test that reads what the process printed there.
 */
export function startProcess(file: string, ready: RegExp, env: Record<string, string> = {}, options: { stderr?: "inherit" | "pipe" } = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", file], { env: childEnv({ LOG_LEVEL: "info", ...env }), stdio: ["ignore", "pipe", options.stderr ?? "inherit"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return new Promise<{ child: ChildProcess; match: RegExpMatchArray }>((resolve, reject) => {
    let output = "";
    const onExit = (code: number | null) => reject(new Error(`${file} exited early (${code})`));
    child.once("exit", onExit);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (!match) return;
      // Ready: keep draining the output (a full pipe would block the child) without keeping it.
      child.off("exit", onExit);
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve({ child, match });
    };
    child.stdout!.on("data", onData);
  });
}

export const startWorker = (env: Record<string, string> = {}) => startProcess("workers/index.ts", /worker started/, env).then(({ child }) => child);

export async function startRealtimeServer(env: Record<string, string> = {}) {
  const { child, match } = await startProcess("tests/support/realtime-server.ts", /listening (\d+)/, env);
  return { child, url: `http://127.0.0.1:${match[1]}` };
}

/**
 * The real web process: server.ts serving the Remix build, in production mode (as deployed: errors
 * without stacks, Secure cookies), on a free port. Needs `npm run build` first.
 */
export async function startWebServer(env: Record<string, string> = {}, options: { stderr?: "inherit" | "pipe" } = {}) {
  const { child, match } = await startProcess(
    "server.ts",
    /listening on http:\/\/localhost:(\d+)/,
    { NODE_ENV: "production", SESSION_SECRET: WEB_SESSION_SECRET, ...productionServiceEnv(), PORT: "0", ...env },
    options,
  );
  return { child, url: `http://127.0.0.1:${match[1]}` };
}

/** Production refuses the dev secret; the tests' web processes share this one. */
export const WEB_SESSION_SECRET = "drill-session-secret-that-is-long-enough-0123456789";

export function stopAll() {
  for (const child of children) child.kill("SIGKILL");
}

export type TestSocket = Socket<ServerToClientEvents>;

/** A socket.io-client connected with a user's session cookie (as a browser would). */
export async function connectSocket(url: string, cookie?: string): Promise<TestSocket> {
  const socket: TestSocket = io(url, { transports: ["websocket"], extraHeaders: cookie ? { cookie } : {}, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Resolves with the first event matching `predicate`, or rejects after `ms`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  predicate: (...args: Parameters<ServerToClientEvents[E]>) => boolean = () => true,
  ms = 10_000,
) {
  return new Promise<Parameters<ServerToClientEvents[E]>>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, handler as never);
      reject(new Error(`no ${String(event)} within ${ms} ms`));
    }, ms);
    const handler = (...args: Parameters<ServerToClientEvents[E]>) => {
      if (!predicate(...args)) return;
      clearTimeout(timer);
      socket.off(event, handler as never);
      resolve(args);
    };
    socket.on(event, handler as never);
  });
}

/** Collects every `event` the socket receives (to prove something never arrived). */
export function collect<E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) {
  const received: Array<Parameters<ServerToClientEvents[E]>> = [];
  socket.on(event, ((...args: Parameters<ServerToClientEvents[E]>) => received.push(args)) as never);
  return received;
}
