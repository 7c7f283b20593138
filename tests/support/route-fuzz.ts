/**
 * The route fuzz: every action of the route manifest, posted 1,000 random and hostile bodies
 * by a role it admits (forms, tampered hidden fields, repeated fields, multipart with hostile file
 * names), never answers 5xx, always refuses with a message a person can read, and a refusal stores
 * nothing. Every loader, read with hostile query strings (search boxes, filters, sort links), never
 * answers 5xx. Three test files share the routes between them (the API, the dashboard, the other pages), so
 * the two test workers run them at once.
 */
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { CLIENT_IP_HEADER } from "../../app/glue/request.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { hostileValue } from "./hostile-input.ts";
import { answerOf, callRoute, loadServedRouteModule, routeManifest, routeUrl } from "./route-manifest.ts";
import { createRouteWorld, type RouteWorld, type WorldRole } from "./route-world.ts";

const CASES = 1000;

/** Every field name our forms use, and every intent: the fuzz hits real code paths, not only "unknown". */
const fieldNames = [
  "intent", "id", "name", "password", "role", "teamId", "username", "redirectTo", "title", "description", "points",
  "category", "hints", "wave", "difficulty", "removeAttachment", "content", "message", "text", "score", "comment",
  "verdict", "submissionId", "number", "opensAt", "finalAt", "submissionsCloseAt", "label", "at", "video1", "video2", "ids", "lastName",
  "email", "phone", "hasTeam", "teamName", "nationalId", "skill", "linkedin", "portfolio", "major", "university",
  "tshirtSize", "website", "q", "userId", "status", "challengeId", "kind", "video", "edit", "view", "sort", "dir", "gate", "mine", "reason",
  "team", "user", "from", "to", "before", "after", "limit", "challenge",
  "language", "languages", "source", "run", "comparator", "timeLimitMs", "memoryLimitMb",
];
const intents = ["save", "delete", "videos", "announcement", "mentor", "needs", "gate", "final", "submissions-close", "meal-add", "meal-remove", "freeze", "unfreeze", "toggle", "create-accounts", "seen", "give", "revoke", "reset", "settings", "tests", "pause", "resume", "rejudge", "confirm"];

const field = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const value = fc.oneof({ weight: 5, arbitrary: hostileValue }, { weight: 2, arbitrary: fc.constantFrom(...intents) }, { weight: 1, arbitrary: fc.nat(50).map(String) });
const hostileFileName = fc.constantFrom("../../etc/passwd", "a\u0000b.pdf", "x\r\nContent-Type: text/html.png", "brief.pdf", "payload.docx", "", "🔥.jpg", "a".repeat(300));
const body = fc.record({
  // A fresh client address each time: the login and registration limits would otherwise answer every case.
  ip: fc.ipV4(),
  fields: fc.array(fc.tuple(field, value), { maxLength: 12 }),
  file: fc.option(fc.record({ field: fc.constantFrom("attachment", "file", "submissionFile"), name: hostileFileName, bytes: fc.uint8Array({ maxLength: 64 }) }), { freq: 4 }),
});

/** Who posts: the most trusted role the route admits (a refusal by the guard would test nothing). */
function actorOf(routeId: string): WorldRole {
  if (routeId.startsWith("routes/dashboard")) return "admin";
  if (routeId.startsWith("routes/_app") || routeId.startsWith("routes/submition")) return "participant";
  return "visitor";
}

/**
 * Tables a refused post may still write, each for a stated reason; every other table of the schema is watched.
 * - `sessions`: reading a session records its last use (at most once a minute), whatever the answer.
 */
const unwatchedTables = new Set(["sessions"]);

/**
 * Everything a form can change, as one number: a row-level trigger on every watched table adds a row to
 * `fuzz_writes` for each row inserted, deleted or changed (an update that writes the same values adds none), in
 * the same transaction as the change, so a rolled-back write adds none either. Rows added, never one row
 * updated: a shared counter would be a lock every writing transaction takes, changing what is tested (waits,
 * deadlocks). A refusal must leave the count as it was. One count per case, where a digest of every table grew
 * with the tables.
 */
async function watchWrites() {
  const db = getDb();
  const tables = await db.execute<{ name: string }>(sql`select tablename as name from pg_tables where schemaname = 'public'`);
  await db.execute(sql.raw(`
    create table if not exists fuzz_writes (at timestamptz not null default now());
    create or replace function fuzz_count_write() returns trigger language plpgsql as $$
      begin insert into fuzz_writes default values; return null; end $$;`));
  for (const { name } of tables) {
    if (unwatchedTables.has(name) || name === "fuzz_writes") continue;
    await db.execute(sql.raw(`
      create or replace trigger fuzz_rows after insert or delete on "${name}" for each row execute function fuzz_count_write();
      create or replace trigger fuzz_changes after update on "${name}" for each row when (old.* is distinct from new.*) execute function fuzz_count_write();
      create or replace trigger fuzz_truncate after truncate on "${name}" for each statement execute function fuzz_count_write();`));
  }
}
async function databaseDigest(): Promise<string> {
  const [row] = await getDb().execute<{ n: string }>(sql`select count(*)::text as n from fuzz_writes`);
  return row.n;
}

