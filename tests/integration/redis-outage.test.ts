/**
 * No lost update when Redis is down: the judge's score is saved (the request does not hang), the
 * team stays marked stale in Postgres, and once Redis is back a worker's sweep catches up.
 * This file runs its own Redis server, so stopping it disturbs no other test.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standings, standingsOutbox, submissions } from "../../db/schema.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { readSnapshot } from "../../app/modules/standings/snapshot.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import type { ServerBuild } from "@remix-run/node";
import { messages } from "../../app/modules/messages.ts";
import { withUnavailablePages } from "../../app/glue/unavailable.server.ts";
import { callRoute, loadRouteModule, routeManifest } from "../support/route-manifest.ts";
import { DisposableRedis } from "../support/disposable-redis.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie, actorFor, testAdmin } from "../support/fixtures.ts";
import { updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { startWorker, stopAll } from "../support/processes.ts";

let redis: DisposableRedis;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  // Before anything reads the configuration: this file's app code talks to this Redis only.
  process.env.REDIS_URL = redis.url;
});

afterAll(async () => {
  stopAll();
  await closeEmitter();
  await redis.destroy();
});

type StandingRow = typeof standings.$inferSelect;

/** The team's standings row once its total reaches `totalCenti` (and `also` holds), a worker's sweep catching up; or as it is after 20 s. */
async function standingOnceAt(teamId: number, totalCenti: number, also: (row: StandingRow) => boolean = () => true) {
  const deadline = Date.now() + 20_000;
  let row: StandingRow | undefined;
  while (Date.now() < deadline) {
    [row] = await getDb().select().from(standings).where(eq(standings.teamId, teamId));
    if (row?.totalCenti === totalCenti && also(row)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return row;
}

describe("Redis outage", () => {
  it("saves the score at once and catches the standings up when Redis is back", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const submission = await makeSubmission(team.id, challenge.id, null);

    await redis.kill();
    const started = Date.now();
    const result = await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "88" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.scoreCenti).toBe(8800);
    const [saved] = await getDb().select().from(submissions).where(eq(submissions.id, submission.id));
    expect(saved).toMatchObject({ scoreCenti: 8800, status: "reviewed" });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);

    await redis.start();
    await startWorker({ REDIS_URL: process.env.REDIS_URL! });
    expect(await standingOnceAt(team.id, 8800)).toMatchObject({ totalCenti: 8800, solvedCount: 1 });
    const { board } = await readSnapshot(getRedis());
    expect(board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 88, rank: 1 });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });

  it("a Redis that stops answering holds the judge no longer than its deadlines, and the standings catch up once it answers", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const submission = await makeSubmission(team.id, challenge.id, null);
    // Connected and ready: the score takes the in-request recompute, whose Redis placement is what hangs.
    expect(await getRedis().ping()).toBe("PONG");
    await startWorker({ REDIS_URL: process.env.REDIS_URL! });

    redis.pause();
    const started = Date.now();
    // Whatever happens, Redis answers again before any assertion can fail (the worker and afterAll need it).
    const result = await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "77" }).finally(() => redis.resume());
    const waited = Date.now() - started;
    // The placement's deadline (1 s), then the enqueue's (2 s): never the minutes a stuck Redis could take.
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(6000);
    expect(result.scoreCenti).toBe(7700);
    const [saved] = await getDb().select().from(submissions).where(eq(submissions.id, submission.id));
    expect(saved).toMatchObject({ scoreCenti: 7700, status: "reviewed" });

    // The recompute rolled back when the placement missed its deadline (its locks went with it), so the
    // outbox row still says the team is stale, and the worker's sweep brings the board to the score.
    expect(await standingOnceAt(team.id, 7700)).toMatchObject({ totalCenti: 7700, solvedCount: 1 });
    const { board } = await readSnapshot(getRedis());
    expect(board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 77 });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });

  it("an admin's change that touches many teams waits one Redis deadline, not one a team, and their standings follow", async () => {
    await ensureEventSettings();
    const challenge = await makeChallenge({ points: 100, category: "AI" });
    const teams = await Promise.all(Array.from({ length: 6 }, () => makeTeam()));
    for (const team of teams) {
      const submission = await makeSubmission(team.id, challenge.id, null);
      await getDb().update(submissions).set({ scoreCenti: 5000, status: "reviewed", scoredAt: new Date() }).where(eq(submissions.id, submission.id));
    }
    expect(await getRedis().ping()).toBe("PONG");
    await startWorker({ REDIS_URL: process.env.REDIS_URL! });

    redis.pause();
    const started = Date.now();
    const input = { title: challenge.title, description: challenge.description, points: 100, category: "CS" as const, wave: challenge.wave ?? undefined };
    await updateChallenge(testAdmin, challenge.id, input, null).finally(() => redis.resume());
    // One enqueue of every team's job, under the enqueue's 2 s deadline (a job a team waited 2 s each: 12 s).
    expect(Date.now() - started).toBeLessThan(4000);

    for (const team of teams) expect(await standingOnceAt(team.id, 5000, (row) => row.csCenti === 5000)).toMatchObject({ csCenti: 5000, aiCenti: 0 });
  });

  it("the scoreboard page and GET /api/v1/scoreboard answer 503 with Retry-After while Redis is down, never a 500", async () => {
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const cookie = await sessionCookie(player.id);
    const build = withUnavailablePages({
      routes: {
        page: { module: await loadRouteModule(routeManifest.find((route) => route.id === "routes/_app.scoreboard")!) },
        api: { module: await loadRouteModule(routeManifest.find((route) => route.id === "routes/api.v1.scoreboard")!) },
      },
    } as unknown as ServerBuild);
    /** The Response the route answers or throws (the 503 is thrown, as Remix expects). */
    const ask = async (id: "page" | "api", path: string): Promise<Response> => {
      const loader = build.routes[id].module.loader as (args: unknown) => Promise<unknown>;
      const headers = { Cookie: cookie, Origin: "http://localhost" };
      return (await callRoute({ loader } as never, "loader", { request: new Request(`http://localhost${path}`, { headers }), params: {}, context: {} })) as Response;
    };
    await redis.kill();
    try {
      for (const [id, path] of [["page", "/scoreboard"], ["api", "/api/v1/scoreboard"]] as const) {
        const response = await ask(id, path);
        expect(response.status, path).toBe(503);
        expect(response.headers.get("Retry-After"), path).toBe("5");
        expect(await response.text(), path).toContain(messages.errors.unavailable);
      }
    } finally {
      await redis.start();
    }
  });
});
