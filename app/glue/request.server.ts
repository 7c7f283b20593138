/**
 * server.ts overwrites this header on every request with Express's idea of the client address
 * (honouring TRUST_PROXY), so a client cannot forge it.
 */
export const CLIENT_IP_HEADER = "x-gatekeeper-client-ip";

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}
