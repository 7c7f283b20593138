/**
 * The navigation's counts and the event data's versions (app/modules/participant/badges.server.ts) read
 * once per request: the root loader, the participant layout's and the page's all ask, and Remix gives every
 * loader of a request the same Request object. Kept only as long as that request lives (a WeakMap): never shared between requests, so
 * never between viewers.
 */
import type { EventVersions } from "../modules/event-data/shared.server.ts";
import { viewerBadges, type ViewerBadges } from "../modules/participant/badges.server.ts";

const perRequest = new WeakMap<Request, { userId: number; badges: Promise<ViewerBadges> }>();

export function badgesFor(request: Request, viewer: { id: number; teamId: number | null }): Promise<ViewerBadges> {
  const known = perRequest.get(request);
  if (known && known.userId === viewer.id) return known.badges;
  const badges = viewerBadges(viewer);
  perRequest.set(request, { userId: viewer.id, badges });
  // A failed read is not kept: the other loader asks again (and may decide differently what to show).
  badges.catch(() => {
    if (perRequest.get(request)?.badges === badges) perRequest.delete(request);
  });
  return badges;
}

/**
 * The event data's versions as this request read them (with the badges: no statement of its own), for the
 * page's shared reads (app/modules/event-data/shared.server.ts); null if that read failed (then the page
 * reads everything from Postgres).
 */
export function eventVersionsFor(request: Request, viewer: { id: number; teamId: number | null }): Promise<EventVersions | null> {
  return badgesFor(request, viewer).then(
    (badges) => badges.versions,
    () => null,
  );
}
