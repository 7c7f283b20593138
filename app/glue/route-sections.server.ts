/**
 * Route sections (docs/decisions/054-route-sections.md): Remix is given one build per section, alike but for their
 * routes, and each request goes to the one of its path's section. A section is a first segment of the paths
 * (`api`, `dashboard`, `gates`, `login`, …), or the rest (`/` and any first segment no route starts with). It holds
 * the routes whose patterns start with that segment, the routes every path may reach (the catch-all) and the layouts
 * above them.
 *
 * What it buys: Remix v2 matches a document's path against every route three times (the server's match, the static
 * handler's query, the render's router) and builds the render's route tree from every route, flattening, ranking and
 * compiling every route's pattern again each time. With 117 routes that was more than a third of a participant page's
 * web CPU; a participant page's section holds four routes (docs/PERFORMANCE.md "Route sections").
 *
 * The answer is the same as with every route: a path's section holds every route that can match it. The test beside
 * this file matches a path for every route, and their variants (case, escapes, `.data`), against the whole table and
 * against the section's. The browser still loads the whole route manifest (a static file, decision 052), so its
 * navigation reaches every route.
 */
import type { ServerBuild } from "@remix-run/node";

/** A section's name: the first segment its routes' patterns start with, as Remix compares it (`nameOf`); "" for the rest. */
export type Section = string;

/** The rest: `/`, and a path whose first segment no route starts with (the catch-all answers it). */
export const REST: Section = "";

/** What a route entry of the build (or of Remix's route manifest) says of its place. */
export interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/**
 * A segment's section name: two segments have the same name exactly when Remix's pattern for one matches the other.
 * Remix compares regardless of case, with a regular expression without the `u` flag, which folds each UTF-16 unit to
 * its upper case when that is one unit, and never a unit past ASCII to one within it (ECMAScript's Canonicalize).
 */
function nameOf(segment: string): Section {
  let name = "";
  for (let index = 0; index < segment.length; index++) {
    const unit = segment[index]!;
    const upper = unit.toUpperCase();
    name += upper.length === 1 && !(unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : unit;
  }
  return name;
}

/**
 * The section of a request's path among `sections`, read as Remix reads the path: a single fetch's `.data` off, the
 * first segment decoded.
 */
export function sectionOfPath(pathname: string, sections: ReadonlyMap<Section, unknown>): Section {
  if (pathname === "/_root.data") return REST;
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  const segments = path.split("/");
  let first = segments[1] ?? "";
  try {
    // Remix decodes every segment, or none when one cannot be decoded.
    const decoded = segments.map((segment) => decodeURIComponent(segment));
    first = decoded[1] ?? "";
  } catch {
    // Matched as it is.
  }
  const name = nameOf(first);
  return sections.has(name) ? name : REST;
}

/** Where a route's whole pattern starts: a section, or every one (a pattern that starts with a parameter, a splat or an optional segment). */
function sectionOfPattern(pattern: string): Section | null {
  const first = pattern.split("/").find((segment) => segment !== "") ?? "";
  if (first.startsWith(":") || first.includes("*") || first.includes("?")) return null;
  return nameOf(first);
}

/** Each section's route ids: the routes whose patterns start in it or may start anywhere, and their parents. */
export function routeSections(routes: Record<string, RouteEntry | undefined>): Map<Section, Set<string>> {
  const patternOf = (id: string, seen = new Set<string>()): string => {
    const route = routes[id];
    if (!route || seen.has(id)) return "";
    seen.add(id);
    const parent = route.parentId ? patternOf(route.parentId, seen) : "";
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const where = new Map(Object.keys(routes).map((id) => [id, sectionOfPattern(patternOf(id))]));
  const sections = new Map<Section, Set<string>>([[REST, new Set()]]);
  for (const section of where.values()) if (section !== null && !sections.has(section)) sections.set(section, new Set());
  for (const [id, section] of where) {
    for (const ids of section === null ? sections.values() : [sections.get(section)!]) {
      for (let at: string | undefined = id; at && !ids.has(at); at = routes[at]?.parentId) ids.add(at);
    }
  }
  return sections;
}

function only<T>(entries: Record<string, T>, ids: Set<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(entries).filter(([id]) => ids.has(id)));
}

const built = new WeakMap<ServerBuild, Map<Section, ServerBuild>>();

/** The build of each section: the same build, its routes and its assets manifest's routes narrowed to the section's. */
export function sectionBuilds(build: ServerBuild): Map<Section, ServerBuild> {
  const known = built.get(build);
  if (known) return known;
  // Both would need every route: lazy route discovery answers any path's routes (and inlines the ancestors' in a
  // page), and a basename puts another first segment before the section's.
  if (build.future.v3_lazyRouteDiscovery) throw new Error("route sections need route discovery off (remix.config.js, decision 052)");
  if (build.basename && build.basename !== "/") throw new Error("route sections read the path's first segment: a basename is not supported");
  const each = new Map(
    [...routeSections(build.routes)].map(([section, ids]) => [section, { ...build, routes: only(build.routes, ids), assets: { ...build.assets, routes: only(build.assets.routes, ids) } }]),
  );
  built.set(build, each);
  return each;
}
