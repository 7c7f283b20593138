/**
 * The socket.io clients' child processes (bench/lib/socket-shard.ts) as a benchmark starts and talks to them:
 * bench:live and bench:flags.
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

/** The child's next message; a child that exits first (a socket refused, a crash) fails the run instead of hanging it. */
export async function nextMessage<T>(child: ChildProcess): Promise<T> {
  // Both listeners go once either fires: a run collects hundreds of times from each shard.
  const done = new AbortController();
  const exited = once(child, "exit", { signal: done.signal }).then(([code]) => {
    throw new Error(`a child process exited (code ${code}) before it answered`);
  });
  exited.catch(() => {});
  try {
    const [message] = (await Promise.race([once(child, "message", { signal: done.signal }), exited])) as [T];
    return message;
  } finally {
    done.abort();
  }
}

/** Client processes (bench/lib/socket-shard.ts), each with an equal share of the sockets. */
export async function startShards(count: number, cookies: string[], urls: string[]): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, shard) => {
      const child = fork(fileURLToPath(new URL("./socket-shard.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"] });
      // Client i goes to web i mod webs, as without shards: spread evenly over the web processes.
      const mine = cookies.filter((_, index) => index % count === shard);
      const offset = shard % urls.length;
      child.send({ type: "connect", urls: [...urls.slice(offset), ...urls.slice(0, offset)], cookies: mine });
      const reply = await nextMessage<{ type: string }>(child);
      if (reply.type !== "connected") throw new Error(`socket shard ${shard} did not connect`);
      return child;
    }),
  );
}
