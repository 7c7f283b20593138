/**
 * The navigation's counts and the event data's versions (app/modules/participant/badges.server.ts) read
 * once per request: the root loader, the participant layout's and the page's all ask. Remix hands each
 * loader a Request of its own (copied), but one load context per HTTP request (server.ts's
 * getLoadContext): that object is the key. Kept only as long as the request lives (a WeakMap): never
 * shared between requests, so never between viewers.
 *
 * The page's own rows ride in the same statement (one Postgres transaction a page). Loaders run
 * concurrently and any of them may ask first, so what the page needs is decided from the request's path
 * (`pageRowsOf`), the same for every loader of the request; the page's loader then takes the rows only if
 * they are for what it asks (kind and key), else its module reads them on its own.
 */
import { parseRowId } from "../modules/ids.ts";
import type { EventVersions } from "../modules/event-data/shared.server.ts";
import { viewerBadges, type PageRowsByKind, type PageRowsKind, type PageRowsWant, type ViewerBadges } from "../modules/participant/badges.server.ts";

/**
 * The participant pages whose own rows are read with the badges, by path (the routes under app/routes/_app.*).
 * A path not listed, or a key that is not a row id, reads the badges alone. Only the count of statements
 * depends on this table: a page that finds no rows for it reads them itself. Case-insensitive, as Remix matches
 * routes: `/HOME` renders /home, and reads its rows in the same one statement.
 */
const pageRowsByPath: [RegExp, (match: RegExpMatchArray) => PageRowsWant | null][] = [
  [/^\/gate\/([1-5])\/?$/i, (match) => ({ kind: "gateResults", key: Number(match[1]) })],
  [
    /^\/submition\/([^/]+)\/?$/i,
    (match) => {
      const id = parseRowId(match[1]);
      return id === null ? null : { kind: "challenge", key: id };
    },
  ],
  [/^\/status\/?$/i, () => ({ kind: "teamAwards", key: 0 })],
  [/^\/home\/?$/i, () => ({ kind: "teamThreads", key: 0 })],
];

/** The page rows this request's path reads with the badges, or null. */
export function pageRowsOf(request: Request): PageRowsWant | null {
  const path = new URL(request.url).pathname;
  for (const [pattern, want] of pageRowsByPath) {
    const match = pattern.exec(path);
    if (match) return want(match);
  }
  return null;
}

const perRequest = new WeakMap<object, { userId: number; badges: Promise<ViewerBadges> }>();

/**
 * `context`: the loader's load context (one per HTTP request; without one, e.g. a loader called by a test,
 * no sharing). `request`: the loader's, for the page's own rows (`pageRowsOf`).
 */
export function badgesFor(context: object | undefined, viewer: { id: number; teamId: number | null }, request: Request): Promise<ViewerBadges> {
  if (typeof context !== "object" || context === null) return viewerBadges(viewer, pageRowsOf(request));
  const known = perRequest.get(context);
  if (known && known.userId === viewer.id) return known.badges;
  const badges = viewerBadges(viewer, pageRowsOf(request));
  perRequest.set(context, { userId: viewer.id, badges });
  // A failed read is not kept: the other loader asks again (and may decide differently what to show).
  badges.catch(() => {
    if (perRequest.get(context)?.badges === badges) perRequest.delete(context);
  });
  return badges;
}

/**
 * The event data's versions as this request read them (with the badges: no statement of its own), for the
 * page's shared reads (app/modules/event-data/shared.server.ts); null if that read failed (then the page
 * reads everything from Postgres).
 */
export function eventVersionsFor(context: object | undefined, viewer: { id: number; teamId: number | null }, request: Request): Promise<EventVersions | null> {
  return badgesFor(context, viewer, request).then(
    (badges) => badges.versions,
    () => null,
  );
}

/**
 * What the request read with the badges for the page: the versions, and the page's own rows of `kind` for
 * `key` (the viewer's team's), or undefined when they were not read so (another path, another key, a
 * failed read, another team: the caller a layout's loader saw moments before; the page's module then
 * reads them itself).
 */
export async function pageReadFor<Kind extends PageRowsKind>(
  context: object | undefined,
  viewer: { id: number; teamId: number | null },
  request: Request,
  kind: Kind,
  key: number,
): Promise<{ versions: EventVersions | null; rows: PageRowsByKind[Kind] | undefined }> {
  const badges = await badgesFor(context, viewer, request).catch(() => null);
  const page = badges?.teamId === viewer.teamId ? badges.page : null;
  const rows = page && page.kind === kind && page.key === key ? (page.rows as PageRowsByKind[Kind]) : undefined;
  return { versions: badges?.versions ?? null, rows };
}
