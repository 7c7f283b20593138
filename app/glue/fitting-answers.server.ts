/**
 * Every 4xx says what it is in a sentence, in the caller's language (docs/RELIABILITY.md, "Every answer
 * fits its status"). Pages say it on their error page (app/components/status-page.tsx); the API in its
 * error shape (app/glue/api.server.ts); this module covers what neither sees:
 *
 * - A resource route (a download, an export, the upload endpoint) that throws `data({ message }, { status })`
 *   (the guards' 403, an unreadable body's 400/415): Remix answers those from a resource route with
 *   `{"message":"Unexpected Server Error"}`. Here they become the sentence, as plain text.
 * - A resource route asked with a method it has no function for (a POST to an export): Remix's 405 says
 *   the same; here it is a 405 with `Allow` and the sentence.
 * - `refusal`: the one way to say a refusal outside a route (app/glue/malformed-requests.server.ts).
 */
import { data, type ServerBuild } from "@remix-run/node";
import { ApiError, codeForStatus } from "../modules/api/errors.ts";
import { messages } from "../modules/messages.ts";
import { DEFAULT_LANGUAGE, type Language } from "../modules/i18n/i18n.ts";
import { messageKeys, translateMessage } from "../modules/i18n/server-messages.ts";
import { acceptedLanguage, cookieLanguage } from "./language.server.ts";

/** What a refusal needs of its request: a Fetch Request, or Node's/Express's headers. */
export interface RefusedRequest {
  pathname: string;
  method: string;
  header(name: string): string | null;
}

// Case-insensitive, as Remix matches routes: /API/v1/teams is the API too.
const API_PATH = /^\/api(\/|$)/i;
export const isApiPath = (pathname: string) => API_PATH.test(pathname);

/** The caller's language (decision 025): the API by Accept-Language, as its other errors; a page by the cookie first. */
export function refusalLanguage(request: RefusedRequest): Language {
  const accepted = acceptedLanguage(request.header("accept-language"));
  if (isApiPath(request.pathname)) return accepted ?? DEFAULT_LANGUAGE;
  return cookieLanguage(request.header("cookie")) ?? accepted ?? DEFAULT_LANGUAGE;
}

/** What a status means when nothing more precise was said. */
export function statusSentence(status: number, request: Pick<RefusedRequest, "method">, allowed?: string): string {
  switch (status) {
    case 400:
      return messages.errors.badRequest;
    case 403:
      return messages.errors.forbidden;
    case 404:
      return messages.errors.notFound;
    case 405:
      return messages.errors.methodNotAllowed(request.method, allowed ?? "GET, HEAD");
    case 408:
      return messages.errors.bodyTooSlow;
    case 415:
      return messages.errors.formContentType;
    case 503:
      return messages.errors.unavailable;
    default:
      return messages.errors.refused;
  }
}

/**
 * A refusal's status, headers and body: for the API its error shape ({ code, message }), for anything else
 * the sentence as plain text; in the caller's language, never stored by a cache.
 */
export function refusalParts(request: RefusedRequest, status: number, english: string, extraHeaders: Record<string, string> = {}) {
  const language = refusalLanguage(request);
  const text = translateMessage(english, language);
  const api = isApiPath(request.pathname);
  const headers: Record<string, string> = {
    "Content-Type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Language": language,
    Vary: api ? "Accept-Language" : "Cookie, Accept-Language",
    "Cache-Control": "no-store",
    ...extraHeaders,
  };
  const body = api ? JSON.stringify(new ApiError(codeForStatus(status), text).body) : text;
  return { status, headers, body };
}

function viewOf(request: Request): RefusedRequest {
  return { pathname: new URL(request.url).pathname, method: request.method, header: (name) => request.headers.get(name) };
}

/** A refusal as a Fetch Response (from a route, or Remix's handler). */
export function refusal(request: Request, status: number, english?: string, extraHeaders: Record<string, string> = {}): Response {
  const view = viewOf(request);
  const allowed = extraHeaders.Allow ?? extraHeaders.allow;
  const parts = refusalParts(view, status, english ?? statusSentence(status, view, allowed), extraHeaders);
  return new Response(request.method === "HEAD" ? null : parts.body, { status: parts.status, headers: parts.headers });
}

type RouteFunction = (args: { request: Request }) => unknown;

