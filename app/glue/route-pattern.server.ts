/**
 * The route pattern a request path belongs to ("/submition/:id", not "/submition/42"): the label of the
 * request-duration metric, so a metric has one series per route, not one per id an attacker can invent.
 * Matched against the Remix build's own route table with React Router's matcher, as Remix matches.
 */
import { matchRoutes } from "@remix-run/react";
import type { ServerBuild } from "@remix-run/node";

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

/** Paths served outside Remix, by prefix, and their labels. */
const OUTSIDE_REMIX: ReadonlyArray<[prefix: string, label: string]> = [
  ["/build/", "/build/*"],
  ["/dashboard/queues", "/dashboard/queues/*"],
];

/** A function from a request path to its route label, for one build. */
export function routePatterns(build: ServerBuild): (pathname: string) => string {
  const tree = routeTree(build);
  return (pathname) => {
    for (const [prefix, label] of OUTSIDE_REMIX) if (pathname.startsWith(prefix)) return label;
    const matches = matchRoutes(tree, pathname);
    if (!matches) return "unmatched";
    const pattern = matches
      .map((match) => match.route.path)
      .filter((path): path is string => Boolean(path))
      .join("/");
    return `/${pattern}`;
  };
}
