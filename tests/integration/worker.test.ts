import { spawn, type ChildProcess } from "node:child_process";
import { Readable } from "node:stream";
import { QueueEvents } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix, enqueue } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { newObjectKey, objectExists, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { childEnv } from "../setup/env.ts";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

/** Starts `npm run worker`'s process and resolves once it says it is consuming its queues. */
async function startWorkerProcess() {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/index.ts"], {
    env: childEnv({ LOG_LEVEL: "info" }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker started")) resolve();
    });
  });
  return child;
}

describe("worker process", () => {
  it("completes a job that the web side enqueued", async () => {
    const key = newObjectKey("test");
    await uploadStream({ key, body: Readable.from([Buffer.from("orphan")]), limitBytes: 100 });

    const events = new QueueEvents(queues.storageCleanup.name, { connection: createRedis("worker"), prefix: bullPrefix() });
    await events.waitUntilReady();
    const job = await enqueue("storageCleanup", { key });
    await startWorkerProcess();

    await job.waitUntilFinished(events, 20_000);
    await events.close();
    expect(await objectExists(key)).toBe(false);
  });

  it("refuses a payload that does not match the queue's schema before it reaches Redis", async () => {
    await expect(enqueue("storageCleanup", { key: "" })).rejects.toThrow();
  });

  it("closes gracefully on SIGTERM", async () => {
    const child = await startWorkerProcess();
    const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code}/${signal}`)));
    child.kill("SIGTERM");
    expect(await exited).toBe("0/null");
  });
});
