/**
 * The web process: one http.Server carrying Express (static files, health checks), the Remix
 * request handler and Socket.IO. Run several side by side; they share events through Redis.
 */
import { randomFillSync } from "node:crypto";
import { existsSync, readdirSync, watch } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { sql } from "drizzle-orm";
import { ApiError } from "./app/modules/api/errors.ts";
import { messages } from "./app/modules/messages.ts";
import { oidcFormActionSources } from "./app/modules/auth/oidc.server.ts";
import { accessLog } from "./app/glue/access-log.server.ts";
import { createRequestHandler } from "./app/glue/remix-express.server.ts";
import { aheadOfExpress, answerFailure, assertPageReadsRunExpressMiddleware, mountMatches, routeMatches, type Step } from "./app/glue/ahead-of-express.server.ts";
import { admissionQueue } from "./app/glue/admission.server.ts";
import { flagGuard } from "./app/glue/flag-guard.server.ts";
import { flagAnswerListener, flagCallOf } from "./app/glue/flag-answer-api.server.ts";
import { bodyRule, boundedBodies, closeGentlyIfIncomplete, withReadableBodies, withReadBody } from "./app/glue/request-bodies.server.ts";
import { withFittingAnswers } from "./app/glue/fitting-answers.server.ts";
import { answerClientError, answerMalformation, isValidHost, malformationOf, refuseConnect } from "./app/glue/malformed-requests.server.ts";
import { isForgedRequest, TOKEN_FORM_PATHS } from "./app/glue/csrf.server.ts";
import { acceptsTokensAt } from "./app/glue/caller.server.ts";
import { closeDb, getDb } from "./app/infrastructure/db.server.ts";
import { closeEmitter } from "./app/infrastructure/emitter.server.ts";
import { getEnv } from "./app/infrastructure/env.server.ts";
import { getLogger } from "./app/infrastructure/logger.server.ts";
import { QUEUE_BOARD_PATH, queueBoardRouter } from "./app/glue/queue-board.server.ts";
import { answerStaleDiscovery, ROUTE_DISCOVERY_PATH } from "./app/glue/route-discovery.server.ts";
import { closeQueues, getQueue } from "./app/infrastructure/queue.server.ts";
import { attachRealtime } from "./app/glue/realtime.server.ts";
import { closeRedis, getRedis } from "./app/infrastructure/redis.server.ts";
import { readyConnections } from "./app/glue/ready-connections.server.ts";
import { CLIENT_IP_HEADER } from "./app/glue/request.server.ts";
import { closeS3, pingStorage } from "./app/infrastructure/s3.server.ts";
import { isScoreboardFeedUrl, scoreboardFeedListener } from "./app/glue/scoreboard-feed.server.ts";
import { INLINE_FILE_PATH } from "./app/modules/submissions/inline-file.server.ts";
import { withUnavailablePages } from "./app/glue/unavailable.server.ts";
import { methodLabel, routePatterns, statusLabel } from "./app/glue/route-pattern.server.ts";
import { counterOnScrape, gaugeOnScrape, getMetrics, serveMetrics } from "./app/infrastructure/metrics.server.ts";
import { poolStats } from "./app/infrastructure/db.server.ts";

const env = getEnv();
const log = getLogger().child({ process: "web", pid: process.pid });
const metrics = getMetrics("web");
const root = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.join(root, "build", "index.js");

if (!existsSync(buildPath)) {
  log.fatal(`No build found at ${buildPath}: run \`npm run build\` first.`);
  process.exit(1);
}

// Every route answers 503 (not 500) while Postgres is unreachable: see app/glue/unavailable.server.ts.
// Every page action's unreadable form is a 400/415, not a 500: see app/glue/request-bodies.server.ts.
// Every resource route's refusal says what it is in a sentence: see app/glue/fitting-answers.server.ts.
const importBuild = async (bust = "") =>
  withFittingAnswers(withUnavailablePages(withReadableBodies((await import(pathToFileURL(buildPath).href + bust)) as ServerBuild)));
let build = await importBuild();

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

