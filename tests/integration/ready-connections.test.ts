/**
 * A process's pool readied at its start (docs/decisions/053-connections-kept-ready.md): every connection opened, the
 * statements of a burst of solves prepared and their plans settled on each, nothing written or held; and
 * rolledBackOnEachConnection (db/in-order.ts), which it is built on.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { readyConnections } from "../../app/glue/ready-connections.server.ts";
import { closeDb, getDbHandle } from "../../app/infrastructure/db.server.ts";
import { createDb, type Database, type Transaction } from "../../db/client.ts";
import { rolledBackOnEachConnection } from "../../db/in-order.ts";
import { productionServiceEnv } from "../../scripts/lib/local-services.ts";
import { startProcess, stopAll, WEB_SESSION_SECRET } from "../support/processes.ts";

/**
 * `read` on `count` connections of the pool at once: each in a transaction that waits for all the others to have read
 * before it ends, so no two share a connection.
 */
async function onEachConnection<T>(db: Database, count: number, read: (tx: Transaction) => Promise<T>): Promise<T[]> {
  let arrived = 0;
  let allArrived!: () => void;
  const all = new Promise<void>((resolve) => (allArrived = resolve));
  return Promise.all(
    Array.from({ length: count }, () =>
      db.transaction(async (tx) => {
        const value = await read(tx);
        if (++arrived === count) allArrived();
        await all;
        return value;
      }),
    ),
  );
}

/** A connection's prepared statements whose text begins with one of `starts`: how often each was planned, by kind. */
async function preparedOn(tx: Transaction, starts: string[]) {
  const rows = await tx.execute<{ statement: string; custom: number; generic: number }>(
    sql`select statement, custom_plans::int as custom, generic_plans::int as generic from pg_prepared_statements`,
  );
  return starts.map((start) => rows.filter((row) => row.statement.startsWith(start)).map(({ custom, generic }) => ({ custom, generic })));
}

const ANSWERS = "with v as materialized (select * from json_to_recordset(";
const TRIED_LOCKS = "with board as materialized";
const WAITED_LOCKS = 'select array(select "standings_outbox"';
const READS = "with base as materialized";

describe("rolledBackOnEachConnection", () => {
  it("runs the statements once on every connection of the pool, each on its own, and rolls each run back", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 3 });
    const marker = `ready-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const table = `gk_ready_${Math.random().toString(36).slice(2, 10)}`;
    try {
      const ended = await rolledBackOnEachConnection(handle.db, 3, [sql`select ${1}::int as one, ${sql.raw(`'${marker}'`)} as marker`, sql.raw(`create temp table ${table} (x int)`)], 10_000);
      expect(ended).toBe(true);
      // Each connection prepared the statement once: three connections, three preparations.
      const seen = await onEachConnection(handle.db, 3, async (tx) => {
        const [row] = await tx.execute<{ pid: number; n: number }>(sql`select pg_backend_pid() as pid, (select count(*)::int from pg_prepared_statements where statement like ${`%${marker}%`}) as n`);
        return row;
      });
      expect(new Set(seen.map((row) => row.pid)).size).toBe(3);
      expect(seen.map((row) => row.n)).toEqual([1, 1, 1]);
      // Rolled back: the table was never made; no transaction is left open.
      const [made] = await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from pg_tables where tablename = ${table}`);
      expect(made.n).toBe(0);
    } finally {
      await handle.close();
    }
  });

  it("throws a statement's failure once all runs have ended, with every connection back in the pool", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 2 });
    try {
      const outcome = await rolledBackOnEachConnection(handle.db, 2, [sql`select 1`, sql`select ${"not a number"}::int`], 10_000).catch((error: Error) => error);
      expect(outcome).toBeInstanceOf(Error);
      const rows = await onEachConnection(handle.db, 2, (tx) => tx.execute(sql`select 1 as one`));
      expect(rows).toHaveLength(2);
    } finally {
      await handle.close();
    }
  });

  it("says false once its time is up, without waiting for runs that go on", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 2 });
    try {
      const started = performance.now();
      const ended = await rolledBackOnEachConnection(handle.db, 2, [sql`select pg_sleep(1.5)`], 200);
      expect(ended).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_200);
      // The runs end by themselves; the pool serves again then.
      const rows = await onEachConnection(handle.db, 2, (tx) => tx.execute(sql`select 1 as one`));
      expect(rows).toHaveLength(2);
    } finally {
      await handle.close();
    }
  });

  it("fails, not hangs, when Postgres cannot be reached", async () => {
    const handle = createDb("postgres://postgres@127.0.0.1:1/nothing", { max: 2 });
    try {
      await expect(rolledBackOnEachConnection(handle.db, 2, [sql`select 1`], 30_000)).rejects.toThrow();
    } finally {
      await handle.close();
    }
  }, 20_000);
});

