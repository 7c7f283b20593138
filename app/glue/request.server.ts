/**
 * server.ts overwrites this header on every request with Express's idea of the client address
 * (honouring TRUST_PROXY), so a client cannot forge it.
 */
import { shownIp } from "../modules/auth/ip.ts";

export const CLIENT_IP_HEADER = "x-gatekeeper-client-ip";

/** The client's address, an IPv4 client of a dual-stack server as a.b.c.d (not ::ffff:a.b.c.d): the same everywhere it is kept. */
export function clientIp(request: Request): string {
  const ip = request.headers.get(CLIENT_IP_HEADER);
  return ip === null ? "unknown" : shownIp(ip);
}

/** The client's address as an audit record keeps it: null where it is not known (never the word "unknown"). */
export function auditIp(request: Request): string | null {
  const ip = clientIp(request);
  return ip === "unknown" ? null : ip;
}
