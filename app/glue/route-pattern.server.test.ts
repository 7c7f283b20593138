import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { methodLabel, routePatterns, statusLabel } from "./route-pattern.server";

const route = (id: string, parentId: string | undefined, path: string | undefined, index?: boolean) => ({ id, parentId, path, index, module: {} });
const build = {
  routes: {
    root: route("root", undefined, ""),
    "routes/_app": route("routes/_app", "root", undefined),
    "routes/_app.submition.$id": route("routes/_app.submition.$id", "routes/_app", "submition/:id"),
    "routes/_app.gates": route("routes/_app.gates", "routes/_app", "gates"),
    "routes/dashboard": route("routes/dashboard", "root", "dashboard"),
    "routes/dashboard._index": route("routes/dashboard._index", "routes/dashboard", undefined, true),
    "routes/dashboard.teams": route("routes/dashboard.teams", "routes/dashboard", "teams"),
    "routes/$": route("routes/$", "root", "*"),
  },
} as unknown as ServerBuild;

describe("the request metric's labels", () => {
  const routeOf = routePatterns(build);

  it("name a Remix page by its pattern, never by the path a client typed", () => {
    expect(routeOf("/submition/42", true)).toBe("/submition/:id");
    expect(routeOf("/submition/99999999999", true)).toBe("/submition/:id");
    expect(routeOf("/gates", true)).toBe("/gates");
    expect(routeOf("/dashboard", true)).toBe("/dashboard");
    expect(routeOf("/dashboard/teams", true)).toBe("/dashboard/teams");
    expect(routeOf("/no/such/page", true)).toBe("/*");
  });

  it("name what is answered before Remix from a fixed list", () => {
    expect(routeOf("/api/v1/scoreboard", false)).toBe("/api/v1/scoreboard (feed)");
    expect(routeOf("/healthz", false)).toBe("/healthz");
    expect(routeOf("/__manifest", false)).toBe("/__manifest (reload)");
    expect(routeOf("/build/entry.client-AB12.js", false)).toBe("/build/*");
    expect(routeOf("/dashboard/queues/api/queues", false)).toBe("/dashboard/queues/*");
    expect(routeOf("/favicon.ico", false)).toBe("public file");
  });

  it("stay within a fixed set however many paths arrive", () => {
    const labels = new Set<string>();
    for (let id = 0; id < 5000; id++) labels.add(routeOf(`/submition/${id}`, true));
    for (let id = 0; id < 5000; id++) labels.add(routeOf(`/x${id}/y`, true));
    expect([...labels].sort()).toEqual(["/*", "/submition/:id"]);
    expect(["GET", "HEAD", "POST", "PROPFIND", "PUT", "MKCALENDAR"].map(methodLabel)).toEqual(["GET", "HEAD", "POST", "other", "other", "other"]);
    expect([200, 206, 302, 404, 413, 503].map((status) => statusLabel(status, false))).toEqual(["2xx", "2xx", "3xx", "4xx", "4xx", "5xx"]);
    expect(statusLabel(200, true)).toBe("aborted");
  });
});
