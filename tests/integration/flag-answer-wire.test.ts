/**
 * A flag answer through the API on the wire of a real web process (decision 039): the plain call is answered
 * ahead of Express, every other spelling by the route module; both give the same answers, refuse the same
 * forgeries, floods and bodies, and a reset heard from Postgres lifts a remembered wait at once.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { resetWrongAnswers } from "../../app/modules/flags/attempts.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { challenges, flagAttempts, flagSolveCounts, standings } from "../../db/schema.ts";
import { eq, sql } from "drizzle-orm";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";
import { actorFor, ensureEventSettings, makeTeam, makeUser, openAllGates, testAdmin } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { waitForEmptyOutbox } from "../support/standings.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";

const m = messages.flags;
const state = {} as { url: string };

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
  // A short deadline for bodies, so the slow body's 408 comes quickly.
  const [web] = await Promise.all([startWebServer({ WEB_BODY_DEADLINE_MS: "1500" }), startWorker()]);
  state.url = web.url;
}, 90_000);
afterAll(() => stopAll());

async function member() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, user, cookie: await login(state.url, user.name, FIXTURE_PASSWORD), token: (await createApiToken(testAdmin, user.id, "wire")).token };
}

async function answer(path: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${state.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("a flag answer on the wire", () => {
  it("gives the same verdicts by the plain call and by another spelling, with the session or a token", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{wire}" }], { points: 120, maxAttempts: 5 });
    const { cookie, token } = await member();
    const plain = await answer(`/api/v1/challenges/${challenge.id}/flag`, JSON.stringify({ answer: "nope" }), { Cookie: cookie, Origin: state.url });
    expect(plain).toMatchObject({ status: 200, body: { verdict: "incorrect", attemptsLeft: 4, waitSeconds: 0, message: m.incorrectAttemptsLeft(4) } });
    expect(plain.headers.get("cache-control")).toBe("no-store");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    // A trailing slash is Express's and the route module's: the same rule, the same shape.
    const slashed = await answer(`/api/v1/challenges/${challenge.id}/flag/`, JSON.stringify({ answer: "still nope" }), { Authorization: `Bearer ${token}` });
    expect(slashed).toMatchObject({ status: 200, body: { verdict: "incorrect", attemptsLeft: 3 } });
    const right = await answer(`/api/v1/challenges/${challenge.id}/flag`, JSON.stringify({ answer: " GK{wire} " }), { Authorization: `Bearer ${token}` });
    expect(right).toMatchObject({ status: 200, body: { verdict: "correct", points: 120 } });
    expect(Object.keys(right.body!).sort()).toEqual(["message", "points", "solvedAt", "verdict"]);
    const again = await answer(`/api/v1/challenges/${challenge.id}/flag`, JSON.stringify({ answer: "GK{wire}" }), { Cookie: cookie, Origin: state.url, "Accept-Language": "ar" });
    expect(again).toMatchObject({ status: 409, body: { code: "conflict" } });
    expect(again.headers.get("content-language")).toBe("ar");
    expect(again.body!.message).not.toBe(m.alreadySolved);
  });

  it("refuses a forgery, a visitor, a bad token, a bad body and a long one as Express does", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{guarded}" }]);
    const { team, cookie } = await member();
    const path = `/api/v1/challenges/${challenge.id}/flag`;
    const json = JSON.stringify({ answer: "GK{guarded}" });
    expect(await answer(path, json, { Cookie: cookie, Origin: "https://evil.example" })).toMatchObject({ status: 403, body: { code: "forbidden_origin" } });
    expect(await answer(path, json, { Cookie: cookie, Referer: "https://evil.example/page" })).toMatchObject({ status: 403, body: { code: "forbidden_origin" } });
    const visitor = await answer(path, json, {});
    expect(visitor).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    expect(visitor.headers.get("www-authenticate")).toBe("Bearer");
    expect(await answer(path, json, { Authorization: "Bearer gk_not_a_live_token", Cookie: cookie })).toMatchObject({ status: 401 });
    expect(await answer(path, "{not json", { Cookie: cookie, Origin: state.url })).toMatchObject({ status: 400, body: { code: "bad_request" } });
    expect(await answer(path, JSON.stringify({}), { Cookie: cookie, Origin: state.url })).toMatchObject({ status: 400, body: { fieldErrors: { answer: [m.empty] } } });
    expect(await answer(path, JSON.stringify({ answer: "x".repeat(300 * 1024) }), { Cookie: cookie, Origin: state.url })).toMatchObject({ status: 413, body: { code: "payload_too_large" } });
    expect(await answer(path, JSON.stringify({ answer: "y".repeat(2000) }), { Cookie: cookie, Origin: state.url })).toMatchObject({ status: 413, body: { message: m.tooLong } });
    // None of these was an attempt.
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, team.id))).toEqual([]);
  });

  it("answers a body that stops arriving with 408 and closes the connection", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{slow}" }]);
    const { token } = await member();
    const { port, hostname } = new URL(state.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/v1/challenges/${challenge.id}/flag HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"answer":`,
        );
      });
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString("utf8")));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toMatch(/connection: close/i);
    expect(reply).toContain('"code":"request_timeout"');
  });

  it("lifts a wait this process remembers the moment an admin resets the count (the notice from Postgres)", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{reset}" }], { wrongPerMinute: 1 });
    const { team, token } = await member();
    const path = `/api/v1/challenges/${challenge.id}/flag`;
    const send = (text: string) => answer(path, JSON.stringify({ answer: text }), { Authorization: `Bearer ${token}` });
    expect(await send("first wrong")).toMatchObject({ status: 200, body: { verdict: "incorrect", waitSeconds: 60 } });
    const waiting = await send("GK{reset}");
    expect(waiting).toMatchObject({ status: 429, body: { code: "throttled" } });
    expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(50);
    const admin = await makeUser("admin");
    await resetWrongAnswers(actorFor(admin.id, admin.name, "admin"), team.id, challenge.id);
    // The notice reaches the web process at the reset's commit; the next answer is taken.
    await expect.poll(async () => (await send("GK{reset}")).status, { timeout: 10_000 }).toBe(200);
  });

  it("lowers every solver of a dynamic challenge together through the worker, as a rebuild computes them", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{falls}" }], { points: 500 });
    await getDb().update(challenges).set({ scoring: "dynamic", minimumPoints: 100, decay: 3 }).where(eq(challenges.id, challenge.id));
    const solvers = await Promise.all([member(), member(), member()]);
    const points: unknown[] = [];
    for (const solver of solvers) {
      points.push((await answer(`/api/v1/challenges/${challenge.id}/flag`, JSON.stringify({ answer: "GK{falls}" }), { Authorization: `Bearer ${solver.token}` })).body?.points);
    }
    expect(points).toEqual([500, 456, 323]);
    // The worker catches the challenge's solvers up (its count's `recomputed`), then every team's standing.
    await expect
      .poll(async () => (await getDb().select().from(flagSolveCounts).where(sql`${flagSolveCounts.challengeId} = ${challenge.id} and ${flagSolveCounts.recomputed} = 3`)).length, { timeout: 30_000 })
      .toBe(1);
    await waitForEmptyOutbox(30_000);
    // Each solver's stored standing is what a full rebuild computes: the value at three solves.
    const rebuilt = (await computeAllStandings(getDb())).standings;
    for (const solver of solvers) {
      const [stored] = await getDb().select().from(standings).where(eq(standings.teamId, solver.team.id));
      const expected = rebuilt.find((row) => row.teamId === solver.team.id)!;
      expect([stored.totalCenti, stored.solvedCount, stored.totalReachedAt]).toEqual([expected.totalCenti, expected.solvedCount, expected.totalReachedAt]);
      expect(stored.totalCenti).toBe(32_300);
    }
  });
});
