/**
 * The one budget of tries (app/infrastructure/tries.server.ts) the invitation codes, "Forgot your password?" and
 * registration count with: per key, shared through Redis, a wait in seconds past the budget, a try given back.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { triesLimiter } from "../../app/infrastructure/tries.server.ts";

describe("a budget of tries", () => {
  it("lets a key try `points` times, then says how long to wait; another key has its own budget", async () => {
    const tries = triesLimiter(`test-tries-${randomUUID()}`, { points: 3, duration: 60 });
    const [one, two] = [randomUUID(), randomUUID()];
    for (let index = 0; index < 3; index++) expect(await tries.take(one)).toBe(0);
    const wait = await tries.take(one);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await tries.take(two)).toBe(0);
  });

  it("counts the same key across two limiters of one name (two web processes share it)", async () => {
    const name = `test-tries-${randomUUID()}`;
    const [here, there] = [triesLimiter(name, { points: 2, duration: 60 }), triesLimiter(name, { points: 2, duration: 60 })];
    expect(await here.take("key")).toBe(0);
    expect(await there.take("key")).toBe(0);
    expect(await here.take("key")).toBeGreaterThan(0);
  });

  it("gives a try back (a failure on our side)", async () => {
    const tries = triesLimiter(`test-tries-${randomUUID()}`, { points: 1, duration: 60 });
    expect(await tries.take("key")).toBe(0);
    await tries.giveBack("key");
    expect(await tries.take("key")).toBe(0);
    expect(await tries.take("key")).toBeGreaterThan(0);
  });
});
