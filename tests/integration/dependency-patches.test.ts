/**
 * Each patch in patches/ is in effect (patch-package applies them at install and fails the install when
 * one does not apply): a behaviour only the patched code has, observed from outside.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createStaticHandler, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { createStaticRouter } from "react-router-dom/server.js";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client.ts";
import { teams } from "../../db/schema.ts";

describe("dependency patches", () => {
  it("drizzle-orm: every query is a prepared statement (docs/decisions/012-prepared-statements.md)", async () => {
    const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
    try {
      // Unnamed (not prepared) itself, so it never counts itself; the connection's own start-up may.
      const prepared = async () => (await handle.sql.unsafe("select count(*)::int as n from pg_prepared_statements", [], { prepare: false }))[0].n as number;
      const before = await prepared();
      await handle.db.select({ id: teams.id }).from(teams).limit(1);
      expect(await prepared()).toBe(before + 1);
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

  // docs/decisions/012-prepared-statements.md, "The pool's queues".
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

  // The three route-matching patches (docs/decisions/012-prepared-statements.md, "Route matching").
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

  // docs/decisions/012-prepared-statements.md, "A loader's request".
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

  it("@remix-run/react: RemixServer builds the server route tree once per build", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve("@remix-run/react/dist/server.js"), "utf8");
    expect(source).toContain("serverRoutesFor(manifest.routes, routeModules");
  });
});
