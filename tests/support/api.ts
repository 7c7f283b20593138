/** Calling /api/v1 route modules in-process with real Request objects, as Remix would. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { makeTeam, makeUser, sessionCookie, testAdmin } from "./fixtures.ts";

export const ORIGIN = "http://localhost";

type Handler = (args: LoaderFunctionArgs) => Promise<Response>;
export interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

export interface Caller {
  token?: string;
  cookie?: string;
  /** Origin header; defaults to ours when a cookie is sent (as a browser on our page would). */
  origin?: string | null;
}

export interface RequestOptions extends Caller {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export function apiRequest(method: string, path: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  const origin = options.origin === undefined ? (options.cookie ? ORIGIN : null) : options.origin;
  if (origin) headers.set("Origin", origin);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  }
  return new Request(`${ORIGIN}/api/v1${path}`, { method, headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
}

/** Runs the module's loader (GET, HEAD) or action (anything else), as Remix does for a resource route. */
export async function call(route: RouteModule, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const handler = request.method === "GET" || request.method === "HEAD" ? route.loader : route.action;
  if (!handler) throw new Error(`no handler for ${request.method}`);
  return handler({ request, params, context: {} });
}

export async function send(route: RouteModule, method: string, path: string, options: RequestOptions = {}, params: Record<string, string> = {}) {
  const response = await call(route, apiRequest(method, path, options), params);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown> & Array<Record<string, unknown>>) : null };
}

/** One user of each role, each with a token, and the participant's team. */
export async function makeCallers() {
  const team = await makeTeam();
  const users = {
    admin: await makeUser("admin"),
    judge: await makeUser("judge"),
    participant: await makeUser("participant", team.id),
    mentor: await makeUser("mentor"),
  };
  const tokens = {
    admin: (await createApiToken(testAdmin, users.admin.id, "test")).token,
    judge: (await createApiToken(testAdmin, users.judge.id, "test")).token,
    participant: (await createApiToken(testAdmin, users.participant.id, "test")).token,
    mentor: (await createApiToken(testAdmin, users.mentor.id, "test")).token,
  };
  return { team, users, tokens, cookie: (role: keyof typeof users) => sessionCookie(users[role].id) };
}
