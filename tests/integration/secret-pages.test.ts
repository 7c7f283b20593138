/**
 * Pages that show a secret once (a new API token, the passwords of accounts just made) are sent with
 * `Cache-Control: no-store`: the page a browser without JavaScript gets and the `.data` answer the app's
 * own navigation reads, on the wire of a real web process (app/glue/secret-pages.server.ts).
 */
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrations } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";
import { ensureEventSettings, makeUser } from "../support/fixtures.ts";
import { startWebServer, stopAll } from "../support/processes.ts";

let web: { url: string; child: ChildProcess };
let cookie: string;

beforeAll(async () => {
  await ensureEventSettings();
  const admin = await makeUser("admin");
  web = await startWebServer();
  cookie = await login(web.url, admin.name, FIXTURE_PASSWORD);
}, 90_000);
afterAll(() => stopAll());

/** A page or its `.data` answer as a browser gets it: status, Cache-Control, Pragma and the body. */
async function open(path: string, body?: URLSearchParams | FormData) {
  const response = await fetch(`${web.url}${path}`, {
    method: body ? "POST" : "GET",
    body,
    headers: { cookie, origin: web.url },
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, cacheControl: response.headers.get("cache-control"), pragma: response.headers.get("pragma"), body: await response.text() };
}

function expectNoStore(answer: Awaited<ReturnType<typeof open>>, what: string) {
  expect(answer.status, `${what}: ${answer.body.slice(0, 300)}`).toBe(200);
  expect(answer.cacheControl, what).toBe("no-store");
  expect(answer.pragma, what).toBe("no-cache");
}

describe("a page that shows a secret once", () => {
  it("the API tokens page: the new token in the page and in its .data answer, neither kept by a cache", async () => {
    const judge = await makeUser("judge");
    for (const path of ["/dashboard/tokens", "/dashboard/tokens.data"]) {
      const created = await open(path, new URLSearchParams({ intent: "create", userId: String(judge.id), name: `script ${path}` }));
      expectNoStore(created, `POST ${path}`);
      expect(created.body).toMatch(/gk_[A-Za-z0-9_-]{20,}/);
      expectNoStore(await open(path), `GET ${path}`);
    }
  });

  it("the accounts made from registrations: their passwords in the page and in its .data answer", async () => {
    for (const path of ["/dashboard/registrations", "/dashboard/registrations.data"]) {
      const [registration] = await getDb()
        .insert(registrations)
        .values({ name: "Secret", lastName: "Page", email: `${randomUUID()}@example.com`, phone: "0555", nationalId: "1234", skill: "AI", tshirtSize: "M", hasTeam: false })
        .returning();
      const created = await open(path, new URLSearchParams({ "ids[0]": String(registration.id) }));
      expectNoStore(created, `POST ${path}`);
      expect(created.body).toContain("secret.page");
    }
  });

  it("the settings page: a new first-blood webhook secret in the page and in its .data answer", async () => {
    for (const path of ["/dashboard/settings", "/dashboard/settings.data"]) {
      await open(path, new URLSearchParams({ intent: "webhook", url: "https://chat.example.org/hooks/1", format: "discord" }));
      const renewed = await open(path, new URLSearchParams({ intent: "webhook-secret" }));
      expectNoStore(renewed, `POST ${path}`);
      expect(renewed.body).toMatch(/whsec_[0-9a-f]{64}/);
      expectNoStore(await open(path), `GET ${path}`);
    }
  });

  it("the import of accounts: the generated passwords in the page and in its .data answer", async () => {
    for (const path of ["/dashboard/import", "/dashboard/import.data"]) {
      const name = `imported${randomUUID().slice(0, 8)}`;
      const form = new FormData();
      form.set("intent", "import");
      form.set("kind", "accounts");
      form.set("file", new Blob([`name,role\n${name},judge\n`], { type: "text/csv" }), "accounts.csv");
      const imported = await open(path, form);
      expectNoStore(imported, `POST ${path}`);
      expect(imported.body).toContain(name);
    }
  });
});
