/**
 * GET /api/v1/scoreboard, the board big screens and scripts poll (decision 011). server.ts answers it
 * straight from Express, ahead of Remix, with `scoreboardFeedHandler`; the route module answers it with
 * `requireFeedCaller` and `answerScoreboardFeed` too (other methods, and tests that call the module). Either way: the caller
 * from a token or the session cookie (remembered, see below), the board from the Redis snapshot (one
 * string per version), a strong ETag and a 304 while it is unchanged. No Postgres on the hot path: the
 * caller is remembered until Postgres says a user, team or token changed (caller-changes.server.ts).
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
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

/**
 * The feed for Express (GET and HEAD; Express answers HEAD with a GET handler's headers), with
 * `headers` added to every answer (server.ts's security headers: this runs ahead of helmet). A Remix
 * request costs 3–6 ms of CPU here (a Request built from Node's, route matching, loaders); this costs
 * a fraction of one (docs/PERFORMANCE.md, "Scoreboard and pages").
 */
export function scoreboardFeedHandler(headers: Record<string, string>) {
  return async (req: ExpressRequest, res: ExpressResponse): Promise<void> => {
    res.set(headers);
    try {
      const user = await requireFeedCaller({ authorization: req.get("authorization") ?? null, cookie: req.get("cookie") ?? null });
      const answer = await answerScoreboardFeed(user, {
        ifNoneMatch: req.get("if-none-match") ?? null,
        // The query string as the route module reads it (never Express's parsed objects).
        search: searchOf(req.originalUrl),
        gzip: req.acceptsEncodings("gzip", "identity") === "gzip",
      });
      res.status(answer.status).set(answer.headers);
      if (answer.body === null) res.end();
      else res.send(answer.body);
    } catch (error) {
      // The route's own error answer (401 with WWW-Authenticate, 503 when a service is unreachable, 500).
      const response = errorResponse(error, req.get("accept-language") ?? null);
      res.status(response.status).set(Object.fromEntries(response.headers)).send(await response.text());
    }
  };
}