describe("readyConnections", () => {
  it("a web process's: every connection with the answers' statements planned and the batch's as its batches run them, nothing held", async () => {
    // A pool of its own, as a process starts with.
    await closeDb();
    await readyConnections({ answers: true });
    const handle = getDbHandle();
    const max = handle.poolStats().max;
    const seen = await onEachConnection(handle.db, max, async (tx) => {
      const [locks] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`);
      return { prepared: await preparedOn(tx, [ANSWERS, TRIED_LOCKS, WAITED_LOCKS, READS]), locks: locks.n };
    });
    expect(seen).toHaveLength(max);
    for (const { prepared, locks } of seen) {
      const [answers, tried, waited, reads] = prepared;
      // The wrong and the right answers' statements, with and without prerequisites: the five custom plans Postgres
      // makes first already made, and the kind it keeps chosen.
      expect(answers).toHaveLength(4);
      for (const plans of answers) {
        expect(plans.custom).toBe(5);
        expect(plans.custom + plans.generic).toBeGreaterThanOrEqual(6);
      }
      // The batch's locks as a web process's batch takes them (only tried), and its reads: their generic plan made.
      expect(tried).toEqual([{ custom: 0, generic: 1 }]);
      expect(waited).toEqual([]);
      expect(reads).toEqual([{ custom: 0, generic: 1 }]);
      // Rolled back: no lock kept.
      expect(locks).toBe(0);
    }
    const [open] = await handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    );
    expect(open.n).toBe(0);
  });

  it("a worker's: the batch's statements only, its locks waited for as a job's are", async () => {
    await closeDb();
    await readyConnections({ answers: false });
    const handle = getDbHandle();
    const seen = await onEachConnection(handle.db, handle.poolStats().max, (tx) => preparedOn(tx, [ANSWERS, TRIED_LOCKS, WAITED_LOCKS, READS]));
    for (const [answers, tried, waited, reads] of seen) {
      expect(answers).toEqual([]);
      expect(tried).toEqual([]);
      expect(waited).toEqual([{ custom: 0, generic: 1 }]);
      expect(reads).toEqual([{ custom: 0, generic: 1 }]);
    }
  });
});

describe("a process's start", () => {
  afterAll(() => stopAll());

  // Its log, in order: a start that listened (or took jobs) first would not match, and the start would time out. The
  // readying done, or given up (a statement past its time on a busy machine): either way before the work.
  const READYING_ENDED = String.raw`"msg":"database connections (?:readied|not all readied)`;
  it("readies the connections before a web process listens", async () => {
    await startProcess("server.ts", new RegExp(String.raw`${READYING_ENDED}[\s\S]*listening on http://localhost:\d+`), {
      NODE_ENV: "production",
      SESSION_SECRET: WEB_SESSION_SECRET,
      ...productionServiceEnv(),
      PORT: "0",
    });
  }, 90_000);

  it("readies the connections before a worker takes jobs", async () => {
    await startProcess("workers/index.ts", new RegExp(String.raw`${READYING_ENDED}[\s\S]*worker started`));
  }, 90_000);
});