interface ThrownData {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

const isThrownData = (value: unknown): value is ThrownData => (value as { type?: unknown } | null)?.type === "DataWithResponseInit";

/** The headers a refusal sets itself: those of the body it replaces, and that it is never stored by a cache. */
const BODY_HEADERS = new Set(["content-type", "content-length", "content-language", "content-encoding", "cache-control", "vary"]);

/** A body that says no more than its status ("Not found"). */
const BARE_STATUS = /^(|not found|forbidden|bad request|method not allowed|unauthori[sz]ed|gone)\.?$/i;

/**
 * A resource route's answer that Remix would send without a sentence, with one: a `data()` refusal (its
 * message, else the status's), and a plain-text 4xx that says no more than its status ("Not found").
 */
async function fitted(request: Request, answer: unknown): Promise<unknown> {
  if (isThrownData(answer)) {
    const status = answer.init?.status ?? 200;
    if (status < 400) return answer;
    const message = (answer.data as { message?: unknown } | null)?.message;
    const headers = Object.fromEntries(new Headers(answer.init?.headers ?? undefined));
    return refusal(request, status, typeof message === "string" && message ? message : undefined, headers.allow ? { Allow: headers.allow } : {});
  }
  if (answer instanceof Response && answer.status >= 400 && answer.status < 500 && !answer.headers.has("Content-Language")) {
    const type = answer.headers.get("Content-Type") ?? "text/plain";
    if (!type.startsWith("text/plain")) return answer;
    const text = (await answer.clone().text()).trim();
    // One of our sentences is translated; nothing, or only the status's name, becomes the status's sentence.
    if (!messageKeys.has(text) && !BARE_STATUS.test(text)) return answer;
    // Every header the route gave but those of the body replaced (a 416's Content-Range, Allow, Retry-After…).
    const headers: Record<string, string> = {};
    for (const [name, value] of answer.headers) if (!BODY_HEADERS.has(name)) headers[name] = value;
    return refusal(request, answer.status, messageKeys.has(text) ? text : undefined, headers);
  }
  return answer;
}

/** A route function whose thrown and returned 4xx answers carry their sentence. */
function withSentences(run: RouteFunction): RouteFunction {
  return async (args) => {
    let answer: unknown;
    try {
      answer = await run(args);
    } catch (thrown) {
      throw await fitted(args.request, thrown);
    }
    return fitted(args.request, answer);
  };
}

/** The function a resource route lacks: a 405 that names what it takes. */
const notServed =
  (allowed: string): RouteFunction =>
  ({ request }) => {
    throw refusal(request, 405, undefined, { Allow: allowed });
  };

/**
 * A page's action for a page without a form: its error page says so, in a sentence (Remix's own 405 carries
 * a developer's text, and its serialised error "Unexpected Server Error", into the page and its `.data`).
 */
const noForm: RouteFunction = () => {
  throw data({ message: messages.errors.noForm }, { status: 405, headers: { Allow: "GET, HEAD" } });
};

/**
 * The build with every resource route outside the API (which has its own dispatcher, app/glue/api.server.ts)
 * answering its refusals with a sentence, and a 405 with `Allow` for a method it has no function for; every
 * page without a form answering a post with a 405 its error page puts in words.
 */
export function withFittingAnswers(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = route.module as { default?: unknown; ErrorBoundary?: unknown; loader?: RouteFunction; action?: RouteFunction };
      const resource = module.default == null && module.ErrorBoundary == null;
      if (!resource) return module.action ? [id, route] : [id, { ...route, module: { ...route.module, action: noForm } }];
      if (id.startsWith("routes/api.") || (!module.loader && !module.action)) return [id, route];
      const loader = module.loader ? withSentences(module.loader) : notServed("POST");
      const action = module.action ? withSentences(module.action) : notServed("GET, HEAD");
      return [id, { ...route, module: { ...route.module, loader, action } }];
    }),
  );
  return { ...build, routes } as ServerBuild;
}

/**
 * The last word on an answer Remix made itself for a request no route function answered (its own 4xx, marked
 * `X-Remix-Error`, `{"message":"Unexpected Server Error"}`): the status's sentence instead.
 */
export function withFittingBody(request: Request, response: Response): Response {
  if (response.status < 400 || response.status >= 500 || response.headers.get("X-Remix-Error") !== "yes") return response;
  return refusal(request, response.status);
}