// Every request's duration by route pattern (never by raw path), method and status class, each label from a
// small fixed set (app/glue/route-pattern.server.ts); a request whose client left first counts as "aborted".
let routeOf = routePatterns(build);
/** Observes one request's duration once it ends; `viaRemix()` says, at the end, whether Remix answered it. */
function observeDuration(req: IncomingMessage, res: ServerResponse, pathname: string, viaRemix: () => boolean) {
  const started = process.hrtime.bigint();
  let done = false;
  const observe = (aborted: boolean) => {
    if (done) return;
    done = true;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.httpDuration().observe({ route: routeOf(pathname, viaRemix()), method: methodLabel(req.method ?? ""), status: statusLabel(res.statusCode, aborted) }, seconds);
  };
  res.once("finish", () => observe(false));
  res.once("close", () => observe(!res.writableFinished));
}
const observeEveryRequest: Step = (req, res, next) => {
  // Mounted handlers (static files, the queue dashboard) rewrite req.url while they run: keep the path.
  observeDuration(req, res, req.path, () => res.locals.viaRemix === true);
  next();
};
app.use(observeEveryRequest);

// The scoreboard feed that big screens and scripts poll (GET and HEAD of exactly /api/v1/scoreboard),
// answered by Node's request listener itself, ahead of Express (decision 011): Express's own setup and
// the middleware below cost more than the feed. It sets its own headers, compresses its own answers and
// logs its own failures; other methods and spellings go on to Express and the Remix route.
const feed = scoreboardFeedListener({
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
  ...(env.NODE_ENV === "production" ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
});
function listener(req: IncomingMessage, res: ServerResponse) {
  // A Host that is no host goes on to Express, which refuses it (app/glue/malformed-requests.server.ts).
  if ((req.method === "GET" || req.method === "HEAD") && isScoreboardFeedUrl(req.url) && (req.headers.host === undefined || isValidHost(req.headers.host))) {
    observeDuration(req, res, "/api/v1/scoreboard", () => false);
    void feed(req, res);
    return;
  }
  // A flag answer through the API (decision 039): the same way round Express, when it is the plain call.
  const flagChallengeId = flagCallOf(req, trustProxy);
  if (flagChallengeId !== null) {
    observeDuration(req, res, req.url!, () => true);
    void flagAnswers(req, res, flagChallengeId);
    return;
  }
  if (pageReads(req, res)) return;
  app(req, res);
}
/** Express's compiled `trust proxy` (its own function: the flag answers read the client as Express does). */
const trustProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;

// Every middleware function below that a page read passes through is a named constant: the page reads
// served ahead of Express (the end of this file) run the very same functions, in the same order. A new one
// for every request goes into `pageReadSteps` too: at start the process checks the two lists are one, and
// stops if not (decisions 032, 036).

// gzip level 3, not zlib's default 6: on a 30 KB page 40 % less CPU (0.39 against 0.65 ms here) for 7 % more
// bytes (docs/performance-log.md, "The afternoon's figures", 24 Nov 2026). A client that also accepts brotli (every
// current browser) gets brotli instead, at the package's own quality 4 (compression 1.8): not measured against gzip
// here, and the benchmarks' clients ask for gzip only.
const compressAnswers = compression({ level: 3 });
app.use(compressAnswers);

// When the request arrived, before its body: an upload begun before submissions close is accepted when
// it completes (app/glue/request-time.server.ts).
const stampArrival: Step = (_req, res, next) => {
  res.locals.receivedAt = Date.now();
  next();
};
app.use(stampArrival);

// A fresh nonce per response: Remix's inline scripts carry it, so the CSP allows them and nothing else.
// The bytes come from the CSPRNG 4 KB at a time (a system call per 256 nonces, not one per page); each
// nonce is 16 bytes of it no other response gets.
const nonceBytes = Buffer.alloc(4096);
let nonceOffset = nonceBytes.length;
function nextNonce(): string {
  if (nonceOffset === nonceBytes.length) {
    randomFillSync(nonceBytes);
    nonceOffset = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceOffset, nonceOffset + 16);
  nonceOffset += 16;
  return nonce;
}
const stampNonce: Step = (_req, res, next) => {
  res.locals.cspNonce = nextNonce();
  next();
};
app.use(stampNonce);
const nonceSource = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as express.Response).locals.cspNonce}'`;
// Socket.IO runs on this same origin; CSP's 'self' does not cover ws:// everywhere, so name it.
const socketSources = (req: IncomingMessage) => `ws://${req.headers.host} wss://${req.headers.host}`;
const oidc = env.oidc;
const securityHeaders = helmet({
  // In development Remix's live reload needs its own socket and inline code: the policy is for builds.
  contentSecurityPolicy:
    env.NODE_ENV === "development"
      ? false
      : {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", nonceSource],
            // React style attributes and a few <style> tags: styles cannot run code.
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "blob:"],
            fontSrc: ["'self'", "data:"],
            // The home videos: any https URL the organisers paste, and YouTube's privacy-enhanced player.
            mediaSrc: ["'self'", "https:", "blob:"],
            // YouTube's player, and a judge's view of a submitted PDF or image (our own inline-file route).
            frameSrc: ["'self'", "https://www.youtube-nocookie.com"],
            connectSrc: ["'self'", socketSources],
            // The login page's "Sign in with …" posts to /auth/oidc, whose answer is a redirect to the identity
            // provider: a browser holds a form's redirect to this list too (docs/decisions/046-openid-connect.md).
            formAction: ["'self'", ...(oidc ? [() => oidcFormActionSources(oidc)] : [])],
            // Nothing frames our pages, but for the judge's page framing a submission's inline file.
            frameAncestors: [(req: IncomingMessage) => (INLINE_FILE_PATH.test(new URL(req.url ?? "/", "http://x").pathname) ? "'self'" : "'none'")],
            objectSrc: ["'none'"],
            // The queue dashboard (bull-board) resolves its assets against a <base href>.
            baseUri: [(req: IncomingMessage) => ((req as express.Request).originalUrl.startsWith(QUEUE_BOARD_PATH) ? "'self'" : "'none'")],
            upgradeInsecureRequests: env.APP_ORIGIN?.startsWith("https:") ? [] : null,
          },
        },
  crossOriginEmbedderPolicy: false,
  // "no-referrer" makes Chromium send `Origin: null` on same-site form posts, which the CSRF check
  // refuses: keep the origin for our own requests, send nothing elsewhere.
  referrerPolicy: { policy: "same-origin" },
  strictTransportSecurity: env.NODE_ENV === "production",
});
app.use(securityHeaders);

