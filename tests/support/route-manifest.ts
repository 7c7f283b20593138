/**
 * The app's routes as Remix sees them (the route manifest, read from the app directory the way the
 * compiler reads it), with each route's module: what the authorisation matrix and the action fuzz walk.
 */
import path from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";
import type { ServerBuild } from "@remix-run/node";
import { withReadableBodies } from "../../app/glue/request-bodies.server.ts";
import { withUnavailablePages } from "../../app/glue/unavailable.server.ts";
import { withFittingAnswers } from "../../app/glue/fitting-answers.server.ts";

export type RouteArgs = { request: Request; params: Record<string, string>; context: object };
export type RouteModule = {
  loader?: (args: RouteArgs) => Promise<unknown>;
  action?: (args: RouteArgs) => Promise<unknown>;
};

const repoRoot = path.resolve(import.meta.dirname, "../..");
const config = await readConfig(repoRoot);

export const routeManifest = Object.values(config.routes);
export type ManifestRoute = (typeof routeManifest)[number];

export const routeExists = (id: string) => id in config.routes;

export function loadRouteModule(route: ManifestRoute): Promise<RouteModule> {
  return import(path.join(repoRoot, "app", route.file)) as Promise<RouteModule>;
}

/**
 * The route's module as server.ts serves it: wrapped like the build (unreadable forms are a 400/415,
 * an unreachable service a 503, a resource route's refusal a sentence, a post to a page without a form
 * a 405). `action` is the route's own: `served.action` is there for every page.
 */
export async function loadServedRouteModule(route: ManifestRoute): Promise<RouteModule & { served: RouteModule }> {
  const module = await loadRouteModule(route);
  const build = withFittingAnswers(withUnavailablePages(withReadableBodies({ routes: { [route.id]: { id: route.id, module } } } as unknown as ServerBuild)));
  const served = build.routes[route.id].module as unknown as RouteModule;
  return { loader: module.loader && served.loader, action: module.action && served.action, served };
}

/** The URL path of a route, with its params filled in (`:id` → params.id, `*` → params["*"]). */
export function routeUrl(route: ManifestRoute, params: Record<string, string> = {}): string {
  const parts: string[] = [];
  for (let current: ManifestRoute | undefined = route; current; current = current.parentId ? config.routes[current.parentId] : undefined) {
    if (current.path) parts.unshift(current.path);
  }
  const pathname = `/${parts.join("/")}`.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name).replace("*", params["*"] ?? "");
  return route.index ? `${pathname}?index` : pathname;
}

/** The status (and redirect target) of whatever a loader or action returned or threw. */
export function answerOf(result: unknown): { status: number; location: string | null; body: unknown } {
  // Thrown (or returned) and not a response: Remix answers 500 for it.
  if (result instanceof Error) return { status: 500, location: null, body: result };
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location"), body: result };
  const value = result as { type?: string; data?: unknown; init?: ResponseInit | null } | null;
  if (value?.type === "DataWithResponseInit") {
    return { status: value.init?.status ?? 200, location: new Headers(value.init?.headers).get("Location"), body: value.data };
  }
  return { status: 200, location: null, body: result };
}

/** Calls a loader or action as Remix would, returning what it returned or threw. */
export async function callRoute(module: RouteModule, kind: "loader" | "action", args: RouteArgs): Promise<unknown> {
  try {
    return await module[kind]!(args);
  } catch (thrown) {
    return thrown;
  }
}
