import { describe, expect, it } from "vitest";
import { users, teams } from "../../db/schema.ts";
import { hashPassword } from "../../app/modules/auth/password.server.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import { loginRetryAfter, recordLoginFailure, clearLoginFailures } from "../../app/modules/auth/login-throttle.server.ts";
import { nameKey } from "../../app/modules/names/names.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { authenticator, LoginThrottledError, InvalidCredentialsError, sessionHeadersFor } from "../../app/glue/auth.server.ts";
import { knownAccountsIn } from "../../app/glue/session.server.ts";
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
    // Another address is not locked out by this one's guesses: it sits out the account's few seconds only.
    const elsewhere = authenticator.authenticate("form", loginRequest("Cora", "right-password", "198.51.100.1"));
    await expect(elsewhere).rejects.toThrow(/at this account\. Try again in [1-5] seconds/);
    await sitOutTheAccountWait("Cora");
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

/**
 * The account's wait between attempts, over as if its seconds had passed: the key that holds it expires at
 * once (login-throttle.server.ts keeps the wait as a key's time to live). Awaited until it is gone.
 */
async function sitOutTheAccountWait(name: string) {
  const key = `${process.env.REDIS_PREFIX}:login-account:${nameKey(name)}:wait`;
  await getRedis().pexpire(key, 1);
  while ((await getRedis().exists(key)) === 1) await new Promise((resolve) => setImmediate(resolve));
}

const attempt = (name: string, password: string, ip: string) => authenticator.authenticate("form", loginRequest(name, password, ip));

describe("the login throttle per account, across addresses", () => {
  it("gives three addresses no more guesses than one: after 5 failures at an account, a sixth address waits", async () => {
    await createUser("Dalia", "right-password");
    for (const ip of ["198.51.100.10", "198.51.100.10", "198.51.100.11", "198.51.100.11", "198.51.100.12"]) {
      await expect(attempt("Dalia", "guess", ip)).rejects.toBeInstanceOf(InvalidCredentialsError);
    }
    // Any spelling of the name is the same account (decision 016).
    const sixth = attempt("DALIA", "right-password", "198.51.100.13");
    await expect(sixth).rejects.toBeInstanceOf(LoginThrottledError);
    await expect(sixth).rejects.toThrow(
      /^Too many failed attempts at this account\. Try again in [1-5] seconds; from a network this account has signed in from before, you can sign in now\.$/,
    );
  });

  it("waits 5, 10, 20, 40, then 60 seconds at most between attempts: slower, never locked", async () => {
    await createUser("Emre", "right-password");
    for (let i = 0; i < 5; i++) await expect(attempt("Emre", "guess", `203.0.113.${20 + i}`)).rejects.toBeInstanceOf(InvalidCredentialsError);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await attempt("Emre", "guess", `203.0.113.${40 + i}`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LoginThrottledError);
      waits.push((refused as LoginThrottledError).retryAfterSeconds);
      await sitOutTheAccountWait("Emre");
      // After the wait one attempt goes ahead (and fails), which starts the next, longer wait.
      await expect(attempt("Emre", "guess", `203.0.113.${60 + i}`)).rejects.toBeInstanceOf(InvalidCredentialsError);
    }
    expect(waits).toEqual([5, 10, 20, 40, 60, 60]);
    // Never a lockout: once the wait is sat out, the right password from a new address signs in.
    await sitOutTheAccountWait("Emre");
    await expect(attempt("Emre", "right-password", "203.0.113.99")).resolves.toMatchObject({ name: "Emre" });
  });

  it("lets an address the account signed in from before through, and a sign-in ends the run", async () => {
    await createUser("Farah", "right-password");
    const home = "192.0.2.50";
    await expect(attempt("Farah", "right-password", home)).resolves.toMatchObject({ name: "Farah" });
    // A rival tries the account from elsewhere until it waits.
    for (let i = 0; i < 5; i++) await expect(attempt("Farah", "guess", `198.51.100.${70 + i}`)).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(attempt("Farah", "right-password", "198.51.100.80")).rejects.toBeInstanceOf(LoginThrottledError);
    // The team, from where it signed in before, is not held back by the account's wait, and signs in. Its
    // typos still count against its own name-and-address limit (5), as anyone's at a shared venue address.
    for (let i = 0; i < 4; i++) await expect(attempt("Farah", "typo", home)).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(attempt("Farah", "right-password", home)).resolves.toMatchObject({ name: "Farah" });
    // That sign-in ended the account's run: a new address goes ahead at once.
    await expect(attempt("Farah", "right-password", "198.51.100.81")).resolves.toMatchObject({ name: "Farah" });
  });

  it("holds a known address to the name-and-address limit: a rival at the same venue gets 5 guesses, not the address's 50", async () => {
    await createUser("Gaspard", "right-password");
    const venue = "192.0.2.60";
    await expect(attempt("Gaspard", "right-password", venue)).resolves.toMatchObject({ name: "Gaspard" });
    for (let i = 0; i < 5; i++) await expect(attempt("Gaspard", "guess", venue)).rejects.toBeInstanceOf(InvalidCredentialsError);
    const refused = await attempt("Gaspard", "guess", venue).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LoginThrottledError);
    expect((refused as LoginThrottledError).accountWide).toBe(false);
  });

  it("lets a browser the account signed in from before through from a new address (its signed cookie); a forged one waits", async () => {
    const { user } = await createUser("Hana", "right-password");
    const verified = await attempt("Hana", "right-password", "192.0.2.70");
    // The sign-in's answer gives the browser its session and the signed list of accounts it knows.
    const setCookies = (await sessionHeadersFor(verified, loginRequest("Hana", "right-password", "192.0.2.70"))).getSetCookie();
    const known = setCookies.find((cookie) => cookie.startsWith("__gk_known="));
    expect(known).toBeDefined();
    const browser = known!.split(";")[0];
    expect(await knownAccountsIn(browser)).toEqual([nameKey(user.name)]);

    // A rival guesses from elsewhere until the account waits.
    for (let i = 0; i < 5; i++) await expect(attempt("Hana", "guess", `198.51.100.${90 + i}`)).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(attempt("Hana", "right-password", "198.51.100.99")).rejects.toBeInstanceOf(LoginThrottledError);
    // The member, on a network the account never used, in the browser it signed in from: no wait.
    const fromBrowser = (cookie: string, ip: string) => {
      const request = loginRequest("Hana", "right-password", ip);
      request.headers.set("Cookie", cookie);
      return authenticator.authenticate("form", request);
    };
    // A cookie the server did not sign is nobody's (the value a rival would write).
    const forged = `__gk_known=${Buffer.from(JSON.stringify([nameKey(user.name)])).toString("base64")}`;
    await expect(fromBrowser(forged, "198.51.100.98")).rejects.toBeInstanceOf(LoginThrottledError);
    await expect(fromBrowser(browser, "198.51.100.97")).resolves.toMatchObject({ name: "Hana" });
  });

  it("keeps its counts in keys that expire", async () => {
    await createUser("Goran", "right-password");
    await expect(attempt("Goran", "right-password", "192.0.2.60")).resolves.toMatchObject({ name: "Goran" });
    for (let i = 0; i < 5; i++) await expect(attempt("Goran", "guess", `198.51.100.${90 + i}`)).rejects.toBeInstanceOf(InvalidCredentialsError);
    const keys = await getRedis().keys(`${process.env.REDIS_PREFIX}:login-account:${nameKey("Goran")}:*`);
    expect(keys.length).toBe(3);
    for (const key of keys) expect(await getRedis().pttl(key), key).toBeGreaterThan(0);
  });
});