// The client address Remix code sees, always set by us so a client cannot forge it.
const stampClientIp: Step = (req, _res, next) => {
  req.headers[CLIENT_IP_HEADER] = req.ip ?? "unknown";
  next();
};
app.use(stampClientIp);

// The paths Express answers itself: page reads ahead of Express leave them to it (the end of this file).
const HEALTH_PATH = "/healthz";
const READY_PATH = "/readyz";
const METRICS_PATH = "/metrics";
const EXPRESS_PATHS = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

// Requests no page or script of ours sends (an unserved method, a Host that is no host, a `_data` query):
// 405 or 400 in a sentence, before any route (app/glue/malformed-requests.server.ts). Never logged as errors.
const refuseMalformed: Step = (req, res, next) => {
  // A probe of health, readiness or metrics reads no Host: a proxy's odd one must not mark the process down.
  if ((req.method === "GET" || req.method === "HEAD") && EXPRESS_PATHS.has(req.path)) return next();
  const wrong = malformationOf(req);
  if (!wrong) return next();
  // Counted under the route its path names, as Remix's answers are (app/glue/route-pattern.server.ts).
  res.locals.viaRemix = true;
  answerMalformation(req, res, wrong);
};
app.use(refuseMalformed);

// Cross-site request forgery: every state change must come from our own pages (app/glue/csrf.server.ts).
const refuseForgeries: Step = (req, res, next) => {
  const own = [`${req.protocol}://${req.get("host")}`, ...(env.APP_ORIGIN ? [new URL(env.APP_ORIGIN).origin] : [])];
  const authorization = req.get("authorization");
  // A bearer token waives the check only where tokens are accepted: /api/v1 (app/glue/caller.server.ts).
  const tokensAccepted = authorization !== undefined && acceptsTokensAt(req.originalUrl);
  const facts = { method: req.method, origin: req.get("origin"), referer: req.get("referer"), authorization, tokensAccepted, path: req.path };
  if (!isForgedRequest(facts, own)) {
    // A mailed link's form posts with `Origin: null` (its page sends no referrer): checked here, as every
    // request is; Remix, which refuses a document post from "null", is not asked again.
    if (facts.origin === "null" && TOKEN_FORM_PATHS.has(req.path)) delete req.headers.origin;
    return next();
  }
  // The path only: a query (a mailed link's token) never reaches the log, nor does a Referer's.
  log.warn({ method: req.method, path: req.path, origin: facts.origin, referer: facts.referer === undefined ? undefined : (URL.parse(facts.referer)?.origin ?? "unreadable") }, "cross-site request refused");
  // The API answers in its own error shape (decision 009); pages and forms get a sentence.
  if (req.path.startsWith("/api/")) res.status(403).json(new ApiError("forbidden_origin", messages.api.foreignOrigin).body);
  else res.status(403).type("text/plain").send(messages.errors.crossSite);
};
app.use(refuseForgeries);


