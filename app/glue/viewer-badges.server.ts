/**
 * The navigation's counts and the event data's versions (app/modules/participant/badges.server.ts) read
 * once per request: the root loader, the participant layout's and the page's all ask. Remix hands each
 * loader a Request of its own (copied), but one load context per HTTP request (server.ts's
 * getLoadContext): that object is the key. Kept only as long as the request lives (a WeakMap): never
 * shared between requests, so never between viewers.
 */
import type { EventVersions } from "../modules/event-data/shared.server.ts";
import { viewerBadges, type ViewerBadges } from "../modules/participant/badges.server.ts";

const perRequest = new WeakMap<object, { userId: number; badges: Promise<ViewerBadges> }>();

/** `context`: the loader's load context (one per HTTP request; without one, e.g. a loader called by a test, no sharing). */
export function badgesFor(context: object | undefined, viewer: { id: number; teamId: number | null }): Promise<ViewerBadges> {
  if (typeof context !== "object" || context === null) return viewerBadges(viewer);
  const known = perRequest.get(context);
  if (known && known.userId === viewer.id) return known.badges;
  const badges = viewerBadges(viewer);
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
export function eventVersionsFor(context: object | undefined, viewer: { id: number; teamId: number | null }): Promise<EventVersions | null> {
  return badgesFor(context, viewer).then(
    (badges) => badges.versions,
    () => null,
  );
}
