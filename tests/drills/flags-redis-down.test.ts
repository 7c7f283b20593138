/**
 * Drill: Redis is down while teams answer flag challenges through a real web process (docs/domain.md "Guessing
 * has a price", "While Redis is down"). Postgres decides every verdict, so wrong answers are judged and counted,
 * waits and maximums hold, and a right answer is a solve with its standings mark; once Redis is back the
 * standings catch up (the outbox sweep) and equal a full rebuild. The Redis is the drill's own.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flagAttempts, flagSolves, standingsOutbox } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { DisposableRedis } from "../support/disposable-redis.ts";
import { ensureEventSettings, makeTeam, makeUser, openAllGates } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { expectStandingsMatchRebuild, waitForEmptyOutbox } from "../support/standings.ts";
import { FIXTURE_PASSWORD } from "./support/event.ts";
import { login } from "./support/http.ts";

let redis: DisposableRedis;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  // Before anything reads the configuration: this file's app code and child processes use this Redis only.
  process.env.REDIS_URL = redis.url;
});

afterAll(async () => {
  stopAll();
  await closeEmitter();
  await redis?.destroy();
});

describe("drill: Redis down while teams answer flags", () => {
  it("judges and limits every answer by Postgres, keeps every solve, and the standings catch up once Redis is back", async () => {
    await ensureEventSettings();
    await openAllGates();
    const limited = await makeFlagChallenge([{ kind: "exact", value: "GK{limits}" }], { wrongPerMinute: 2, maxAttempts: 3 });
    const solvable = await makeFlagChallenge([{ kind: "exact", value: "GK{down}" }], { points: 300 });
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const [{ url }] = await Promise.all([startWebServer(), startWorker()]);
    const cookie = await login(url, user.name, FIXTURE_PASSWORD);
    const send = async (challengeId: number, answer: string) => {
      const response = await fetch(`${url}/api/v1/challenges/${challengeId}/flag`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: url, "Content-Type": "application/json" },
        body: JSON.stringify({ answer }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    await redis.kill();
    expect(await send(limited.id, "one")).toMatchObject({ status: 200, body: { verdict: "incorrect", attemptsLeft: 2, waitSeconds: 0 } });
    expect(await send(limited.id, "two")).toMatchObject({ status: 200, body: { verdict: "incorrect", attemptsLeft: 1, waitSeconds: 60 } });
    expect(await send(limited.id, "GK{limits}")).toMatchObject({ status: 429, body: { code: "throttled", message: messages.flags.wait(60) } });
    expect(await send(solvable.id, "GK{down}")).toMatchObject({ status: 200, body: { verdict: "correct", points: 300 } });
    expect(await send(solvable.id, "GK{down}")).toMatchObject({ status: 409 });
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, team.id))).toHaveLength(3);
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.teamId, team.id))).toHaveLength(1);
    // The solve's standings are marked, for the queue once Redis is back.
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);

    await redis.start();
    await waitForEmptyOutbox(60_000);
    const rebuilt = await expectStandingsMatchRebuild();
    expect(rebuilt.find((row) => row.teamId === team.id)).toMatchObject({ totalCenti: 30_000 });
  });
});
