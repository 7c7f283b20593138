/**
 * When Postgres (or another backing service) cannot be reached — down, restarting, failing over — a page is
 * not broken, the event is briefly unavailable: every loader and action that fails for that reason answers
 * 503 with a plain message and a Retry-After, at once, instead of a 500 "Something broke" page (or a JSON
 * endpoint's bare 500). Everything else still fails as it did. Covered by the Postgres restart drill and,
 * for Redis (the scoreboard reads its snapshot there), tests/integration/redis-outage.test.ts.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { messages } from "../modules/messages.ts";
import { getLogger } from "../infrastructure/logger.server.ts";

/** Socket errors, postgres.js's own connection errors, and SQLSTATEs of a server that is going away or not up yet. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, recovering)
]);

/**
 * ioredis's own words for "Redis cannot be reached": a command that gave up after its retries, or one
 * refused while the connection is down (the producer's connection keeps no offline queue).
 */
function isRedisUnreachable(error: object): boolean {
  if ((error as { name?: unknown }).name === "MaxRetriesPerRequestError") return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false)/.test(message);
}

/** True when the error (or what it wraps: drizzle keeps the driver's error as its cause) means "could not reach it". */
export function isServiceUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if (isRedisUnreachable(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || code.startsWith("08"))) return true; // 08: connection exception
  if (error instanceof AggregateError && error.errors.some((inner) => isServiceUnreachable(inner, depth + 1))) return true;
  return isServiceUnreachable((error as { cause?: unknown }).cause, depth + 1);
}

/** The 503 the user gets: the status page for a document, `{ ok: false, message }` for a JSON caller. */
function unavailableResponse(): Response {
  return new Response(JSON.stringify({ ok: false, message: messages.errors.unavailable }), {
    status: 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Retry-After": "5" },
  });
}

type RouteFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

function answering503(fn: RouteFunction): RouteFunction {
  return async (args) => {
    try {
      return await fn(args);
    } catch (error) {
      if (!isServiceUnreachable(error)) throw error;
      getLogger().warn({ err: error, path: new URL(args.request.url).pathname }, "a backing service is unreachable: answered 503");
      throw unavailableResponse();
    }
  };
}

/** The build with every route's loader and action answering 503 when a backing service is unreachable. */
export function withUnavailablePages(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module };
      if (module.loader) module.loader = answering503(module.loader as RouteFunction) as typeof module.loader;
      if (module.action) module.action = answering503(module.action as RouteFunction) as typeof module.action;
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
