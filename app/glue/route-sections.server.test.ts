/**
 * A path matches the same routes in its section as in the whole table (./route-sections.server.ts): for a path of
 * every route of the app (Remix's own flat-routes convention, as the build has them) and its variants, and for paths
 * meant to slip between the sections.
 */
import path from "node:path";
import { UNSAFE_flatRoutes } from "@remix-run/dev";
import { matchRoutes } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { REST, routeSections, sectionBuilds, sectionOfPath, type RouteEntry } from "./route-sections.server";
import type { ServerBuild } from "@remix-run/node";
import remixConfig from "../../remix.config.js";

const appDirectory = path.resolve(import.meta.dirname, "..");
/** A route as Remix's router takes it. */
type RouteObject = Parameters<typeof matchRoutes>[0][number];

const manifest: Record<string, RouteEntry & { caseSensitive?: boolean }> = { root: { id: "root", path: "" }, ...UNSAFE_flatRoutes(appDirectory, remixConfig.ignoredRouteFiles) };

/** The route tree Remix's router matches, of the routes `ids`. */
function tree(ids: Set<string>, parentId: string | undefined = undefined): RouteObject[] {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId && ids.has(route.id))
    .map((route) => {
      const children = tree(ids, route.id);
      const own = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
      return route.index ? { ...own, index: true as const } : { ...own, children };
    });
}

const whole = tree(new Set(Object.keys(manifest)));
const sections = routeSections(manifest);
const sectionTrees = new Map([...sections].map(([section, ids]) => [section, tree(ids)]));

/** The routes a request's path matches, as Remix's server reads the path (a single fetch's `.data` off, unless `kept`). */
function matched(routes: RouteObject[], pathname: string, kept = false): string[] {
  const plain = kept ? pathname : pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  return (matchRoutes(routes, plain) ?? []).map((match) => match.route.id!);
}

/** A path of the route: each parameter a value, a splat two segments. */
function pathOf(id: string): string {
  const segments: string[] = [];
  for (let at: string | undefined = id; at; at = manifest[at]?.parentId) if (manifest[at]?.path) segments.unshift(manifest[at]!.path!);
  const pattern = `/${segments.join("/")}`.replace(/\/+/g, "/");
  return pattern.replace(/:[A-Za-z]+/g, "7").replace(/\*$/, "x/y");
}

/** The same path as a client could write it otherwise. */
function variants(pathname: string): string[] {
  const first = pathname.split("/")[1] ?? "";
  return [
    pathname,
    pathname.toUpperCase(),
    `${pathname}.data`,
    `${pathname}/`,
    `/${pathname}`,
    first ? `/%${first.charCodeAt(0).toString(16)}${pathname.slice(2)}` : pathname,
    first ? `/${first}%2F${pathname.split("/").slice(2).join("/")}` : pathname,
    `/x${pathname}`,
    first ? `/${first}x${pathname.slice(first.length + 1)}` : pathname,
  ];
}

