/**
 * postgres.js prepares each distinct statement text once per pooled connection and keeps it (and Postgres
 * its plan) until the connection is recycled. A list written `in ($1, …, $n)` is a new text for every
 * length, so the statements piled up with the event's sessions and submissions: the soak saw it as the web
 * processes' heap creeping (docs/reliability-log.md, "What held the web processes' heap, and the 500s"). Lists now
 * go as one array parameter (`anyOf`,
 * db/any-of.ts), and lint keeps `inArray` out of app/ and workers/.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyOf } from "../../db/any-of.ts";
import { users } from "../../db/schema.ts";
import { closeDb, getDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { findLiveSession, findLiveSessions, touchSessions } from "../../app/modules/auth/sessions.server.ts";
import { listSubmissionsSorted } from "../../app/modules/submissions/list.server.ts";
import { makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";

// One connection, so pg_prepared_statements (per backend) sees every statement this file's code prepared.
beforeAll(async () => {
  process.env.DATABASE_POOL_MAX = "1";
  resetEnvForTests();
  await closeDb();
});
afterAll(async () => {
  delete process.env.DATABASE_POOL_MAX;
  resetEnvForTests();
  await closeDb();
});

const prepared = async (like: string) =>
  (await getDb().execute<{ statement: string }>(sql`select statement from pg_prepared_statements where statement like ${like}`)).map((row) => row.statement);

describe("lists of values in statements", () => {
  it("looking sessions up (and touching them) in batches of 1 to 40 prepares one statement each, not one per batch size", async () => {
    for (let size = 1; size <= 40; size++) {
      const hashes = Array.from({ length: size }, () => randomBytes(32).toString("base64url"));
      expect(await findLiveSessions(hashes)).toEqual([]);
      expect(await findLiveSession(hashes[0])).toBeNull();
      expect(await touchSessions(hashes)).toEqual(new Set());
      expect(await touchSessions([hashes[0]])).toEqual(new Set());
    }
    // A list's lookup and touch, and one session's (a request's): four statements, whatever the sizes.
    const statements = await prepared(`%"sessions"."token_hash"%`);
    expect(statements).toHaveLength(4);
    for (const statement of statements) expect(statement).not.toMatch(/ in \(\$\d+/);
    // One session's lookup and touch are planned once and their plan kept (a request's, every minute of every session).
    const plans = await getDb().execute<{ generic: number }>(
      sql`select generic_plans::int as generic from pg_prepared_statements where statement like ${'%"sessions"."token_hash" = $%'}`,
    );
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan.generic).toBeGreaterThan(0);
  });

  it("the judges' list with its scores prepares the same statements for 1 submission as for 30", async () => {
    const challenge = await makeChallenge();
    const run = async () => listSubmissionsSorted({});
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    await getDb().execute(sql`insert into submissions (team_id, challenge_id, user_id, text) values (${team.id}, ${challenge.id}, ${member.id}, 'one')`);
    await run();
    const afterOne = await prepared("%submission_scores%");
    for (let more = 0; more < 29; more++) {
      const other = await makeTeam();
      const someone = await makeUser("participant", other.id);
      await getDb().execute(sql`insert into submissions (team_id, challenge_id, user_id, text) values (${other.id}, ${challenge.id}, ${someone.id}, 'more')`);
      await run();
    }
    expect(await prepared("%submission_scores%")).toEqual(afterOne);
  });

  it("anyOf matches hostile strings exactly, nothing for an empty list, and an enum column by its own type", async () => {
    const names = [`a"b`, `c\\d`, `e,f`, `{g}`, `NULL`, `ü ش`, `' or 1=1 --`];
    for (const name of names) await makeUser("participant", null, name);
    const found = await getDb().select({ name: users.name }).from(users).where(anyOf(users.name, names));
    expect(found.map((row) => row.name).sort()).toEqual([...names].sort());
    expect(await getDb().select({ id: users.id }).from(users).where(anyOf(users.name, []))).toEqual([]);
    const judges = await getDb().select({ role: users.role }).from(users).where(anyOf(users.role, ["judge", "mentor"]));
    expect(judges.every((row) => row.role === "judge" || row.role === "mentor")).toBe(true);
  });
});
