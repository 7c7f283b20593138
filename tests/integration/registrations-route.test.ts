/** The /register action as a browser without JavaScript meets it: status codes, messages, the honeypot. */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { REGISTRATION_LIMIT } from "../../app/modules/registrations/registrations.server.ts";
import { action } from "../../app/routes/register.tsx";
import { getDb } from "../../app/infrastructure/db.server.ts";

const m = messages.registration;
let counter = 0;

function post(fields: Record<string, string>, ip = "203.0.113.50") {
  counter += 1;
  const body = new URLSearchParams({
    name: "Amina",
    lastName: "Benali",
    email: `route${counter}@example.com`,
    phone: "0555123456",
    hasTeam: "no",
    nationalId: "1234",
    skill: "AI",
    tshirtSize: "S",
    ...fields,
  });
  const request = new Request("http://localhost/register", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-gatekeeper-client-ip": ip },
    body,
  });
  return action({ request, params: {}, context: {} });
}

type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
/** `data()` from an action is a DataWithResponseInit; a redirect is a Response. */
function unwrap(result: unknown): { status: number; reply?: Reply; location?: string | null; headers?: Headers } {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const value = result as { data: Reply; init: { status?: number; headers?: HeadersInit } | null };
  return { status: value.init?.status ?? 200, reply: value.data, headers: new Headers(value.init?.headers) };
}

const count = async () => (await getDb().select({ n: sql<number>`count(*)::int` }).from(registrations))[0].n;

describe("POST /register", () => {
  it("redirects to the thank-you card after storing", async () => {
    const before = await count();
    const result = unwrap(await post({}, "203.0.113.1"));
    expect(result).toMatchObject({ status: 302, location: "/register?registered" });
    expect(await count()).toBe(before + 1);
  });

  it("answers 400 with the original platform's message for missing fields and keeps what was typed", async () => {
    const result = unwrap(await post({ skill: "", phone: "" }, "203.0.113.2"));
    expect(result.status).toBe(400);
    expect(result.reply?.error?.skill).toEqual([m.required]);
    expect(result.reply?.error?.phone).toEqual([m.required]);
    expect(result.reply?.initialValue).toMatchObject({ name: "Amina", nationalId: "1234", tshirtSize: "S" });
  });

  it("thanks a visitor for an address registered before exactly as for a new one (it tells nobody who registered)", async () => {
    const first = unwrap(await post({ email: "same@example.com" }, "203.0.113.3"));
    const again = unwrap(await post({ email: "SAME@example.com" }, "203.0.113.3"));
    expect(again).toEqual(first);
    expect(again).toMatchObject({ status: 302, location: "/register?registered" });
  });

  it("pretends success for a filled honeypot and stores nothing", async () => {
    const before = await count();
    const result = unwrap(await post({ website: "http://buy-now.example" }, "203.0.113.4"));
    expect(result).toMatchObject({ status: 302, location: "/register?registered" });
    expect(await count()).toBe(before);
  });

  it("says so when saving fails, and keeps everything the visitor typed", async () => {
    // A real failure, no mock: this file's own database loses the table for a moment.
    await getDb().execute(sql`alter table registrations rename to registrations_away`);
    try {
      const result = unwrap(await post({ email: "kept@example.com", teamName: "Les Aigles", hasTeam: "yes" }, "203.0.113.6"));
      expect(result.status).toBe(500);
      expect(result.reply?.error?.[""]).toEqual(["Something went wrong while saving data."]);
      expect(result.reply?.initialValue).toMatchObject({ name: "Amina", email: "kept@example.com", teamName: "Les Aigles", tshirtSize: "S" });
    } finally {
      await getDb().execute(sql`alter table registrations_away rename to registrations`);
    }
  });

  it("answers 429 with a clear message and Retry-After once the IP is over the limit", async () => {
    for (let i = 0; i < REGISTRATION_LIMIT.points; i++) expect(unwrap(await post({}, "203.0.113.5")).status).toBe(302);
    const result = unwrap(await post({}, "203.0.113.5"));
    expect(result.status).toBe(429);
    expect(result.reply?.error?.[""]).toEqual([expect.stringMatching(/^Too many registrations from your network\. Try again in (60|59) minutes\.$/)]);
    expect(Number(result.headers?.get("Retry-After"))).toBeGreaterThan(3500);
  });
});
