/**
 * A process's pool readied at its start (docs/decisions/053-connections-kept-ready.md): every connection opened, the
 * statements of a burst of solves prepared and their plans settled on each, nothing written or held; and the pool's
 * `eachConnection`, which it is built on.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readyConnections } from "../../app/glue/ready-connections.server.ts";
import { closeDb, getDbHandle } from "../../app/infrastructure/db.server.ts";
import { createDb, type Database } from "../../db/client.ts";

/** A connection's prepared statements whose text begins with one of `starts`: how often each was planned, by kind. */
async function preparedOn(db: Database, starts: string[]) {
  const rows = await db.execute<{ statement: string; custom: number; generic: number }>(
    sql`select statement, custom_plans::int as custom, generic_plans::int as generic from pg_prepared_statements`,
  );
  return starts.map((start) => rows.filter((row) => row.statement.startsWith(start)).map(({ custom, generic }) => ({ custom, generic })));
}

const ANSWERS = "with v as materialized (select * from json_to_recordset(";
const BATCH = ["with board as materialized", 'select array(select "standings_outbox"', "with base as materialized"];

describe("eachConnection", () => {
  it("hands each connection of the pool to the callback, every one a different connection, and gives them all back", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 3 });
    try {
      const pids: number[] = [];
      await handle.eachConnection(async (db) => {
        const [row] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        pids.push(row.pid);
      });
      expect(new Set(pids).size).toBe(3);
      // Back in the pool and kept: three statements at once run on those three connections.
      const again = await Promise.all(Array.from({ length: 3 }, () => handle.db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)));
      expect(new Set(again.map(([row]) => row.pid))).toEqual(new Set(pids));
    } finally {
      await handle.close();
    }
  });

  it("throws a callback's failure once all have ended, with every connection given back", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 2 });
    try {
      let ended = 0;
      let turn = 0;
      const outcome = await handle
        .eachConnection(async (db) => {
          const mine = turn++;
          await db.execute(sql`select pg_sleep(${mine === 0 ? 0 : 0.1})`);
          ended++;
          if (mine === 0) throw new Error("the first one failed");
        })
        .catch((error: Error) => error.message);
      expect(outcome).toBe("the first one failed");
      expect(ended).toBe(2);
      const rows = await Promise.all([handle.db.execute(sql`select 1`), handle.db.execute(sql`select 2`)]);
      expect(rows).toHaveLength(2);
    } finally {
      await handle.close();
    }
  });

  it("fails, not hangs, when Postgres cannot be reached", async () => {
    const handle = createDb("postgres://postgres@127.0.0.1:1/nothing", { max: 2 });
    try {
      await expect(handle.eachConnection(async () => {})).rejects.toThrow();
    } finally {
      await handle.close();
    }
  }, 20_000);
});

describe("readyConnections", () => {
  it("leaves every connection of the pool with the answers' and the batch's statements planned, and nothing held", async () => {
    await closeDb();
    const handle = getDbHandle();
    const max = handle.poolStats().max;
    await readyConnections({ answers: true });

    const seen: Array<Awaited<ReturnType<typeof preparedOn>>> = [];
    const open: number[] = [];
    await handle.eachConnection(async (db) => {
      seen.push(await preparedOn(db, [ANSWERS, ...BATCH]));
      const [row] = await db.execute<{ locks: number }>(sql`select count(*)::int as locks from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`);
      open.push(row.locks);
    });
    expect(seen).toHaveLength(max);
    for (const [answers, ...batch] of seen) {
      // The wrong and the right answers' statements, with and without prerequisites: the five custom plans Postgres
      // makes first already made, and the kind it keeps chosen.
      expect(answers).toHaveLength(4);
      for (const plans of answers) {
        expect(plans.custom).toBe(5);
        expect(plans.custom + plans.generic).toBeGreaterThanOrEqual(6);
      }
      // The batch's locks (tried and waited for) and its reads: their generic plan made.
      for (const statement of batch) {
        expect(statement).toHaveLength(1);
        expect(statement[0].generic).toBeGreaterThanOrEqual(1);
      }
    }
    // Rolled back: no lock kept, no transaction left open on any connection.
    expect(open).toEqual(Array.from({ length: max }, () => 0));
    const [idle] = await handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    );
    expect(idle.n).toBe(0);
  });

  it("readies a worker's connections with the batch's statements only", async () => {
    // A pool of its own, as a worker process starts with.
    await closeDb();
    await readyConnections({ answers: false });
    const seen: Array<Awaited<ReturnType<typeof preparedOn>>> = [];
    await getDbHandle().eachConnection(async (db) => {
      seen.push(await preparedOn(db, [ANSWERS, ...BATCH]));
    });
    expect(seen).toHaveLength(getDbHandle().poolStats().max);
    for (const [answers, ...batch] of seen) {
      expect(answers).toEqual([]);
      for (const statement of batch) expect(statement).toHaveLength(1);
    }
  });
});
