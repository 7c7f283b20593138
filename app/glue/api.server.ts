/**
 * The glue every /api/v1 route module uses (decision 009): method dispatch, the CSRF check, JSON
 * bodies read with a size limit and parsed by the screens' zod schemas, JSON responses, and every
 * failure turned into the one error shape of app/modules/api/errors.ts.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { ApiError, codeForStatus, validationError } from "../modules/api/errors.ts";
import { messages } from "../modules/messages.ts";
import type { ApiErrorBody } from "../modules/api/errors.ts";
import type { Language } from "../modules/i18n/i18n.ts";
import { translateMessage } from "../modules/i18n/server-messages.ts";
import { acceptedLanguage } from "./language.server.ts";
import { FORM_MAX_BYTES, mediaType, UNREADABLE_BODY_CODES, UnreadableBodyError } from "./request-bodies.server.ts";
import { DomainError } from "../modules/errors.ts";
import { API_BASE, apiOperations, type ApiOperation, type HttpMethod } from "../modules/api/operations.ts";
import { callerHeaders, rejectCrossSiteRequest, requireOperationCaller } from "./api-auth.server.ts";
import type { Caller } from "./caller.server.ts";
import { asFormValues } from "../modules/form-values.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { isServiceUnreachable } from "./unavailable.server.ts";
import { parseRowId } from "../modules/ids.ts";

const m = messages.api;

export const apiMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiMethod = (typeof apiMethods)[number];
export type ApiHandler = (args: LoaderFunctionArgs) => Promise<Response>;
/** A handler of an operation for signed-in callers: the caller its access admitted comes with it. */
export type CallerHandler = (args: LoaderFunctionArgs & { caller: Caller }) => Promise<Response>;

/** API answers carry personal data: no shared cache may keep them (the scoreboard sets its own). */
const NO_STORE = { "Cache-Control": "no-store" };

/** A module's refusal as the API's error. Anything unknown is logged and answered as a 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // A refusal a rule made: its status picks the code; its input, when it names one, the field errors.
  if (error instanceof DomainError) return refusalOf(error);
  if (UnreadableBodyError.is(error)) return new ApiError(UNREADABLE_BODY_CODES[error.status], error.message);
  // Postgres (or another service) down or restarting: briefly unavailable, not broken (unavailable.server.ts).
  if (isServiceUnreachable(error)) {
    getLogger().warn({ err: error }, "a backing service is unreachable: answered 503");
    return new ApiError("unavailable", messages.errors.unavailable, undefined, { "Retry-After": "5" });
  }
  getLogger().error({ err: error }, "api call failed");
  return new ApiError("internal", messages.errors.server);
}

/**
 * A refusal (a DomainError, or a page's form reply that carries one: app/glue/code.server.ts) as the API's error: its
 * status picks the code; its input, when it names one, the field errors; a 429's wait, Retry-After.
 */
export function refusalOf(refusal: { status: number; message: string; field?: string; retryAfterSeconds?: number }): ApiError {
  const fieldErrors = refusal.field ? { [refusal.field]: [refusal.message] } : undefined;
  const headers = refusal.retryAfterSeconds ? { "Retry-After": String(refusal.retryAfterSeconds) } : undefined;
  return new ApiError(refusal.status === 400 && fieldErrors ? "validation_failed" : codeForStatus(refusal.status), refusal.message, fieldErrors, headers);
}

/**
 * The JSON error. Its `message` (and field messages) follow the caller's Accept-Language (English or
 * Arabic, decision 025); the `code` never changes: scripts read that.
 */
export function errorResponse(error: unknown, acceptLanguage: string | null = null): Response {
  const apiError = toApiError(error);
  const language = acceptedLanguage(acceptLanguage) ?? "en";
  const headers = { ...NO_STORE, ...apiError.headers, "Content-Language": language, Vary: "Accept-Language" };
  return Response.json(language === "en" ? apiError.body : translatedBody(apiError.body, language), { status: apiError.status, headers });
}

function translatedBody(body: ApiErrorBody, language: Language): ApiErrorBody {
  const fieldErrors = body.fieldErrors
    ? Object.fromEntries(Object.entries(body.fieldErrors).map(([field, list]) => [field, list.map((text) => translateMessage(text, language))]))
    : undefined;
  return { ...body, message: translateMessage(body.message, language), ...(fieldErrors ? { fieldErrors } : {}) };
}

/** The catalogue's entry for a path and method; a route serving an operation the catalogue lacks fails as it loads. */
function operationOf(path: string, method: ApiMethod): ApiOperation {
  const operation = apiOperations[path]?.[method.toLowerCase() as HttpMethod];
  if (!operation) throw new Error(`${method} ${API_BASE}${path} is not in the operations catalogue (app/modules/api/operations.ts)`);
  return operation;
}

/** The team an operation on one team is about: the path's `{id}`. */
function teamOf(operation: ApiOperation, params: LoaderFunctionArgs["params"]): number | undefined {
  return operation.ownTeamOnly ? pathId(params.id) : undefined;
}