/** The watch itself, before it is trusted: a row changed moves it, the same values written or a rolled-back write do not. */
async function checkWatch(world: RouteWorld) {
  const before = await databaseDigest();
  await getDb().execute(sql`update requests set message = message where id = ${world.threadOfA}`);
  await getDb()
    .transaction(async (tx) => {
      await tx.execute(sql`update requests set message = message || '!' where id = ${world.threadOfA}`);
      tx.rollback();
    })
    .catch(() => undefined);
  expect(await databaseDigest(), "the write watch counted a write that changed nothing").toBe(before);
  await getDb().execute(sql`update requests set message = message || '!' where id = ${world.threadOfA}`);
  await getDb().execute(sql`update requests set message = left(message, -1) where id = ${world.threadOfA}`);
  expect(Number(await databaseDigest()), "the write watch missed a changed row").toBe(Number(before) + 2);
}

/** A refusal a person can read: a conform reply with a message, a { message }, or a sentence of text. */
async function refusalMessage(answer: ReturnType<typeof answerOf>): Promise<string> {
  const { body: payload } = answer;
  if (payload instanceof Response) return (await payload.clone().text()).trim();
  const value = payload as { error?: Record<string, string[] | null> | null; message?: string; result?: { error?: Record<string, string[] | null> | null } } | null;
  const errors = value?.error ?? value?.result?.error;
  if (errors) return Object.values(errors).flat().filter(Boolean).join(" ");
  return value?.message ?? "";
}

