/**
 * Page reads served ahead of Express's router (docs/decisions/032-page-reads-ahead-of-express.md and 036).
 *
 * A GET or HEAD that no Express route of server.ts claims (health checks, metrics, static files, the queue
 * dashboard) ends at the Remix handler. For those, server.ts runs the very same middleware functions it
 * gives Express, in the same order, with a view of the request that has Express's own request getters
 * (`ip`, `protocol`, `hostname`, `path`, `get`: the same trust-proxy rule, computed by Express's code) but
 * without Express's setup: Express swaps the prototypes of Node's request and response objects on every
 * request, and walks its router's layers one by one. On a page that cost about 0.04 ms of CPU for the swap
 * alone here, more than any middleware.
 *
 * The response stays Node's own: every function of the chain, and the Remix handler's sender
 * (remix-express.server.ts), uses Node's response methods only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Express, NextFunction, Request, Response } from "express";

/** A middleware function of the chain: takes the view, Node's response, and the next step. */
export type Step = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * How Express matches a path against `app.get(route)`: the same letters in any case, with or without one
 * trailing slash (path-to-regexp, not strict, not case-sensitive).
 */
export function routeMatches(route: string, path: string): boolean {
  const lower = path.toLowerCase();
  return lower === route || lower === `${route}/`;
}

/** How Express matches a path against `app.use(prefix, …)`: the prefix in any case, then a slash or the end. */
export function mountMatches(prefix: string, path: string): boolean {
  const lower = path.toLowerCase();
  return lower === prefix || lower.startsWith(`${prefix}/`);
}

/** One layer of Express 4's router stack, as far as the check below reads it. */
interface RouterLayer {
  name: string;
  route?: unknown;
  handle: unknown;
  regexp: { fast_slash?: boolean };
}

/**
 * Throws unless the middleware functions Express runs for every path (app.use without a path, in order; its
 * own `query` and `expressInit` and the `besides` left out) are exactly `steps`, in the same order. server.ts
 * calls it at start with the page reads' steps: a middleware added to Express and not to the page reads (or
 * the other way round) would let page reads skip it, so the process stops instead.
 */
export function assertPageReadsRunExpressMiddleware(app: Express, steps: readonly Step[], besides: readonly Step[]): void {
  const stack = (app as unknown as { _router: { stack: RouterLayer[] } })._router.stack;
  const everyPath = stack
    .filter((layer) => !layer.route && layer.regexp.fast_slash === true && layer.name !== "query" && layer.name !== "expressInit")
    .map((layer) => layer.handle)
    .filter((handle) => !besides.includes(handle as Step));
  const same = everyPath.length === steps.length && everyPath.every((handle, at) => handle === steps[at]);
  if (!same) {
    const names = (handles: readonly unknown[]) => handles.map((handle) => (handle as { name?: string }).name || "anonymous").join(", ");
    throw new Error(`Express runs [${names(everyPath)}] for every path, but page reads ahead of Express run [${names(steps)}]: give both the same list (server.ts, pageReadSteps).`);
  }
}

export interface AheadOfExpressOptions {
  /** The Express app: its request prototype gives the view its getters, and its trust-proxy setting. */
  app: Express;
  /** Whether an Express route other than the catch-all claims this path (a GET or HEAD of it). */
  claimedByExpress: (path: string) => boolean;
  /** The middleware functions Express runs for such a request, in Express's order, the handler last. */
  steps: readonly Step[];
  /** Told of the path once it is known (server.ts's request-duration metric). */
  onPath?: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  /** A step that throws or passes an error on: the answer is in its hands. */
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void;
}

/** Every step passed the request on and none answered (Express would end at its final handler: a 404). */
function onNothing(res: ServerResponse): void {
  if (res.headersSent) return void res.end();
  res.statusCode = 404;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", "9");
  res.end("Not Found");
}

/**
 * The answer to a request whose step failed, as Express's final handler gives it: the headers set for the
 * failed answer that would describe a body (its encoding, language, range) dropped, a policy that lets the
 * body run nothing, and a body of known length. An answer already begun is cut.
 */
export function answerFailure(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  for (const name of ["Content-Encoding", "Content-Language", "Content-Range"]) res.removeHeader(name);
  res.statusCode = 500;
  res.setHeader("Content-Security-Policy", "default-src 'none'");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", "21");
  res.end("Internal Server Error");
}

/**
 * The listener's branch for page reads: returns false for a request it leaves to Express (another method,
 * a path an Express route claims), else serves it and returns true.
 */
export function aheadOfExpress(options: AheadOfExpressOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const requestPrototype = options.app.request;
  const { app, steps, claimedByExpress, onError } = options;
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    // Express's own getters, on an object of their own: `path` parses `url` as Express does.
    const view = Object.create(requestPrototype) as Request & { socket: IncomingMessage["socket"] };
    view.app = app;
    view.method = req.method;
    view.url = req.url ?? "/";
    view.originalUrl = view.url;
    view.headers = req.headers;
    view.socket = req.socket;
    // Express's parser throws on some request targets (an absolute URL with a broken IPv6 host): Express
    // answers those itself, and a throw here would end the process.
    let path: string;
    try {
      path = view.path;
    } catch {
      return false;
    }
    if (typeof path !== "string" || claimedByExpress(path)) return false;
    const response = res as Response;
    response.locals = Object.create(null) as Response["locals"];
    options.onPath?.(req, res, path);
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      // As Express: only a truthy value is an error (`next(null)` goes on), and "route"/"router" go on here.
      if (error && error !== "route" && error !== "router") return onError(error, req, res);
      const step = steps[index++];
      if (step === undefined) return void onNothing(res);
      try {
        const running = step(view, response, next);
        if (running instanceof Promise) running.catch((failure: unknown) => onError(failure, req, res));
      } catch (failure) {
        onError(failure, req, res);
      }
    };
    next();
    return true;
  };
}
