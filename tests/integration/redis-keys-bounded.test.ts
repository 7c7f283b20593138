/**
 * Redis does not fill up over a long event: every key the app writes either expires or belongs to a pattern
 * bounded by design (BullMQ's retention, the standings snapshot's fixed keys), the rule the soak checks at
 * each checkpoint (docs/RELIABILITY.md "Soak"). Each writer of keys runs here once.
 */
import { describe, expect, it } from "vitest";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { enqueue } from "../../app/infrastructure/queue.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { recordLoginFailure } from "../../app/modules/auth/login-throttle.server.ts";
import { register } from "../../app/modules/registrations/registrations.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { checkRedisExpiries, keyPattern } from "../../bench/lib/soak-probes.ts";
import { ensureEventSettings, makeTeam, testAdmin } from "../support/fixtures.ts";

describe("Redis keys over a long event", () => {
  it("expire, or belong to a pattern bounded by design", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    await rebuildStandings();
    await setScoreboardFrozen(testAdmin, true);
    await setScoreboardFrozen(testAdmin, false);
    await recordLoginFailure("someone", "203.0.113.7");
    const registered = await register(
      { name: "Amina", lastName: "Benali", email: "redis-keys@example.com", phone: "0555123456", hasTeam: "no", nationalId: "109876543210", skill: "Problem solving", tshirtSize: "M" },
      "203.0.113.8",
    );
    expect(registered.kind).toBe("created");
    await enqueue("standings", { teamId: team.id });
    await enqueue("storageCleanup", { key: "submissions/nothing-here" });

    const prefix = getEnv().REDIS_PREFIX;
    const keys = await getRedis().keys(`${prefix}:*`);
    const patterns = new Set(keys.map((key) => keyPattern(key, prefix)));
    // Every writer above left its keys (the check below would pass on an empty Redis).
    for (const written of ["standings:order", "bull:standings:#", "bull:storage-cleanup:#"]) expect(patterns).toContain(written);
    expect([...patterns].some((pattern) => pattern.startsWith("login-fail-name-ip"))).toBe(true);
    expect([...patterns].some((pattern) => pattern.startsWith("register-ip"))).toBe(true);

    const check = await checkRedisExpiries(prefix);
    expect(check.unbounded).toEqual([]);
    // The rate limits' counters are among those that expire.
    expect(Object.keys(check.withoutExpiry).filter((pattern) => /login-fail|register-ip/.test(pattern))).toEqual([]);
  });
});
