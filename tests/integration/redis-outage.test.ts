/**
 * No lost update when Redis is down: the judge's score is saved (the request does not hang), the
 * team stays marked stale in Postgres, and once Redis is back a worker's sweep catches up.
 * This file runs its own Redis server, so stopping it disturbs no other test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standings, standingsOutbox, submissions } from "../../db/schema.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/utils/db.server.ts";
import { closeEmitter } from "../../app/utils/emitter.server.ts";
import { getRedis } from "../../app/utils/redis.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser } from "../support/fixtures.ts";
import { startWorker, stopAll } from "../support/processes.ts";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

let redis: ChildProcess | undefined;
let port = 0;
const dir = mkdtempSync(path.join(tmpdir(), "gk-redis-"));

async function startRedis() {
  redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
  for (let attempt = 0; attempt < 50; attempt++) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = spawn("redis-cli", ["-p", String(port), "ping"], { stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      probe.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      probe.on("exit", () => resolve(out.includes("PONG")));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("test redis did not start");
}

async function stopRedis() {
  const exited = new Promise((resolve) => redis?.once("exit", resolve));
  redis?.kill("SIGKILL");
  await exited;
}

beforeAll(async () => {
  port = await freePort();
  // Before anything reads the configuration: this file's app code talks to this Redis only.
  process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
  await startRedis();
});

afterAll(async () => {
  stopAll();
  await closeEmitter();
  redis?.kill("SIGKILL");
});

describe("Redis outage", () => {
  it("saves the score at once and catches the standings up when Redis is back", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const submission = await makeSubmission(team.id, challenge.id, null);

    await stopRedis();
    const started = Date.now();
    const result = await scoreSubmission({ submissionId: submission.id, judgeId: judge.id, score: "88" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.scoreCenti).toBe(8800);
    const [saved] = await getDb().select().from(submissions).where(eq(submissions.id, submission.id));
    expect(saved).toMatchObject({ scoreCenti: 8800, status: "reviewed" });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);

    await startRedis();
    await startWorker({ REDIS_URL: process.env.REDIS_URL! });
    const deadline = Date.now() + 20_000;
    let row: typeof standings.$inferSelect | undefined;
    while (Date.now() < deadline) {
      [row] = await getDb().select().from(standings).where(eq(standings.teamId, team.id));
      if (row?.totalCenti === 8800) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(row).toMatchObject({ totalCenti: 8800, solvedCount: 1 });
    const { board } = await readSnapshot(getRedis());
    expect(board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 88, rank: 1 });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });
});
