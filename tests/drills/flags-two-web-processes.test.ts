/**
 * Drill: one team's flag answers through two real web processes (server.ts on the production build, as deployed
 * behind a load balancer; docs/domain.md "Guessing has a price"). Postgres decides every verdict, so a limit
 * reached through one process holds in the other, a flood split over both records nothing past the limit, an
 * admin's reset made through one is heard by the other at once (it had the wait in memory), and two members' right answers at the same
 * instant, one through each process, make one solve.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { flagAttempts, flagSolves, flagTries } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { ensureEventSettings, makeTeam, makeUser, openAllGates } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";
import { startWebServer, stopAll } from "../support/processes.ts";
import { FIXTURE_PASSWORD } from "./support/event.ts";
import { login, postForm } from "./support/http.ts";
import { recordDrill } from "./support/report.ts";

afterAll(() => stopAll());

type Reply = { status: number; body: Record<string, unknown> };

/** An answer through the API's plain call on `base`, as a browser's fetch sends it. */
async function send(base: string, cookie: string, challengeId: number, answer: string): Promise<Reply> {
  const response = await fetch(`${base}/api/v1/challenges/${challengeId}/flag`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" },
    body: JSON.stringify({ answer }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const recorded = async (teamId: number, challengeId: number) =>
  (await getDb().select().from(flagAttempts).where(and(eq(flagAttempts.teamId, teamId), eq(flagAttempts.challengeId, challengeId)))).length;

describe("drill: one team's flag answers through two web processes", () => {
  it("holds the limits across both, records nothing of a flood past them, hears a reset at once and makes one solve of two at the same instant", async () => {
    await ensureEventSettings();
    await openAllGates();
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{two-processes}" }], { wrongPerMinute: 2, maxAttempts: 10 });
    const team = await makeTeam();
    const [first, second] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const admin = await makeUser("admin");
    const [{ url: a }, { url: b }] = await Promise.all([startWebServer(), startWebServer()]);
    const [onA, onB, adminOnA] = await Promise.all([login(a, first.name, FIXTURE_PASSWORD), login(b, second.name, FIXTURE_PASSWORD), login(a, admin.name, FIXTURE_PASSWORD)]);
    const observations: string[] = [];

    // The minute's two wrong answers, one through each process: the second starts the wait (a minute from the first,
    // less the seconds a busy machine took since), for both processes.
    expect(await send(a, onA, challenge.id, "one")).toMatchObject({ status: 200, body: { verdict: "incorrect", waitSeconds: 0 } });
    const two = await send(b, onB, challenge.id, "two");
    expect(two).toMatchObject({ status: 200, body: { verdict: "incorrect" } });
    expect(two.body.waitSeconds).toBeGreaterThanOrEqual(40);
    const waiting = (reply: Reply, where: string) => {
      expect(reply.status, where).toBe(429);
      expect(reply.body.code, where).toBe("throttled");
      const waits = Array.from({ length: 21 }, (_, index) => messages.flags.wait(40 + index));
      expect(waits, `${where}: ${String(reply.body.message)}`).toContain(reply.body.message);
    };
    waiting(await send(a, onA, challenge.id, "GK{two-processes}"), "waiting on A");
    waiting(await send(b, onB, challenge.id, "GK{two-processes}"), "waiting on B");

    // A flood split over both processes while the team waits: every answer refused, none recorded, none solves.
    const flood = await Promise.all(Array.from({ length: 200 }, (_, index) => (index % 2 ? send(b, onB, challenge.id, `flood ${index}`) : send(a, onA, challenge.id, index === 100 ? "GK{two-processes}" : `flood ${index}`))));
    const statuses = new Map<number, number>();
    for (const reply of flood) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    observations.push(`a flood of 200 answers over both processes while waiting: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")}`);
    expect([...statuses.keys()]).toEqual([429]);
    expect(await recorded(team.id, challenge.id)).toBe(2);

    // B answers the wait from its memory: the same change as a reset made behind the app's back (no notice) is not
    // seen by it. So what follows shows B heard the admin's reset, not that it asked Postgres again.
    await getDb().update(flagTries).set({ wrong: 0, recent: [] }).where(and(eq(flagTries.teamId, team.id), eq(flagTries.challengeId, challenge.id)));
    waiting(await send(b, onB, challenge.id, "GK{two-processes}"), "B, from its memory");
    expect(await recorded(team.id, challenge.id)).toBe(2);

    // The admin resets the team's count through A; B hears it at once (its memory of the wait is forgotten).
    const reset = await postForm(`${a}/dashboard/attempts`, adminOnA, { intent: "reset", teamId: String(team.id), challengeId: String(challenge.id) });
    expect(reset.status).toBe(302);
    const resetAt = Date.now();
    const counted = await getDb().select({ counted: flagAttempts.counted }).from(flagAttempts).where(and(eq(flagAttempts.teamId, team.id), eq(flagAttempts.challengeId, challenge.id)));
    expect(counted.map((row) => row.counted), "the reset was made").toEqual([false, false]);
    let afterReset: Reply;
    do afterReset = await send(b, onB, challenge.id, "three");
    while (afterReset.status === 429 && Date.now() - resetAt < 5_000);
    const heardAfter = Date.now() - resetAt;
    observations.push(`B answered again ${heardAfter} ms after A's reset`);
    expect(afterReset).toMatchObject({ status: 200, body: { verdict: "incorrect", waitSeconds: 0 } });
    expect(await recorded(team.id, challenge.id)).toBe(3);

    // Two members' right answers at the same instant, one through each process: one solve, each told the truth.
    const together = await Promise.all([send(a, onA, challenge.id, "GK{two-processes}"), send(b, onB, challenge.id, " GK{two-processes} ")]);
    observations.push(`two right answers at once: ${together.map((reply) => `${reply.status} ${String(reply.body.verdict ?? reply.body.code)}`).join(" and ")}`);
    const solves = await getDb().select().from(flagSolves).where(and(eq(flagSolves.teamId, team.id), eq(flagSolves.challengeId, challenge.id)));
    expect(solves).toHaveLength(1);
    // One is the solve; the other hears that its team has just solved it (409), never a second solve or a wrong answer.
    expect(together.map((reply) => (reply.status === 200 ? String(reply.body.verdict) : reply.status)).sort()).toEqual([409, "correct"].sort());
    // And after it, each process refuses another answer: already solved.
    expect((await send(a, onA, challenge.id, "GK{two-processes}")).status).toBe(409);
    expect((await send(b, onB, challenge.id, "anything")).status).toBe(409);

    recordDrill({
      drill: "flags-two-web-processes",
      fault: "one team's flag answers split over two web processes: the window limit, a flood, an admin's reset, two right answers at once",
      faults: 4,
      observations,
      items: [],
      timings: [{ what: "reset on A until B takes an answer again", ms: heardAfter, limitMs: 1_000 }],
    });
    expect(heardAfter).toBeLessThan(1_000);
  });
});
