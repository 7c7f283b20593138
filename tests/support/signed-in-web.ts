import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { FIXTURE_PASSWORD } from "../drills/support/event.ts";
import { login } from "../drills/support/http.ts";
import { ensureEventSettings, makeTeam, makeUser } from "./fixtures.ts";
import { startWebServer, stopAll } from "./processes.ts";

/**
 * A real web process (production build) over an event whose five gates are open, and the session cookie
 * of a participant of a fresh team, for the whole test file (started before its tests, stopped after them).
 */
export function signedInWebForFile(): { web: { url: string; child: ChildProcess }; cookie: string } {
  const state = {} as { web: { url: string; child: ChildProcess }; cookie: string };
  beforeAll(async () => Object.assign(state, await signedInWeb()), 90_000);
  afterAll(() => stopAll());
  return state;
}

async function signedInWeb() {
  await ensureEventSettings();
  await getDb().execute(sql`insert into gates (number, title, description, opens_at)
    select n, 'Gate ' || n, 'Door ' || n, now() - interval '1 hour' from generate_series(1, 5) n on conflict (number) do nothing`);
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  const web = await startWebServer();
  return { web, cookie: await login(web.url, user.name, FIXTURE_PASSWORD) };
}