app.get(HEALTH_PATH, (_req, res) => {
  res.json({ status: "ok" });
});

// Prometheus scrapes (docs/operations.md): 404 unless METRICS_TOKEN is set, 401 without it as a bearer token.
app.get(METRICS_PATH, (req, res, next) => {
  // Exactly this path: Express would also take /METRICS and /metrics/ here, which a proxy blocking only
  // "/metrics" would let through (deploy/nginx blocks every spelling too).
  if (req.path !== METRICS_PATH) return next();
  serveMetrics(req, res).catch(next);
});

/** Every file under public/ but build/ (served above), as URL paths ("/favicon.svg", "/theme/gate-1.svg"). */
function listPublicFiles(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    if (!relative.startsWith("build/")) found.add(`/${relative}`);
  }
  return found;
}

/** Why a check failed, in the driver's words: drizzle's own message only repeats the query. */
function failureReason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause : error;
  return reason instanceof Error ? reason.message || reason.name : "failed";
}

/** Readiness: each dependency answers within 2 s. */
app.get(READY_PATH, async (_req, res) => {
  const timeout = <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000))]);
  const checks: Record<string, () => Promise<unknown>> = {
    postgres: async () => getDb().execute(sql`select 1`),
    redis: () => getRedis().ping(),
    queue: () => getQueue("standings").getJobCounts("waiting"),
    storage: () => pingStorage(),
  };
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await timeout(check());
        return [name, "ok"] as const;
      } catch (error) {
        return [name, failureReason(error)] as const;
      }
    }),
  );
  const ready = results.every(([, status]) => status === "ok");
  res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "unavailable", checks: Object.fromEntries(results) });
});

// Fingerprinted build assets never change: cache them for a year. Other public files for an hour.
const BUILD_PATH = "/build";
app.use(BUILD_PATH, express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }));
// public/ is listed once, when the process starts, in every environment (a file added under it is served
// after a restart): only its files' paths go to the file server, so a page request costs no failed stat()
// (4 % of a busy web process's CPU, docs/performance-log.md, "The afternoon's figures").
const publicFiles = express.static(path.join(root, "public"), { maxAge: "1h" });
const publicPaths = listPublicFiles(path.join(root, "public"));
const servePublicFiles: Step = (req, res, next) => (publicPaths.has(req.path) ? publicFiles(req, res, next) : next());
app.use(servePublicFiles);

// Health probes would drown the log.
const logAccess = accessLog(log, (req) => req.path === HEALTH_PATH || req.path === READY_PATH);
app.use(logAccess);

app.use(QUEUE_BOARD_PATH, ...queueBoardRouter());

// A page of an earlier build asking for a route: told to reload (app/glue/route-discovery.server.ts).
app.get(ROUTE_DISCOVERY_PATH, answerStaleDiscovery);

// Bodies first, within their limits and deadline: a slow or oversized body is refused here and never
// holds an admission slot (app/glue/request-bodies.server.ts). Uploads stream on to their parsers.
const readBodies = boundedBodies({ deadlineMs: env.WEB_BODY_DEADLINE_MS });
app.use(readBodies);

