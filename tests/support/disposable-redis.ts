/**
 * A redis-server of the test's own, on a free port, that the test may kill and start again: breaking it
 * disturbs neither the shared Redis nor any other test. No persistence, like production's cache role:
 * a restart comes back empty (queues, snapshot and rate limits gone; Postgres keeps what matters).
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./free-port.ts";
import { DisposableProcess } from "./disposable-process.ts";

export class DisposableRedis extends DisposableProcess {
  static async start(): Promise<DisposableRedis> {
    const redis = new DisposableRedis(await freePort(), mkdtempSync(path.join(tmpdir(), "gk-redis-")));
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again, on the same port) and resolves once it answers PING. */
  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dataDir];
    this.process = spawn("redis-server", args, { stdio: "ignore" });
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (Date.now() > deadline) throw new Error(`test redis on port ${this.port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** One PING on a fresh connection with no retries of its own. */
  async answers(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      return (await client.ping()) === "PONG";
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
