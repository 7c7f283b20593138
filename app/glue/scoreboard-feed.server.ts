/**
 * GET /api/v1/scoreboard, the board big screens and scripts poll (decision 011). server.ts answers it
 * straight from Node's request listener, ahead of Express and Remix, with `scoreboardFeedListener`; the route module answers it with
 * `requireFeedCaller` and `answerScoreboardFeed` too (other methods, and tests that call the module). Either way: the caller
 * from a token or the session cookie (remembered, see below), the board from the Redis snapshot (one
 * string per version), a strong ETag and a 304 while it is unchanged. No Postgres on the hot path: the
 * caller is remembered until Postgres says a user, team or token changed (caller-changes.server.ts).
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { watchCallerChanges } from "../modules/auth/caller-changes.server.ts";
import { getScoreboardFeed } from "../modules/standings/scoreboard.server.ts";
import { feedQueryFields, feedQuerySchema } from "../modules/standings/feed-query.ts";
import { gzipHead, gzipWithTail, type GzipHead } from "../infrastructure/gzip-splice.server.ts";
import type { SessionUser } from "../modules/auth/login.server.ts";
import { apiOperations, type ApiOperation } from "../modules/api/operations.ts";
import { requireOperationCaller, type CallerHeaders } from "./api-auth.server.ts";
import { errorResponse, parseFields } from "./api.server.ts";
import { matchesIfNoneMatch } from "./http-cache.server.ts";

export interface FeedRequest {
  ifNoneMatch: string | null;
  /** The query string (`?division=&limit=&offset=`: docs/API.md; "" for none); a bad value is a 400. */
  search: string;
  /** The client accepts a gzip body (and the caller does not compress answers itself). */
  gzip?: boolean;
}

export interface FeedAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** null for a 304. */
  body: string | Buffer | null;
}

/**
 * The feed's caller (a token or the session cookie), remembered: see recent-users.server.ts. Admitted by
 * the catalogue's entry for GET /scoreboard, as the route module's would be (401, 403).
 */
export function requireFeedCaller(headers: CallerHeaders): Promise<SessionUser> {
  // Not awaited: until the process hears changes to callers it remembers them for 2 s only.
  void watchCallerChanges();
  return requireOperationCaller(feedOperation, headers);
}

const feedOperation = apiOperations["/scoreboard"].get as ApiOperation;

const gzip = promisify(zlib.gzip);

/** A shared head's gzip, made once (per board version and stretch: the key is the module's shared stretch). */
const gzipHeads = new WeakMap<object, GzipHead>();

/** Queries parsed so far (pollers repeat theirs): the same answer for the same string, without a URL or schema per poll. */
const parsedQueries = new Map<string, FeedQuery>();
const PARSED_QUERIES_MAX = 1000;
type FeedQuery = ReturnType<typeof feedQuerySchema.parse>;

function parseQuery(search: string): FeedQuery {
  let query = parsedQueries.get(search);
  if (query === undefined) {
    // A bad query throws (400) and is not kept.
    query = parseFields(feedQuerySchema, feedQueryFields(new URLSearchParams(search)));
    if (parsedQueries.size >= PARSED_QUERIES_MAX) parsedQueries.clear();
    parsedQueries.set(search, query);
  }
  return query;
}

/** The board as `user` may see it, for this request (ETag, gzip). */
export async function answerScoreboardFeed(user: SessionUser, request: FeedRequest): Promise<FeedAnswer> {
  const { division, limit, offset } = parseQuery(request.search);
  const feed = await getScoreboardFeed({ id: user.id, role: user.role, teamId: user.teamId }, division ?? null, { limit, offset });
  // A strong ETag names one representation: the gzip one has its own.
  const etag = request.gzip ? `${feed.etag.slice(0, -1)}-gzip"` : feed.etag;
  // private: it depends on the caller (frozen or live, own team); no-cache: revalidate every time.
  const headers: Record<string, string> = { "Cache-Control": "private, no-cache", Vary: "Authorization, Cookie, Accept-Encoding", ETag: etag };
  if (matchesIfNoneMatch(request.ifNoneMatch, etag)) return { status: 304, headers, body: null };
  headers["Content-Type"] = "application/json; charset=utf-8";
  if (!request.gzip) return { status: 200, headers, body: feed.head + feed.tail };
  headers["Content-Encoding"] = "gzip";
  if (feed.shared === null) return { status: 200, headers, body: await gzip(feed.head + feed.tail) };
  // The shared head is compressed once; the viewer's tail is added to it as it is (decision 011).
  let head = gzipHeads.get(feed.shared);
  if (!head) gzipHeads.set(feed.shared, (head = gzipHead(feed.head)));
  return { status: 200, headers, body: gzipWithTail(head, feed.tail) };
}

function searchOf(url: string): string {
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at);
}

/** Whether `url` (a request's path and query) is the feed's: exactly /api/v1/scoreboard. */
export function isScoreboardFeedUrl(url: string | undefined): boolean {
  if (!url?.startsWith(FEED_PATH)) return false;
  return url.length === FEED_PATH.length || url[FEED_PATH.length] === "?";
}
const FEED_PATH = "/api/v1/scoreboard";

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value : (value?.[0] ?? null);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer | null) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (body === null) return void res.end();
  res.setHeader("Content-Length", typeof body === "string" ? Buffer.byteLength(body) : body.length);
  // HEAD: the GET's headers, no body.
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The feed for GET and HEAD, as a plain Node request listener (server.ts calls it ahead of Express, for
 * this path only), with `headers` added to every answer (server.ts's security headers). A Remix request
 * costs 3–6 ms of CPU (a Request built from Node's, route matching, loaders), Express's own setup and
 * router a tenth of a millisecond; this costs a fraction of that (docs/performance-log.md, "3. Scoreboard and pages").
 */
export function scoreboardFeedListener(headers: Record<string, string>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const user = await requireFeedCaller({ authorization: headerOf(req, "authorization"), cookie: headerOf(req, "cookie") });
      const answer = await answerScoreboardFeed(user, {
        ifNoneMatch: headerOf(req, "if-none-match"),
        // The query string as the route module reads it.
        search: searchOf(req.url ?? ""),
        // As Express's acceptsEncodings("gzip", "identity") decides (the same negotiator).
        gzip: new Negotiator(req).encoding(["gzip", "identity"]) === "gzip",
      });
      send(req, res, answer.status, { ...headers, ...answer.headers }, answer.body);
    } catch (error) {
      // The route's own error answer (401 with WWW-Authenticate, 503 when a service is unreachable, 500).
      const response = errorResponse(error, headerOf(req, "accept-language"));
      send(req, res, response.status, { ...headers, ...Object.fromEntries(response.headers) }, Buffer.from(await response.text()));
    }
  };
}