// A flood of one caller's answers to a flag challenge is refused before it waits for a turn
// (app/glue/flag-guard.server.ts): other players' pages never queue behind it.
const guardFlags = flagGuard();
app.use(guardFlags);

// Flag answers through the API, ahead of Express (see `listener` above; app/glue/flag-answer-api.server.ts):
// the same guard's count, the same security headers for JSON as the feed's.
const flagAnswers = flagAnswerListener({
  headers: {
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
    ...(env.NODE_ENV === "production" ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  },
  trustProxy,
  appOrigin: env.APP_ORIGIN,
  guard: guardFlags,
  bodyDeadlineMs: env.WEB_BODY_DEADLINE_MS,
  logWarn: (fields, message) => log.warn(fields, message),
  logError: (fields, message) => log.error(fields, message),
});

// Pages and actions in arrival order, a few at a time (decision 013). Uploads stream for as long as the
// file takes and wait on S3, not on this CPU: they go straight through.
const admission = admissionQueue({
  maxActive: env.WEB_MAX_ACTIVE_REQUESTS,
  maxHoldMs: 5_000,
  bypass: (req) => bodyRule(req.method, req.path, req.get("content-type")).kind === "stream",
});
app.use(admission);
gaugeOnScrape("gatekeeper_admission_waiting_requests", "Requests waiting for their turn in this web process's admission queue", () => admission.stats().waiting);
gaugeOnScrape("gatekeeper_admission_active_requests", "Requests this web process is serving (at most WEB_MAX_ACTIVE_REQUESTS)", () => admission.stats().active);

// `npm run dev` re-imports the build after each rebuild (see the watcher below), so there the handler takes a
// function, read at each request; anywhere else the build itself. Either way Remix gets each route section's build
// (app/glue/route-sections.server.ts), made once for each build, never a function: given one, Remix would re-derive
// the route tree and its matcher on every request (docs/performance-log.md, "What was changed", item 1).
const devReload = env.NODE_ENV === "development" && Boolean(process.env.REMIX_DEV_ORIGIN);
const remix = createRequestHandler({
  build: devReload ? async () => build : build,
  getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string, receivedAt: res.locals.receivedAt as number }),
  mode: env.NODE_ENV === "production" ? "production" : "development",
});
const toRemix: Step = (req, res, next) => {
  res.locals.viaRemix = true;
  return remix(withReadBody(req), res, next);
};
app.all("*", toRemix);

// Page reads ahead of Express's router (app/glue/ahead-of-express.server.ts, decisions 032 and 036): a GET or
// HEAD that no route above claims runs the same functions as above, in the same order, without Express's
// per-request setup. In every environment, so that tests and development run it as production does.
// `pageReadSteps` must be Express's own middleware for a page, in order: checked here, at start, so a
// middleware given to Express with app.use and not to the page reads (or the other way round) stops the
// process before it serves anything.
const pageReadSteps = [compressAnswers, stampArrival, stampNonce, securityHeaders, stampClientIp, refuseMalformed, refuseForgeries, logAccess, readBodies, guardFlags, admission, toRemix];
assertPageReadsRunExpressMiddleware(app, pageReadSteps.slice(0, -1), [observeEveryRequest, servePublicFiles]);
const pageReads = aheadOfExpress({
        app,
        claimedByExpress: (pathname) =>
          routeMatches(HEALTH_PATH, pathname) ||
          routeMatches(READY_PATH, pathname) ||
          routeMatches(METRICS_PATH, pathname) ||
          mountMatches(BUILD_PATH, pathname) ||
          publicPaths.has(pathname) ||
          mountMatches(QUEUE_BOARD_PATH.toLowerCase(), pathname) ||
          routeMatches(ROUTE_DISCOVERY_PATH, pathname),
        steps: pageReadSteps,
        onPath: (req, res, pathname) => observeDuration(req, res, pathname, () => (res as express.Response).locals.viaRemix === true),
        onError: (error, req, res) => {
          log.error({ err: error, method: req.method, path: req.url?.split("?")[0] }, "page read failed");
          answerFailure(res);
        },
      });

