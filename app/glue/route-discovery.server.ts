/**
 * Route discovery is off (docs/decisions/052-route-discovery-off.md): no page of this build asks the server for a
 * route. A page loaded from an earlier build and left open across the deploy still does (`GET /__manifest`), and
 * Remix's client takes anything but an answer of its own as a failed discovery: its navigation to a route it had
 * not discovered (or to a path with parameters) would end on the error page. It is told what Remix's server tells a
 * page of another build: reload the document (204, `X-Remix-Reload-Document`). Such a navigation then loads the
 * path as a document, from this build. The page keeps asking for the same routes at each change of it until it is
 * reloaded: each time this answer, ahead of the admission queue, not a render of the not-found page.
 */
import type { Request, Response } from "express";

export const ROUTE_DISCOVERY_PATH = "/__manifest";

export function answerStaleDiscovery(_req: Request, res: Response) {
  res.status(204).set({ "X-Remix-Reload-Document": "true", "Cache-Control": "no-store" }).end();
}
