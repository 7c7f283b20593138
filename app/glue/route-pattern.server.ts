/**
 * The labels of the request-duration metric (docs/operations.md), each from a small, fixed set, so that no
 * client can grow the metrics registry however it varies its requests:
 *
 * - route: the Remix route's pattern ("/submition/:id", never "/submition/42"), matched against the build's
 *   own route table with React Router's matcher, as Remix matches; a fixed name for what is answered before
 *   Remix (the scoreboard feed, probes, metrics, assets, the queue dashboard, public files).
 * - method: GET, HEAD or POST, anything else "other" (Node accepts 34 methods, every one a new series).
 * - status: its class ("2xx" … "5xx"), or "aborted" when the client left first.
 */
import { matchRoutes } from "@remix-run/react";
import type { ServerBuild } from "@remix-run/node";
import { ROUTE_DISCOVERY_PATH } from "./route-discovery.server.ts";

type BuildRoute = ServerBuild["routes"][string];
type RouteObject = Parameters<typeof matchRoutes>[0][number];

function routeTree(build: ServerBuild): RouteObject[] {
  const childrenOf = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(build.routes)) {
    const siblings = childrenOf.get(route.parentId) ?? [];
    siblings.push(route);
    childrenOf.set(route.parentId, siblings);
  }
  const toObject = (route: BuildRoute): RouteObject => {
    const children = (childrenOf.get(route.id) ?? []).map(toObject);
    return route.index
      ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
      : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children };
  };
  return (childrenOf.get(undefined) ?? []).map(toObject);
}

/** Answered outside Remix, by exact path. */
const FIXED: ReadonlyMap<string, string> = new Map([
  ["/api/v1/scoreboard", "/api/v1/scoreboard (feed)"],
  ["/healthz", "/healthz"],
  ["/readyz", "/readyz"],
  ["/metrics", "/metrics"],
  // A page of an earlier build asking for a route: told to reload (route-discovery.server.ts).
  [ROUTE_DISCOVERY_PATH, `${ROUTE_DISCOVERY_PATH} (reload)`],
]);

/** Answered outside Remix, by prefix. */
const PREFIXES: ReadonlyArray<[prefix: string, label: string]> = [
  ["/build/", "/build/*"],
  ["/dashboard/queues", "/dashboard/queues/*"],
];

/** Paths whose pattern is remembered: the pages people open, over and over; a miss costs one match (~0.1 ms). */
const REMEMBERED = 2000;

/**
 * A function from a request's path (its original path: mounted handlers rewrite `req.path`) and whether
 * Remix answered it to its route label, for one build.
 */
export function routePatterns(build: ServerBuild): (pathname: string, viaRemix: boolean) => string {
  const tree = routeTree(build);
  const remembered = new Map<string, string>();
  const patternOf = (pathname: string): string => {
    const known = remembered.get(pathname);
    if (known !== undefined) return known;
    const matches = matchRoutes(tree, pathname);
    const pattern = matches
      ? `/${matches
          .map((match) => match.route.path)
          .filter((path): path is string => Boolean(path))
          .join("/")}`
      : "unmatched";
    // Oldest first out (a Map keeps insertion order): the set stays bounded whatever paths arrive.
    if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(pathname, pattern);
    return pattern;
  };
  return (pathname, viaRemix) => {
    if (viaRemix) return patternOf(pathname);
    const fixed = FIXED.get(pathname);
    if (fixed !== undefined) return fixed;
    for (const [prefix, label] of PREFIXES) if (pathname.startsWith(prefix)) return label;
    return "public file";
  };
}

const METHODS = new Set(["GET", "HEAD", "POST"]);

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : "other";
}

export function statusLabel(status: number, aborted: boolean): string {
  return aborted ? "aborted" : `${Math.floor(status / 100)}xx`;
}