/** Registers the fuzz of the routes `select` picks (by route id), in the calling test file. */
export async function fuzzRoutes(select: (routeId: string) => boolean) {
  let world: RouteWorld;
  beforeAll(async () => {
    world = await createRouteWorld();
    await watchWrites();
    await checkWatch(world);
  });
  afterAll(() => closeEmitter());

  // Each module as server.ts serves it (the build's wrappers: unreadable forms, unreachable services).
  const routes = await Promise.all(routeManifest.filter((route) => select(route.id)).map(async (route) => ({ route, module: await loadServedRouteModule(route) })));
  const withActions = routes.filter(({ module }) => module.action);
  const withLoaders = routes.filter(({ module }) => module.loader);

  describe("every action under random and hostile posts", () => {
    for (const { route, module } of withActions) {
      it(`${route.id}: never a 5xx; a refusal says why and stores nothing`, async () => {
        const params = { id: String(world.openChallenge), wave: "1", "*": "nowhere" };
        const url = `http://localhost${routeUrl(route, params)}`;
        // Signing out ends the session it is sent with: it gets one of its own, the other routes keep theirs.
        const cookie = route.id === "routes/logout" ? await world.freshCookie(actorOf(route.id)) : world.cookies[actorOf(route.id)];
        let digest = await databaseDigest();
        await fc.assert(
          fc.asyncProperty(body, async ({ ip, fields, file }) => {
            const form = new FormData();
            for (const [name, text] of fields) form.append(name, text);
            if (file) form.append(file.field, new Blob([file.bytes]), file.name);
            const request = new Request(url, { method: "POST", headers: { [CLIENT_IP_HEADER]: ip, ...(cookie ? { Cookie: cookie } : {}) }, body: form });
            const answer = answerOf(await callRoute(module, "action", { request, params, context: {} }));
            expect(answer.status, `${route.id} answered ${answer.status}`).toBeLessThan(500);
            if (answer.status >= 400) {
              expect(await refusalMessage(answer), `${route.id}: a ${answer.status} without a message`).not.toBe("");
              expect(await databaseDigest(), `${route.id}: a refused post changed the database`).toBe(digest);
            } else {
              digest = await databaseDigest();
            }
          }),
          { numRuns: CASES },
        );
      }, 180_000);
    }
  });

  // Every id a path can carry, out of range or malformed: the page or call answers 4xx (most often 404),
  // never a query Postgres refuses.
  const hostileIds = ["0", "-1", "2147483648", "99999999999", "9".repeat(40), "1e3", "0x10", "007", "1.5", "%00"];
  // The whole path, parents included: a nested route's own segment ("status") is relative to its parent's ":id".
  const withIdParam = routes.filter(({ route }) => /\{(id|challengeId|wave)\}/.test(routeUrl(route, { id: "{id}", challengeId: "{challengeId}", wave: "{wave}", "*": "" })));
  describe("every route with an id in its path, under hostile ids", () => {
    for (const { route, module } of withIdParam) {
      it(`${route.id}: a 4xx for each, never a 5xx`, async () => {
        // Signed in, so the id is reached (a visitor is sent to /login first): the dashboard and the API
        // (its session cookie, from our own origin) as an admin, every other route as a participant.
        const cookie = world.cookies[route.id.startsWith("routes/dashboard") || route.id.startsWith("routes/api.") ? "admin" : "participant"];
        for (const id of hostileIds) {
          const params = { id, challengeId: id, wave: id, "*": "nowhere" };
          const url = `http://localhost${routeUrl(route, { ...params, id: encodeURIComponent(id), challengeId: encodeURIComponent(id), wave: encodeURIComponent(id) })}`;
          for (const method of ["loader", "action"] as const) {
            if (!module[method]) continue;
            const request = new Request(url, {
              method: method === "loader" ? "GET" : "POST",
              headers: { [CLIENT_IP_HEADER]: "203.0.113.9", Origin: "http://localhost", ...(cookie ? { Cookie: cookie } : {}) },
              ...(method === "action" ? { body: new FormData() } : {}),
            });
            const answer = answerOf(await callRoute(module, method, { request, params, context: {} }));
            expect(answer.status, `${method} ${route.id} with id ${id} answered ${answer.status}`).toBeGreaterThanOrEqual(400);
            expect(answer.status, `${method} ${route.id} with id ${id} answered ${answer.status}`).toBeLessThan(500);
          }
        }
      });
    }
  });

  // Bodies no form of ours sends, to every action as server.ts serves it: a 4xx with a message, never a
  // 5xx, nothing stored. Actions that never read their body (logout) may answer as usual.
  const enc = (text: string) => new TextEncoder().encode(text);
  const multipart = (boundary: string, disposition: string) =>
    enc(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`);
  const unreadableBodies: Array<{ what: string; type: string | null; body: Uint8Array }> = [
    { what: "no Content-Type", type: null, body: enc("name=x&intent=save") },
    { what: "text/plain", type: "text/plain", body: enc("name=x") },
    { what: "JSON", type: "application/json", body: enc('{"name":"x","intent":"save"}') },
    { what: "a form to a JSON-only call, or the reverse", type: "application/x-www-form-urlencoded", body: enc("%%%&&&==") },
    { what: "multipart without a boundary", type: "multipart/form-data", body: multipart("b0", 'name="name"') },
    { what: "multipart with the wrong boundary", type: "multipart/form-data; boundary=expected", body: multipart("other", 'name="name"') },
    { what: "multipart cut short", type: "multipart/form-data; boundary=b1", body: enc('--b1\r\nContent-Disposition: form-data; name="title"\r\n\r\nhalf') },
    { what: "a file name the parser cannot read", type: "multipart/form-data; boundary=b2", body: multipart("b2", `name="attachment"; filename*=UTF-8''%E0%A4%A; filename="\u0000"`) },
  ];
  describe("every action under bodies no form sends", () => {
    for (const { route, module } of withActions) {
      it(`${route.id}: a 4xx with a message (or its usual answer), never a 5xx; nothing stored`, async () => {
        const params = { id: String(world.openChallenge), wave: "1", "*": "nowhere" };
        const url = `http://localhost${routeUrl(route, params)}`;
        const cookie = route.id === "routes/logout" ? await world.freshCookie(actorOf(route.id)) : world.cookies[actorOf(route.id)];
        let digest = await databaseDigest();
        for (const { what, type, body: bytes } of unreadableBodies) {
          const headers: Record<string, string> = { [CLIENT_IP_HEADER]: "203.0.113.77", Origin: "http://localhost", ...(cookie ? { Cookie: cookie } : {}) };
          if (type) headers["Content-Type"] = type;
          const answer = answerOf(await callRoute(module, "action", { request: new Request(url, { method: "POST", headers, body: bytes as unknown as BodyInit }), params, context: {} }));
          expect(answer.status, `${route.id}, ${what}: ${answer.status}`).toBeLessThan(500);
          if (answer.status >= 400) {
            expect(await refusalMessage(answer), `${route.id}, ${what}: a ${answer.status} without a message`).not.toBe("");
            expect(await databaseDigest(), `${route.id}, ${what}: refused, yet the database changed`).toBe(digest);
          } else {
            // An action that never reads its body (marking announcements read, signing out) did its work.
            digest = await databaseDigest();
          }
        }
      });
    }
  });

  describe("every loader under hostile query strings", () => {
    const query = fc.array(fc.tuple(field, value), { maxLength: 6 });
    for (const { route, module } of withLoaders) {
      it(`${route.id}: never a 5xx`, async () => {
        const params = { id: String(world.openChallenge), wave: "1", "*": "nowhere" };
        const cookie = world.cookies[actorOf(route.id)];
        await fc.assert(
          fc.asyncProperty(query, async (entries) => {
            const url = new URL(`http://localhost${routeUrl(route, params)}`);
            for (const [name, text] of entries) url.searchParams.append(name, text);
            const request = new Request(url, { headers: cookie ? { Cookie: cookie } : {} });
            const answer = answerOf(await callRoute(module, "loader", { request, params, context: {} }));
            expect(answer.status, `${route.id}${url.search} answered ${answer.status}`).toBeLessThan(500);
          }),
          { numRuns: 300 },
        );
      }, 120_000);
    }
  });
}
