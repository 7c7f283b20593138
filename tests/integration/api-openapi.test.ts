/**
 * The OpenAPI document against the real route files, both ways, and every documented call against
 * every role: what the document says about access is what the routes do.
 */
import path from "node:path";
import { UNSAFE_flatRoutes } from "@remix-run/dev";
import { beforeAll, describe, expect, it } from "vitest";
import { API_BASE, apiOperations, type ApiOperation, type HttpMethod } from "../../app/modules/api/operations.ts";
import { getOpenApiDocument } from "../../app/modules/api/openapi.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { makeTeam } from "../support/fixtures.ts";
import { call, apiRequest, makeCallers, type RouteModule } from "../support/api.ts";

const appDirectory = path.resolve(import.meta.dirname, "../../app");
const methods: HttpMethod[] = ["get", "post", "put", "patch", "delete"];

interface ApiRoute {
  /** OpenAPI form: /api/v1/teams/{id} */
  path: string;
  file: string;
}

/** Every route file under /api/v1, from Remix's own flat-routes convention (the catch-all aside). */
function apiRoutes(): ApiRoute[] {
  const manifest = UNSAFE_flatRoutes(appDirectory, ["**/.*", "**/*.test.{ts,tsx}"]);
  const fullPath = (id: string | undefined): string => {
    const route = id ? manifest[id] : undefined;
    if (!route) return "";
    return [fullPath(route.parentId), route.path].filter(Boolean).join("/");
  };
  return Object.values(manifest)
    .map((route) => ({ path: `/${fullPath(route.id)}`, file: path.join(appDirectory, route.file) }))
    .filter((route) => route.path.startsWith(`${API_BASE}/`) && !route.path.endsWith("*"))
    .map((route) => ({ ...route, path: route.path.replace(/:(\w+)/g, "{$1}") }));
}

const routes = apiRoutes();
const document = getOpenApiDocument();

function operations(): Array<{ path: string; method: HttpMethod; operation: ApiOperation }> {
  return Object.entries(apiOperations).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ path: `${API_BASE}${path}`, method: method as HttpMethod, operation })),
  );
}

async function moduleFor(apiPath: string): Promise<RouteModule> {
  const route = routes.find((candidate) => candidate.path === apiPath);
  if (!route) throw new Error(`no route file for ${apiPath}`);
  return import(route.file) as Promise<RouteModule>;
}

/** Path values: an id that names nothing (so nothing is changed), the caller's team where it matters. */
function fill(apiPath: string, teamId: number) {
  const params: Record<string, string> = {};
  const concrete = apiPath.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = name === "wave" ? "1" : apiPath.startsWith(`${API_BASE}/teams/`) && name === "id" ? String(teamId) : "999999";
    params[name] = value;
    return value;
  });
  return { concrete: concrete.slice(API_BASE.length), params };
}

async function invoke(apiPath: string, method: HttpMethod, teamId: number, token?: string) {
  const { concrete, params } = fill(apiPath, teamId);
  const verb = method.toUpperCase();
  const request = apiRequest(verb, concrete, { token, ...(verb === "GET" ? {} : { json: {} }) });
  const response = await call(await moduleFor(apiPath), request, params);
  const text = await response.text();
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // A redirect or an empty body.
  }
  return { status: response.status, body };
}

describe("the OpenAPI document", () => {
  it("documents every /api/v1 route file, and every documented path has one", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map((route) => route.path).sort()).toEqual(Object.keys(document.paths ?? {}).sort());
  });

  it("is OpenAPI 3.1 with a schema for every JSON body", () => {
    expect(document.openapi).toBe("3.1.0");
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of methods) {
        const operation = item?.[method];
        if (!operation) continue;
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const content = "content" in response ? response.content : undefined;
          if (content) expect(content["application/json"]?.schema, `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
  });

  it("is served at /api/v1/openapi.json without signing in", async () => {
    const response = await call(await moduleFor(`${API_BASE}/openapi.json`), apiRequest("GET", "/openapi.json"));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { info: { title: string } }).info.title).toBe("Gatekeeper API");
  });
});

describe("every route serves exactly its documented methods", () => {
  let admin: string;
  let teamId: number;
  beforeAll(async () => {
    const callers = await makeCallers();
    admin = callers.tokens.admin;
    teamId = callers.team.id;
  });

  it.each(routes.map((route) => [route.path]))("%s", async (apiPath) => {
    const documented = apiOperations[apiPath.slice(API_BASE.length)];
    for (const method of methods) {
      const { status } = await invoke(apiPath, method, teamId, admin);
      if (documented[method]) expect(status, `${method} ${apiPath}`).not.toBe(405);
      else expect(status, `${method} ${apiPath} is not documented`).toBe(405);
    }
  });
});

describe("every documented call admits exactly its roles", () => {
  let callers: Awaited<ReturnType<typeof makeCallers>>;
  let otherTeamId: number;
  beforeAll(async () => {
    callers = await makeCallers();
    otherTeamId = (await makeTeam()).id;
  });

  const roleRefusals: string[] = [messages.api.forbidden, messages.api.notYourTeam];

  it.each(operations().map(({ path, method, operation }) => [`${method.toUpperCase()} ${path}`, path, method, operation] as const))(
    "%s",
    async (_name, apiPath, method, operation) => {
      if (operation.access === "public") return;
      const anonymous = await invoke(apiPath, method, callers.team.id);
      expect(anonymous.status, "without a token or cookie").toBe(401);
      expect(anonymous.body.code).toBe("unauthenticated");

      // A mentor is admitted to no API call: the role answers threads on its dashboard page only.
      for (const role of ["admin", "judge", "participant", "mentor"] as const) {
        const { status, body } = await invoke(apiPath, method, callers.team.id, callers.tokens[role]);
        if (operation.access.includes(role)) {
          expect(status === 403 && roleRefusals.includes(body.message ?? ""), `${role} must be admitted (got ${status} ${body.message})`).toBe(false);
          expect(status, role).not.toBe(401);
        } else {
          expect(status, `${role} must be refused`).toBe(403);
          expect(body).toMatchObject({ code: "forbidden", message: messages.api.forbidden });
        }
      }

      if (operation.ownTeamOnly) {
        const { status, body } = await invoke(apiPath, method, otherTeamId, callers.tokens.participant);
        expect(status, "another team's data").toBe(403);
        expect(body.message).toBe(messages.api.notYourTeam);
      }
    },
  );
});
