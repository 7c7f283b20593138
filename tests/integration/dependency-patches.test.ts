/**
 * Each patch in patches/ is in effect (patch-package applies them at install and fails the install when
 * one does not apply): a behaviour only the patched code has, observed from outside; each test fails on the
 * published package. README.md, "Patched dependencies", and each patch's header say what it fixes or buys,
 * and until when.
 */
import { readFileSync } from "node:fs";
import { Socket } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createStaticHandler, matchRoutes, resolveTo, type AgnosticRouteObject } from "@remix-run/router";
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { createElement, Suspense, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type * as ReactDomServer from "react-dom/server";
import { createStaticRouter } from "react-router-dom/server.js";
import { entityKind, is, SQL, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
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

  // patches/drizzle-orm+0.45.4.patch, its header.
  it("drizzle-orm: `is` keeps its answer for a class and an entity type (building SQL asks it of every chunk, for many types)", () => {
    class Kind {
      static readonly [entityKind] = "GatekeeperTestKind";
    }
    class Other {
      static [entityKind] = "GatekeeperTestOther";
    }
    const value = new Other();
    expect(is(value, Kind)).toBe(false);
    // The class now claims the kind. Unpatched, `is` walks the class chain again and answers true.
    (Other as unknown as Record<symbol, string>)[entityKind] = "GatekeeperTestKind";
    expect(is(value, Kind)).toBe(false);
    // Another class is asked afresh; instances answer as before.
    class Third {
      static readonly [entityKind] = "GatekeeperTestKind";
    }
    expect(is(new Third(), Kind)).toBe(true);
    expect(is(new Kind(), Kind)).toBe(true);
    expect(is(sql`select 1`, SQL)).toBe(true);
    expect(is({}, SQL)).toBe(false);
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

  // patches/postgres+3.4.9.patch, its header: a transaction's BEGIN and connection.
  it("postgres: a transaction's BEGIN goes out with its first statements, in one write, and the transaction is whole", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    const writes: string[] = [];
    const write = Socket.prototype.write;
    try {
      const both = () =>
        handle.db.transaction(async (tx) => {
          const [first, second] = await Promise.all([
            tx.execute<{ id: string }>(sql`select txid_current()::text as id, ${1}::int as n`),
            tx.execute<{ id: string }>(sql`select txid_current()::text as id, ${2}::int as n`),
          ]);
          return [first[0].id, second[0].id];
        });
      // Once first: a statement's first run prepares it (a round trip of its own, patched or not).
      await both();
      Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
        if (Buffer.isBuffer(args[0])) writes.push(args[0].toString("latin1"));
        return write.apply(this, args);
      } as Socket["write"];
      const inside = await both();
      Socket.prototype.write = write;
      // Unpatched: BEGIN, then both statements, then COMMIT (three writes, three round trips).
      expect(writes).toHaveLength(2);
      // The simple-protocol BEGIN, then a Bind of each (prepared) statement.
      expect(writes[0]).toMatch(/^Q.{4}begin \0B/s);
      expect(writes[0].match(/B\0\0\0/g)).toHaveLength(2);
      // Then COMMIT (prepared: a Bind of its own).
      expect(writes[1].match(/B\0\0\0/g)).toHaveLength(1);
      // Both statements ran in the one transaction.
      expect(inside[0]).toBe(inside[1]);
      // A callback that fails rolls everything back; one that waits before its first statement still works.
      await expect(
        handle.db.transaction(async (tx) => {
          await tx.insert(teams).values({ name: "patch-rollback", nameKey: "patch-rollback" });
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      const late = await handle.db.transaction(async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return (await tx.execute<{ n: number }>(sql`select count(*)::int as n from teams where name_key = ${"patch-rollback"}`))[0].n;
      });
      expect(late).toBe(0);
    } finally {
      Socket.prototype.write = write;
      await handle.close();
    }
  });

  // patches/postgres+3.4.9.patch, its header: a transaction's BEGIN and connection.
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

  // patches/postgres+3.4.9.patch, its header: a transaction's BEGIN and connection.
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

  // The three route-matching patches (their headers in patches/).
  it("@remix-run/router: a route array's ranked branches are kept (a route added to the same array later is not seen)", () => {
    const routes: AgnosticRouteObject[] = [{ id: "a", path: "/a" }];
    expect(matchRoutes(routes, "/a")?.[0]?.route.id).toBe("a");
    routes.push({ id: "b", path: "/b" });
    // Unpatched, every call flattens and ranks the array again and finds /b.
    expect(matchRoutes(routes, "/b")).toBeNull();
    // A new array (a new build) is matched afresh.
    expect(matchRoutes([...routes], "/b")?.[0]?.route.id).toBe("b");
  });

  it("react-router-dom: the static router converts one route array once (same data routes on every render)", async () => {
    const routes = [{ id: "root", path: "/", loader: () => null }];
    const context = await createStaticHandler(routes).query(new Request("http://x/"));
    if (context instanceof Response) throw new Error("unexpected response");
    expect(createStaticRouter(routes, context).routes).toBe(createStaticRouter(routes, context).routes);
  });

  // patches/@remix-run+server-runtime+2.17.5.patch, its header.
  it("@remix-run/server-runtime: a loader gets the request itself when there is no parameter to strip, a copy without it otherwise", async () => {
    type LoaderArgs = { request: Request };
    const { callRouteLoader } = createRequire(import.meta.url)("@remix-run/server-runtime/dist/data.js") as {
      callRouteLoader: (args: { loadContext: unknown; loader: (args: LoaderArgs) => unknown; params: object; request: Request; routeId: string; singleFetch: boolean }) => Promise<unknown>;
    };
    const seen = async (request: Request, singleFetch = true) => {
      let got: Request | null = null;
      await callRouteLoader({ loadContext: {}, params: {}, routeId: "r", singleFetch, request, loader: ({ request }) => ((got = request), null) });
      return got as unknown as Request;
    };
    const page = new Request("http://x/gate/3");
    // Unpatched, each loader of every page got its own copy (a new Request and AbortSignal).
    expect(await seen(page)).toBe(page);
    const paged = new Request("http://x/scoreboard?page=2");
    expect(await seen(paged)).toBe(paged);
    expect(await seen(paged, false)).toBe(paged);
    // What Remix strips is still stripped.
    const routed = await seen(new Request("http://x/status?_routes=routes%2Fstatus&index&page=2"));
    expect(routed.url).toBe("http://x/status?page=2");
    expect((await seen(new Request("http://x/status?_data=routes%2Fstatus"), false)).url).toBe("http://x/status");
    expect((await seen(new Request("http://x/?index=kept"))).url).toBe("http://x/?index=kept");
  });

  // patches/@remix-run+router+1.23.3.patch, its header; docs/performance-log.md, "Links: the app's own, and a V8 defect".
  it("@remix-run/router: resolving an object path builds none of its three error messages unless a check fails", () => {
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      expect(resolveTo({ pathname: "/gates", search: "?a=1" }, ["/"], "/", false).pathname).toBe("/gates");
      // Unpatched, each of the three messages is built (with JSON.stringify of the path) on every call.
      expect(stringify).not.toHaveBeenCalled();
      expect(() => resolveTo({ pathname: "/gates?x" }, ["/"], "/", false)).toThrow(/Cannot include a '\?' character/);
    } finally {
      stringify.mockRestore();
    }
  });

  it("@conform-to/react: a field's metadata is made once per form state, not once per property read", () => {
    function RequestForm() {
      const [form, fields] = useForm({ id: "request", constraint: { message: { required: true, maxLength: 2000 } } });
      return createElement("form", getFormProps(form), createElement("textarea", getTextareaProps(fields.message)));
    }
    const made = { proxies: 0 };
    const RealProxy = globalThis.Proxy;
    globalThis.Proxy = new RealProxy(RealProxy, {
      construct(target, args) {
        made.proxies += 1;
        return Reflect.construct(target, args);
      },
    });
    let html: string;
    try {
      html = renderToString(createElement(RequestForm));
    } finally {
      globalThis.Proxy = RealProxy;
    }
    // The props still say what the state says.
    expect(html).toContain('id="request-message"');
    expect(html).toContain('name="message"');
    expect(html).toContain("required");
    expect(html).toContain('maxLength="2000"');
    // 10 proxies patched (the form's, the fieldset's and the field's, and one metadata object for each per
    // state); 21 unpatched, where every property read of the form's and the textarea's props made its own.
    expect(made.proxies).toBeLessThanOrEqual(12);
  });

  // The react-dom patch (its header; decision 033): both builds (production's is what serves pages; tests load development's).
  it.each(["production.min", "development"])("react-dom/server (%s): a flush's chunks are encoded once, whole: no NUL byte where a multi-byte character meets React's 2,048-byte view", async (build) => {
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
    // Unpatched, every write is a 2,048-byte view (or less); patched, a flush is encoded in pieces of up to 16,384 characters.
    expect(Math.max(...writes.map((chunk) => chunk.byteLength))).toBeGreaterThan(16_384);
  });

  it.each(["production.min", "development"])("react-dom/server (%s): a destination that asks React to wait is still heard (backpressure), with text pending", async (build) => {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs", `react-dom-server.node.${build}.js`);
    const server = require(file) as typeof ReactDomServer;
    // Twenty parts of 10,000 characters each, each shown when its promise settles (one flush each).
    const gates = Array.from({ length: 20 }, () => {
      const gate = { open: false, opened: Promise.resolve(), release: () => {} };
      gate.opened = new Promise<void>((resolve) => (gate.release = () => ((gate.open = true), resolve())));
      return gate;
    });
    function Wait({ at, children }: { at: number; children?: ReactNode }) {
      if (!gates[at].open) throw gates[at].opened;
      return children;
    }
    const page = createElement("div", null, gates.map((_, at) => createElement(Suspense, { key: at, fallback: `waiting ${at}` }, createElement(Wait, { at }, createElement("p", null, "y".repeat(10_000))))));
    const turns = async (count: number) => {
      for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    // A slow client: every write is answered "wait", and "drain" never comes.
    let written = 0;
    const sink = {
      write: (chunk: Uint8Array) => ((written += chunk.byteLength), false),
      end: () => {},
      on: () => sink,
      destroy: () => {},
    };
    const { pipe } = server.renderToPipeableStream(page, { onShellReady: () => pipe(sink as never), onError: () => {} });
    await turns(5);
    for (const gate of gates) {
      gate.release();
      await turns(5);
    }
    // React stops after the first part it was told to wait on (11,512 bytes, as unpatched); not hearing the
    // destination, it would write all twenty (over 200,000).
    expect(written).toBeGreaterThan(10_000);
    expect(written).toBeLessThan(25_000);
  });

  it("@remix-run/react: RemixServer builds the server route tree once per build", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve("@remix-run/react/dist/server.js"), "utf8");
    expect(source).toContain("serverRoutesFor(manifest.routes, routeModules");
  });
});
