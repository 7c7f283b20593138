import { describe, expect, it } from "vitest";
import { users, teams } from "../../db/schema.ts";
import { hashPassword } from "../../app/modules/auth/password.server.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import { loginRetryAfter, recordLoginFailure, clearLoginFailures } from "../../app/modules/auth/login-throttle.server.ts";
import { authenticator, LoginThrottledError, InvalidCredentialsError } from "../../app/glue/auth.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { nameColumns } from "../../app/modules/names/names.ts";

async function createUser(name: string, password: string) {
  const [team] = await getDb().insert(teams).values(nameColumns(`Team of ${name}`)).returning();
  const [user] = await getDb()
    .insert(users)
    .values({ ...nameColumns(name), passwordHash: await hashPassword(password), role: "participant", teamId: team.id })
    .returning();
  return { user, team };
}

function loginRequest(username: string, password: string, ip = "203.0.113.7") {
  return new Request("http://localhost/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-gatekeeper-client-ip": ip },
    body: new URLSearchParams({ username, password }),
  });
}

describe("login", () => {
  it("finds the user by name in any case, with the team, and never with a wrong password", async () => {
    const { user, team } = await createUser("Aria", "correct horse");
    expect(await verifyLogin("aria", "correct horse")).toEqual({
      id: user.id,
      name: "Aria",
      role: "participant",
      teamId: team.id,
      teamName: team.name,
      // What the session's start checks is still the password (a login racing a change loses).
      verifiedPasswordHash: user.passwordHash,
    });
    expect(await verifyLogin("Aria", "wrong horse")).toBeNull();
    expect(await verifyLogin("nobody", "correct horse")).toBeNull();
  });

  it("stores an argon2id hash, never the password", async () => {
    const { user } = await createUser("Bram", "s3cret-pass");
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain("s3cret-pass");
  });

  it("locks a name/IP pair after 5 failures, in Redis, and lets other IPs through", async () => {
    await createUser("Cora", "right-password");
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(authenticator.authenticate("form", loginRequest("Cora", "nope"))).rejects.toBeInstanceOf(
        InvalidCredentialsError,
      );
    }
    const locked = authenticator.authenticate("form", loginRequest("Cora", "right-password"));
    await expect(locked).rejects.toBeInstanceOf(LoginThrottledError);
    await expect(locked).rejects.toThrow(/Too many failed attempts\. Try again in 1[45] minutes\./);
    // Another address is not punished for this one's guesses.
    await expect(authenticator.authenticate("form", loginRequest("Cora", "right-password", "198.51.100.1"))).resolves.toMatchObject({
      name: "Cora",
    });
  });

  it("clears the failures of a pair after a successful login", async () => {
    await recordLoginFailure("dana", "192.0.2.1");
    await recordLoginFailure("dana", "192.0.2.1");
    await clearLoginFailures("dana", "192.0.2.1");
    for (let attempt = 0; attempt < 4; attempt++) await recordLoginFailure("dana", "192.0.2.1");
    expect(await loginRetryAfter("dana", "192.0.2.1")).toBe(0);
    await recordLoginFailure("dana", "192.0.2.1");
    expect(await loginRetryAfter("dana", "192.0.2.1")).toBeGreaterThan(14 * 60);
  });
});
