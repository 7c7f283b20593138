import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "./login.server.ts";
import { forgetRecentUsers, RECENT_USER_TTL_MS, recentUser, setHearingChanges, WATCHED_TTL_MS } from "./recent-users.server.ts";

const ada: SessionUser = { id: 1, name: "ada", role: "participant", teamId: 7, teamName: "Lovelace" };

afterEach(() => {
  forgetRecentUsers();
  setHearingChanges(false);
});

describe("recentUser", () => {
  it("answers from one lookup for RECENT_USER_TTL_MS, then looks the user up again", async () => {
    const lookup = vi.fn(async () => ada);
    const t0 = 1_000_000;
    expect(await recentUser("user:1", lookup, t0)).toEqual(ada);
    expect(await recentUser("user:1", lookup, t0 + RECENT_USER_TTL_MS - 1)).toEqual(ada);
    expect(lookup).toHaveBeenCalledTimes(1);
    await recentUser("user:1", lookup, t0 + RECENT_USER_TTL_MS);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("keeps an answer for WATCHED_TTL_MS while changes are heard, and forgets everything at a change", async () => {
    setHearingChanges(true);
    const lookup = vi.fn(async () => ada);
    await recentUser("user:1", lookup, 0);
    await recentUser("user:1", lookup, WATCHED_TTL_MS - 1);
    expect(lookup).toHaveBeenCalledTimes(1);
    forgetRecentUsers();
    await recentUser("user:1", lookup, WATCHED_TTL_MS - 1);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("keeps callers apart: another key is another lookup, and a caller's copy is its own", async () => {
    const first = await recentUser("user:1", async () => ada, 0);
    first!.role = "admin";
    expect((await recentUser<SessionUser>("user:1", async () => null, 1))?.role).toBe("participant");
    expect(await recentUser("user:2", async () => null, 1)).toBeNull();
  });

  it("does not remember a failed lookup", async () => {
    await expect(recentUser("user:1", async () => Promise.reject(new Error("down")), 0)).rejects.toThrow("down");
    await Promise.resolve();
    expect(await recentUser("user:1", async () => ada, 1)).toEqual(ada);
  });
});
