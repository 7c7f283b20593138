/**
 * The actor an audit record names (app/modules/audit/audit.server.ts): the caller, how they came (their
 * session or their API token) and the address the request came from.
 */
import type { UserActor } from "../modules/audit/audit.server.ts";
import { shownIp } from "../modules/auth/ip.ts";
import type { Caller } from "./caller.server.ts";
import { clientIp } from "./request.server.ts";
import { requirePage } from "./auth.server.ts";

export function actorOf(caller: Caller, request: Request): UserActor {
  return actorFrom(caller, clientIp(request));
}

/** The same from the client's address as Express reads it ("unknown" when none): for a request served ahead of Express. */
export function actorFrom(caller: Caller, ip: string): UserActor {
  return {
    id: caller.id,
    name: caller.name,
    role: caller.role,
    via: caller.tokenId ? "token" : "session",
    sessionId: caller.sessionId,
    tokenId: caller.tokenId,
    ip: ip === "unknown" ? null : shownIp(ip),
  };
}

/** An action's guard (the page-roles table, as requirePage) that also names the actor of the change. */
export async function requirePageActor(request: Request): Promise<UserActor> {
  return actorOf(await requirePage(request), request);
}
