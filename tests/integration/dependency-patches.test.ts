/**
 * Each patch in patches/ is in effect (patch-package applies them at install and fails the install when
 * one does not apply): a behaviour only the patched code has, observed from outside; each test fails on the
 * published package. README.md, "Patched dependencies", and each patch's header say what it fixes or buys,
 * and until when.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type * as ReactDomServer from "react-dom/server";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client.ts";
import { within } from "../../app/infrastructure/deadline.ts";
import { teams } from "../../db/schema.ts";

describe("dependency patches", () => {
  // Not a patch: db/client.ts asks postgres.js to prepare every statement drizzle sends.
  it("drizzle-orm: every query is a prepared statement, in the pool, a transaction and a savepoint (docs/decisions/012-prepared-statements.md)", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      // Unnamed (not prepared) itself, so it never counts itself; the connection's own start-up may.
      const prepared = async () => (await handle.sql.unsafe("select count(*)::int as n from pg_prepared_statements", [], { prepare: false }))[0].n as number;
      const before = await prepared();
      await handle.db.select({ id: teams.id }).from(teams).limit(1);
      expect(await prepared()).toBe(before + 1);
      await handle.db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int as in_transaction`);
        await tx.transaction(async (inner) => {
          await inner.execute(sql`select ${2}::int as in_savepoint`);
        });
      });
      const statements = (await handle.sql.unsafe("select statement from pg_prepared_statements", [], { prepare: false })).map((row) => row.statement as string);
      expect(statements.some((text) => text.includes("in_transaction"))).toBe(true);
      expect(statements.some((text) => text.includes("in_savepoint"))).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it("postgres: a query on a reserved connection whose socket has closed fails; it does not kill the process", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 2 });
    try {
      const reserved = await handle.sql.reserve();
      const [{ pid }] = await reserved`select pg_backend_pid() as pid`;
      await handle.sql`select pg_terminate_backend(${pid})`;
      // The reserved connection's socket closes; a query then (a transaction's ROLLBACK, in the app)
      // must be refused. Unpatched, it scheduled a write to no socket, which threw from setImmediate.
      // The first query may still find the socket and fail with its reset; the next ones find none.
      await expect
        .poll(() => reserved`select 1`.then(() => "ran", (error: { code?: string }) => error.code ?? "error"), { timeout: 10_000, interval: 100 })
        .toBe("CONNECTION_CLOSED");
      reserved.release();
    } finally {
      await handle.close();
    }
  });

  // patches/postgres+3.4.9.patch, its header: a transaction's connection.
  it("postgres: a transaction's callback that commits and begins again keeps its connection until the transaction ends", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      type Seen = { pid: number; txid: string };
      const order: string[] = [];
      let outside: Promise<unknown> | undefined;
      const seen = await handle.sql.begin(async (tx) => {
        // COMMIT and BEGIN with the statements around them, in one round trip.
        const [[first], , , [second]] = await Promise.all([
          tx<Seen[]>`select pg_backend_pid() as pid, txid_current()::text as txid`,
          tx`commit`,
          tx`begin`,
          tx<Seen[]>`select pg_backend_pid() as pid, txid_current()::text as txid`,
        ]);
        // A COMMIT alone: Postgres says the connection is idle, with nothing else sent. Unpatched, the pool takes
        // the connection back then, and a query from elsewhere (this pool has one connection) runs on it at once.
        await tx`commit`;
        outside = handle.sql`select 1`.then(() => order.push("outside"));
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx`begin`;
        const [third] = await tx<Seen[]>`select pg_backend_pid() as pid, txid_current()::text as txid`;
        order.push("transaction");
        return [first, second, third];
      });
      await outside;
      expect(order).toEqual(["transaction", "outside"]);
      expect(new Set(seen.map((row) => row.pid)).size).toBe(1);
      expect(new Set(seen.map((row) => row.txid)).size).toBe(3);
    } finally {
      await handle.close();
    }
  });

  // patches/postgres+3.4.9.patch, its header: a transaction's connection.
  it("postgres: a transaction whose connection closed refuses its callback's later queries, which would run on the reconnected connection", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    const other = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      let later: Promise<string> | undefined;
      const transaction = handle.sql.begin(async (tx) => {
        const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
        later = (async () => {
          await other.sql`select pg_terminate_backend(${pid})`;
          // The pool (one connection) reconnects it for a query from elsewhere, which runs.
          await expect.poll(() => handle.sql`select 1 as n`.then(() => "ran", () => "failed"), { timeout: 10_000, interval: 50 }).toBe("ran");
          // The callback goes on. Unpatched, this runs on that new session, outside any transaction.
          return tx`select 1 as n`.then(
            () => "ran",
            (error: { code?: string }) => error.code ?? "error",
          );
        })();
        await later;
      });
      await expect(transaction).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
      expect(await later).toBe("CONNECTION_CLOSED");
    } finally {
      await handle.close();
      await other.close();
    }
  });

  // patches/postgres+3.4.9.patch, its header: a forgotten prepared statement.
  it("postgres: a prepared statement Postgres forgot, with statements sent behind it, fails once and is prepared again; the connection answers", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      const outcomes = await within(
        handle.sql.begin(async (tx) => {
          await tx`select ${1}::int as a`;
          await tx.unsafe("deallocate all");
          // The first is sent as prepared and fails; the second (new: described first) was sent behind it.
          // Unpatched, the first is sent again behind the second, which then never gets its answer: a hang.
          const settled = await Promise.allSettled([tx`select ${2}::int as a`, tx`commit`, tx`begin`, tx`select ${3}::int as fresh`]);
          return settled.map((result) => (result.status === "fulfilled" ? (result.value as unknown as { command: string }).command : "failed"));
        }).catch((error: Error) => error.message),
        5_000,
        "the connection hung",
      );
      expect(outcomes).toMatch(/prepared statement .* does not exist/);
      // Forgotten by the driver too: its next use prepares it again.
      expect(await handle.sql`select ${4}::int as a`).toEqual([{ a: 4 }]);
    } finally {
      await handle.close();
    }
  });

  // patches/postgres+3.4.9.patch, its header: the pool's queues.
  it("postgres: a pool queue that never runs empty keeps its spent slots bounded, and still hands out in order", async () => {
    // The module our ESM import of postgres loads (src/, beside the cjs/ copy), by path: the package exports no subpath.
    const esmQueue = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../../src/queue.js")).href;
    const { default: Queue } = (await import(esmQueue)) as {
      default: (initial?: unknown[]) => { length: number; slots: number | undefined; push: (x: unknown) => unknown; shift: () => unknown; remove: (x: unknown) => unknown };
    };
    const connections = ["a", "b", "c"];
    const idle = Queue(connections);
    const order: unknown[] = [];
    // The pool's idle connections with one query at a time: take the first, give it back at the end.
    for (let query = 0; query < 10_000; query++) {
      const connection = idle.shift();
      order.push(connection);
      expect(idle.remove(connection), "a taken connection is no longer in the queue").toBeNull();
      idle.push(connection);
    }
    expect(order.slice(0, 6)).toEqual(["a", "b", "c", "a", "b", "c"]);
    expect(order.at(-1)).toBe(connections[(10_000 - 1) % 3]);
    expect(idle.length).toBe(3);
    // Unpatched, one spent slot per query: 10,003 (and every remove() scanned them all).
    expect(idle.slots).toBeLessThanOrEqual(200);
    expect(idle.remove("b")).toBe("b");
    expect(idle.length).toBe(2);
  });

  // The react-dom patch (its header): both builds (production's is what serves pages; tests load development's).
  it.each(["production.min", "development"])("react-dom/server (%s): no NUL byte where a multi-byte character meets React's 2,048-byte view", async (build) => {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs", `react-dom-server.node.${build}.js`);
    const server = require(file) as typeof ReactDomServer;
    // Arabic (two bytes a letter) and ASCII of varying length, so characters straddle every 2,048-byte boundary.
    const rows = Array.from({ length: 800 }, (_, i) => createElement("tr", { key: i }, createElement("td", null, `فريق ${"x".repeat(i % 7)}${i}`), createElement("td", { title: 'a"b' }, i)));
    const page = createElement("table", null, createElement("tbody", null, rows));
    const writes: Uint8Array[] = [];
    const html = await new Promise<Buffer>((resolve, reject) => {
      const sink = {
        write: (chunk: Uint8Array) => writes.push(chunk) > 0,
        end: () => resolve(Buffer.concat(writes)),
        on: () => sink,
        destroy: reject,
      };
      const { pipe } = server.renderToPipeableStream(page, { onAllReady: () => pipe(sink as never), onError: reject });
    });
    expect(html.includes(0)).toBe(false);
    expect(html.toString("utf8")).toBe(renderToString(page));
  });
});