describe("route sections", () => {
  it("split the routes by their first segment: a participant page's section holds its route, its layouts and the catch-all", () => {
    expect([...sections.get("GATES")!].sort()).toEqual(["root", "routes/$", "routes/_app", "routes/_app.gates"]);
    expect([...sections.get(REST)!].sort()).toEqual(["root", "routes/$", "routes/_app", "routes/_index"]);
    expect(sections.get("API")!.size).toBe(Object.keys(manifest).filter((id) => id.startsWith("routes/api.")).length + 2);
    for (const ids of sections.values()) expect([...ids]).toEqual(expect.arrayContaining(["root", "routes/$"]));
    // Every route is in a section.
    expect(new Set([...sections.values()].flatMap((ids) => [...ids])).size).toBe(Object.keys(manifest).length);
  });

  it("match every route's path, and its variants, to the same routes as the whole table does", () => {
    const paths = Object.keys(manifest).flatMap((id) => variants(pathOf(id)));
    const extra = [
      ...["/", "/_root.data", "/api", "/API/V1/teams", "/dashboard", "/dashboard.data", "/dashboardx", "/apix/v1/teams", "/api%2Fv1/teams", "/%61pi/v1/teams"],
      ...["/d%61shboard/users", "//api/v1/teams", "/%E0%A4%A/x", "/d%C4%B0shboard", "/ap%C4%B1/v1/teams", "/d%61shboard/%E0", "/%61pi/v1/teams/%ZZ", "/__manifest"],
      // Letters that fold to ASCII in Unicode but not in Remix's patterns: the Kelvin sign, a long s, full-width letters.
      ...["/\u212Aey", "/dashboard/\u017Fettings", "/%E2%84%AAey", "/da%C5%BFhboard", "/\uFF47ates", "/G%EF%BD%81TES"],
      // As a request URL's path reads once the URL is parsed (the dispatch reads `new URL(request.url).pathname`).
      ...["/api/v1/../../dashboard/users", "/dashboard/%2e%2e/gates", "/Gates?x=/api", "/api\\v1\\teams"].map((url) => new URL(url, "http://gk.test").pathname),
    ];
    const differing = (pathnames: string[], kept: boolean) =>
      pathnames.flatMap((pathname) => {
        const section = sectionOfPath(pathname, sections);
        const expected = matched(whole, pathname, kept);
        const got = matched(sectionTrees.get(section)!, pathname, kept);
        return JSON.stringify(got) === JSON.stringify(expected) ? [] : [{ pathname, section, expected, got }];
      });
    expect(new Set(paths).size).toBeGreaterThan(400);
    expect(differing([...paths, ...extra], false)).toEqual([]);
    // A `?_data=` request: Remix matches its path with `.data` kept.
    expect(differing([...paths, ...extra].filter((pathname) => pathname.endsWith(".data")), true)).toEqual([]);
  });

  it("name a section as Remix compares a segment: letters past ASCII fold among themselves, never to ASCII", () => {
    const routes: Record<string, RouteEntry> = {
      root: { id: "root", path: "" },
      "routes/café": { id: "routes/café", parentId: "root", path: "café" },
      "routes/k": { id: "routes/k", parentId: "root", path: "k" },
      "routes/$": { id: "routes/$", parentId: "root", path: "*" },
    };
    const own = routeSections(routes);
    const build = (ids: Set<string>, parentId?: string): RouteObject[] =>
      Object.values(routes)
        .filter((route) => route.parentId === parentId && ids.has(route.id))
        .map((route) => ({ id: route.id, path: route.path, children: build(ids, route.id) }));
    const all = build(new Set(Object.keys(routes)));
    for (const pathname of ["/café", "/CAFÉ", "/CAF%C3%89", "/cafe", "/K", "/\u212A", "/%E2%84%AA"]) {
      const ids = (routesOf: RouteObject[]) => (matchRoutes(routesOf, pathname) ?? []).map((match) => match.route.id);
      expect(ids(build(own.get(sectionOfPath(pathname, own))!)), pathname).toEqual(ids(all));
    }
  });

  it("give each section the build with its routes, the assets manifest's alike, and the rest as it was", () => {
    const build = { routes: manifest, assets: { url: "/build/manifest.js", version: "1", routes: manifest }, entry: {}, future: { v3_lazyRouteDiscovery: false } } as unknown as ServerBuild;
    const each = sectionBuilds(build);
    expect(sectionBuilds(build)).toBe(each);
    expect([...each.keys()].sort()).toEqual([...sections.keys()].sort());
    for (const [section, ids] of sections) {
      expect(Object.keys(each.get(section)!.routes).sort()).toEqual([...ids].sort());
      expect(Object.keys(each.get(section)!.assets.routes).sort()).toEqual([...ids].sort());
      expect(each.get(section)!.assets.url).toBe("/build/manifest.js");
      expect(each.get(section)!.entry).toBe(build.entry);
    }
    // Sections need every path read from its first segment, and no route answered for a path of another section.
    expect(() => sectionBuilds({ ...build, future: { ...build.future, v3_lazyRouteDiscovery: true } })).toThrow(/route discovery off/);
    expect(() => sectionBuilds({ ...build, basename: "/event" })).toThrow(/basename/);
  });
});
