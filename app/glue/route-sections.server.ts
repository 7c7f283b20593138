/**
 * Route sections (docs/decisions/054-route-sections.md): Remix is given three builds, alike but for their routes, and
 * each request goes to the one of its path's section: the API's (`/api/…`), the dashboard's (`/dashboard…`) or the
 * rest (the participants' pages, signing in, the files). A section holds the routes whose paths start in it, the
 * routes every path may reach (the root, the catch-all) and the layouts above them.
 *
 * What it buys: Remix v2 matches a document's path against every route three times (the server's match, the static
 * handler's query, the render's router) and builds the render's route tree from every route, flattening, ranking and
 * compiling every route's pattern again each time. With 117 routes that was more than a third of a participant page's
 * web CPU; the participants' section holds a third of the routes (docs/PERFORMANCE.md "Route sections").
 *
 * The answer is the same as with every route: a path's section holds every route that can match it. The test beside
 * this file matches a path for every route, and their variants (case, escapes, `.data`), against the whole table and
 * against the section's. The browser still loads the whole route manifest (a static file, decision 052), so its
 * navigation reaches every route.
 */
import type { ServerBuild } from "@remix-run/node";

export const SECTIONS = ["api", "dashboard", "pages"] as const;
export type Section = (typeof SECTIONS)[number];

/** The first segment of each section but the rest's: the one table both a path and a route pattern are read by. */
const FIRST_SEGMENTS: ReadonlyArray<[RegExp, Exclude<Section, "pages">]> = [
  // Compared as Remix compares a pattern with a path: regardless of case, without the `u` flag.
  [/^api$/i, "api"],
  [/^dashboard$/i, "dashboard"],
];

function sectionOfSegment(segment: string): Section {
  return FIRST_SEGMENTS.find(([pattern]) => pattern.test(segment))?.[1] ?? "pages";
}

/** What a route entry of the build (or of Remix's route manifest) says of its place. */
export interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/**
 * The section of a request's path, read as Remix reads it: a single fetch's `.data` off, the first segment decoded,
 * routes matched regardless of case (each section's own first segment compared as Remix's patterns compare it).
 */
export function sectionOfPath(pathname: string): Section {
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  const raw = path.split("/")[1] ?? "";
  let first = raw;
  try {
    first = decodeURIComponent(raw);
  } catch {
    // Remix matches an undecodable path as it is.
  }
  return sectionOfSegment(first);
}

/** Where a route's whole pattern starts: a section, or every one (a pattern that starts with a parameter or a splat). */
function sectionOfPattern(pattern: string): Section | "every" {
  const first = pattern.split("/").find((segment) => segment !== "") ?? "";
  if (first.startsWith(":") || first.startsWith("*") || first.includes("?")) return "every";
  return sectionOfSegment(first);
}

/** Each section's route ids: the routes whose patterns start in it or may start anywhere, and their parents. */
export function routeSections(routes: Record<string, RouteEntry | undefined>): Record<Section, Set<string>> {
  const patternOf = (id: string, seen = new Set<string>()): string => {
    const route = routes[id];
    if (!route || seen.has(id)) return "";
    seen.add(id);
    const parent = route.parentId ? patternOf(route.parentId, seen) : "";
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const sections = { api: new Set<string>(), dashboard: new Set<string>(), pages: new Set<string>() };
  for (const id of Object.keys(routes)) {
    const where = sectionOfPattern(patternOf(id));
    for (const section of where === "every" ? SECTIONS : [where]) {
      for (let at: string | undefined = id; at && !sections[section].has(at); at = routes[at]?.parentId) sections[section].add(at);
    }
  }
  return sections;
}

function only<T>(entries: Record<string, T>, ids: Set<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(entries).filter(([id]) => ids.has(id)));
}

const built = new WeakMap<ServerBuild, Record<Section, ServerBuild>>();

/** The build of each section: the same build, its routes and its assets manifest's routes narrowed to the section's. */
export function sectionBuilds(build: ServerBuild): Record<Section, ServerBuild> {
  const known = built.get(build);
  if (known) return known;
  // Both would need every route: lazy route discovery answers any path's routes (and inlines the ancestors' in a
  // page), and a basename puts another first segment before the section's.
  if (build.future.v3_lazyRouteDiscovery) throw new Error("route sections need route discovery off (remix.config.js, decision 052)");
  if (build.basename && build.basename !== "/") throw new Error("route sections read the path's first segment: a basename is not supported");
  const ids = routeSections(build.routes);
  const each = Object.fromEntries(
    SECTIONS.map((section) => [section, { ...build, routes: only(build.routes, ids[section]), assets: { ...build.assets, routes: only(build.assets.routes, ids[section]) } }]),
  ) as Record<Section, ServerBuild>;
  built.set(build, each);
  return each;
}