const httpServer = createServer(listener);
// A CONNECT never reaches the listener: answered 405 here, not dropped; a request Node's parser cannot read
// (a method it does not know) is answered in a sentence, as Node would with none (app/glue/malformed-requests.server.ts).
httpServer.on("connect", refuseConnect);
httpServer.on("clientError", answerClientError);
// A client gets 10 s to send its headers (slowloris) and 15 minutes for a whole request: a 200 MB
// upload at 250 KB/s. Form bodies have their own, shorter deadline (request-bodies.server.ts).
httpServer.headersTimeout = 10_000;
httpServer.requestTimeout = 15 * 60_000;
// An idle keep-alive connection is closed after 65 s, not Node's 5 s. When the process stalls (a peak on
// 2 cores, a long GC), its timers run before it reads the sockets: a request sent on an idle connection
// during the stall met the connection's close on resuming, and a client that does not retry (scripts,
// big screens, the soak) got ECONNRESET (tests/integration/render-stall.test.ts). Clients close their
// idle connections first (undici: the server's hint less 1 s; browsers within 60 s); nginx here opens an
// upstream connection per request.
httpServer.keepAliveTimeout = 65_000;
const realtime = attachRealtime(httpServer);
// First for every request, Socket.IO's included (it took the listeners before it): a connection answered before
// its request's body was read closes without a reset that could overtake the answer (request-bodies.server.ts).
httpServer.prependListener("request", closeGentlyIfIncomplete);
// The command connection to Redis opens with the process, not with its first use: a flag solve's batch skips a
// Redis that is not ready (app/modules/standings/batcher.server.ts), so the first solves after a start went to the
// outbox sweep, seconds later (tests/integration/flag-first-solve.test.ts).
getRedis();
gaugeOnScrape("gatekeeper_socketio_connections", "Socket.IO clients connected to this web process", () => realtime.io.engine.clientsCount);
gaugeOnScrape("gatekeeper_db_pool_in_use", "Postgres connections of this process's pool busy with a statement or a transaction", () => poolStats().inUse);
gaugeOnScrape("gatekeeper_db_pool_waiting", "Statements and transactions of this process waiting for a Postgres connection", () => poolStats().waiting);
counterOnScrape("gatekeeper_db_statements_total", "Statements and transactions this process has sent to Postgres", () => poolStats().sent);

// Every connection of the pool opened and the flag answers' statements planned on each before the process listens, not
// in the first burst that needs them (docs/decisions/053-connections-kept-ready.md).
await readyConnections({ answers: true });
httpServer.listen(env.PORT, () => {
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info({ port }, `Gatekeeper web listening on http://localhost:${port}`);
  // The flows that need mail say so on their pages; the operator reads it here (docs/domain.md "Mail").
  if ("off" in env.mail) log.warn({ reason: env.mail.off }, "mail is off: no SMTP server is configured (SMTP_HOST); new accounts get one-time passwords, and there is no \"Forgot your password?\"");
  if (env.NODE_ENV === "development" && process.env.REMIX_DEV_ORIGIN) void broadcastDevReady(build);
});

if (devReload) {
  // `npm run dev`: remix rebuilds into build/; load the new build and tell the dev server.
  let reloadTimer: NodeJS.Timeout | undefined;
  watch(path.dirname(buildPath), () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(async () => {
      build = await importBuild(`?t=${Date.now()}`);
      routeOf = routePatterns(build);
      await broadcastDevReady(build);
    }, 100);
  });
}

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info({ signal }, "shutting down: no new connections");
  const force = setTimeout(() => {
    log.warn("shutdown took too long; exiting");
    process.exit(1);
  }, 10_000);
  force.unref();
  // Closing Socket.IO stops the HTTP server from accepting and disconnects every socket; it resolves once
  // the last HTTP connection has ended. Idle keep-alive connections end now; requests in flight (an upload,
  // say) get a few seconds to finish before their connections are cut.
  const closed = realtime.close();
  httpServer.closeIdleConnections();
  const cut = setTimeout(() => httpServer.closeAllConnections(), 5_000);
  await closed;
  clearTimeout(cut);
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  closeS3();
  log.info("shut down cleanly");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
