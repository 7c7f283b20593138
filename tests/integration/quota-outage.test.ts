/**
 * A refusal the platform caused uses up none of a visitor's quota (docs/RELIABILITY.md): registrations
 * refused with a 503 while Postgres cannot be reached give their attempt back, so the address can register
 * at once when it returns (before, ten of them locked it out for an hour); the login throttle counts only
 * wrong passwords, so sign-ins refused during the outage lock nobody out either.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations } from "../../db/schema.ts";
import { closeDb, getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { REGISTRATION_LIMIT } from "../../app/modules/registrations/registrations.server.ts";
import { makeUser } from "../support/fixtures.ts";
import { freePort } from "../support/free-port.ts";
import { answerOf, callRoute, loadServedRouteModule, routeManifest } from "../support/route-manifest.ts";

const served = (id: string) => loadServedRouteModule(routeManifest.find((candidate) => candidate.id === id)!);
const IP = "203.0.113.90";
let counter = 0;

function registration(ip = IP) {
  counter += 1;
  return new Request("http://localhost/register", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-gatekeeper-client-ip": ip, Origin: "http://localhost" },
    body: new URLSearchParams({ name: "Amina", lastName: "Benali", email: `outage${counter}@example.com`, phone: "0555123456", hasTeam: "no", nationalId: "1234", skill: "AI", tshirtSize: "S" }),
  });
}

function login(name: string, password: string, ip = IP) {
  return new Request("http://localhost/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-gatekeeper-client-ip": ip, Origin: "http://localhost" },
    body: new URLSearchParams({ username: name, password }),
  });
}

/** Postgres unreachable for this process (its address a closed port) while `during` runs, then back. */
async function withPostgresDown(during: () => Promise<void>) {
  const url = process.env.DATABASE_URL!;
  await closeDb();
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${await freePort()}/gatekeeper`;
  resetEnvForTests();
  try {
    await during();
  } finally {
    await closeDb();
    process.env.DATABASE_URL = url;
    resetEnvForTests();
  }
}

describe("quotas and outages", () => {
  it("registrations and sign-ins refused while Postgres is down use up none of the address's quota", async () => {
    const [register, signIn] = await Promise.all([served("routes/register"), served("routes/login")]);
    const user = await makeUser("participant");
    const count = async () => (await getDb().select({ n: sql<number>`count(*)::int` }).from(registrations))[0].n;
    const before = await count();

    await withPostgresDown(async () => {
      for (let i = 0; i < REGISTRATION_LIMIT.points + 2; i++) {
        const answer = answerOf(await callRoute(register, "action", { request: registration(), params: {}, context: {} }));
        expect(answer.status).toBe(503);
        expect((answer.body as { error?: Record<string, string[]> }).error?.[""]).toEqual([messages.errors.unavailable]);
      }
      for (let i = 0; i < 8; i++) {
        const answer = answerOf(await callRoute(signIn, "action", { request: login(user.name, "fixture-password"), params: {}, context: {} }));
        expect(answer.status).toBe(503);
      }
    });

    // Postgres is back: the address registers at once, and still has its whole quota.
    for (let i = 0; i < REGISTRATION_LIMIT.points; i++) {
      const answer = answerOf(await callRoute(register, "action", { request: registration(), params: {}, context: {} }));
      expect(answer, `registration ${i + 1} after the outage`).toMatchObject({ status: 302, location: "/register?registered" });
    }
    expect(await count()).toBe(before + REGISTRATION_LIMIT.points);
    // The quota itself still holds.
    expect(answerOf(await callRoute(register, "action", { request: registration(), params: {}, context: {} })).status).toBe(429);
    // And the user signs in from the same address.
    const signedIn = answerOf(await callRoute(signIn, "action", { request: login(user.name, "fixture-password"), params: {}, context: {} }));
    expect(signedIn.status).toBe(302);
  });
});