/** `tokens`: its operations take a caller (a bearer token is accepted); false for the public ones. */
function dispatcher(allow: string, tokens: boolean, route: (method: ApiMethod) => ApiHandler | undefined) {
  const dispatch: ApiHandler = async (args) => {
    try {
      const method = (args.request.method === "HEAD" ? "GET" : args.request.method) as ApiMethod;
      const handler = apiMethods.includes(method) ? route(method) : undefined;
      if (!handler) throw new ApiError("method_not_allowed", m.methodNotAllowed(allow), undefined, { Allow: allow });
      await rejectCrossSiteRequest(args.request, { tokens });
      return await handler(args);
    } catch (error) {
      return errorResponse(error, args.request.headers.get("Accept-Language"));
    }
  };
  return { loader: dispatch, action: dispatch };
}

/**
 * The loader and action of the catalogue's `path` (app/modules/api/operations.ts), one handler per method.
 * Who may call is applied here from the catalogue, never written in the route: 401, 403, and for an
 * operation on one team the team check, before the handler runs; the handler gets the admitted caller.
 * HEAD is served as GET, any other method is a 405 with an Allow header, and every unsafe method passes
 * the CSRF check first.
 */
export function apiResource(path: string, handlers: Partial<Record<ApiMethod, CallerHandler>>) {
  const served = apiMethods.filter((method) => handlers[method]);
  const operations = new Map(served.map((method) => [method, operationOf(path, method)]));
  for (const [method, operation] of operations) {
    if (operation.access === "public") throw new Error(`${method} ${API_BASE}${path} is public: serve it with publicApiResource`);
  }
  return dispatcher(served.join(", "), true, (method) => {
    const handler = handlers[method];
    const operation = operations.get(method);
    if (!handler || !operation) return undefined;
    return async (args) => {
      const caller = await requireOperationCaller(operation, callerHeaders(args.request), teamOf(operation, args.params));
      return handler({ ...args, caller });
    };
  });
}

/** The same for operations the catalogue marks public (signing in, the OpenAPI document): no caller. */
export function publicApiResource(path: string, handlers: Partial<Record<ApiMethod, ApiHandler>>) {
  const served = apiMethods.filter((method) => handlers[method]);
  for (const method of served) {
    if (operationOf(path, method).access !== "public") throw new Error(`${method} ${API_BASE}${path} is not public: serve it with apiResource`);
  }
  return dispatcher(served.join(", "), false, (method) => handlers[method]);
}

/** The body as the documented response schema gives it: unknown keys are dropped, so nothing leaks. */
export function respond<S extends z.ZodType>(schema: S, body: z.input<S>, init: { status?: number; headers?: Record<string, string> } = {}) {
  return respondWith(schema.parse(body), init);
}

/** A body already in its documented shape (parsed by its schema): the same headers as `respond`. */
export function respondWith(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return Response.json(body, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: NO_STORE });
}

/** A positive whole number from the path; anything else names nothing, so 404. */
export function pathId(value: string | undefined): number {
  const id = parseRowId(value);
  if (!id) throw new ApiError("not_found", m.notFound);
  return id;
}

export function isMultipart(request: Request): boolean {
  return mediaType(request.headers.get("Content-Type")) === "multipart/form-data";
}

/** JSON or form bodies of the non-upload calls: the web process's limit for them (request-bodies.server.ts). */
export const MAX_BODY_BYTES = FORM_MAX_BYTES;

async function readText(request: Request, limit: number): Promise<string> {
  // The web process refuses larger bodies before they get here (request-bodies.server.ts); the same
  // rule and sentence for a caller that reaches this function another way (tests, a future adapter).
  const tooLarge = () => new ApiError("payload_too_large", messages.errors.bodyTooLarge(limit));
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) throw tooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The body's fields (JSON object, or an HTML-form encoding), shaped as form values (asFormValues). */
export async function readFields(request: Request): Promise<Record<string, unknown>> {
  const type = mediaType(request.headers.get("Content-Type"));
  if (type !== "application/json" && type !== "application/x-www-form-urlencoded") {
    throw new ApiError("unsupported_media_type", m.unsupportedMediaType("application/json"));
  }
  return fieldsOfText(type, await readText(request, MAX_BODY_BYTES));
}

/** A body's text as fields (readFields' rule, for a body read another way): JSON, else an HTML-form encoding. */
export function fieldsOfText(type: "application/json" | "application/x-www-form-urlencoded", text: string): Record<string, unknown> {
  let raw: unknown;
  if (type === "application/json") {
    try {
      raw = text ? JSON.parse(text) : {};
    } catch {
      throw new ApiError("bad_request", m.invalidJson);
    }
  } else {
    raw = Object.fromEntries(new URLSearchParams(text));
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ApiError("bad_request", m.invalidJson);
  return asFormValues(raw as Record<string, unknown>);
}

/** Parses with a screen's schema; a failure is a 400 with the schema's own messages per field. */
export function parseFields<S extends z.ZodType>(schema: S, fields: unknown): z.output<S> {
  const result = schema.safeParse(fields);
  if (!result.success) throw validationError(result.error, m.invalidFields);
  return result.data;
}

/** readFields then parseFields: the usual body of a JSON call. */
export async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return parseFields(schema, await readFields(request));
}
