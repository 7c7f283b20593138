/**
 * Where the first-blood webhook may connect (docs/domain.md "First-blood webhook"): only to a public
 * address. An admin's URL must not make the worker reach this machine, the event's own network or a cloud's
 * metadata service. Node's own `net.BlockList` holds the ranges (no dependency); it checks an IPv4-mapped
 * IPv6 address (::ffff:127.0.0.1) against the IPv4 ranges too. Addresses that carry an IPv4 address inside
 * (NAT64, 6to4) are judged by the IPv4 address they lead to.
 */
import { BlockList, isIP } from "node:net";

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "unique-local" | "multicast" | "unspecified" | "reserved" | "invalid";

const ranges: ReadonlyArray<[AddressClass, string, number, "ipv4" | "ipv6"]> = [
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  // Carrier-grade NAT, the IETF's protocol assignments, benchmarking: never a chat service.
  ["private", "100.64.0.0", 10, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["reserved", "198.18.0.0", 15, "ipv4"],
  // Documentation ranges (TEST-NET-1, 2, 3).
  ["reserved", "192.0.2.0", 24, "ipv4"],
  ["reserved", "198.51.100.0", 24, "ipv4"],
  ["reserved", "203.0.113.0", 24, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  // 240.0.0.0/4 and the broadcast address.
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  // IPv4-compatible addresses (deprecated, ::a.b.c.d).
  ["reserved", "::", 96, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
  // Site-local (deprecated) and unique-local.
  ["unique-local", "fec0::", 10, "ipv6"],
  ["unique-local", "fc00::", 7, "ipv6"],
  ["multicast", "ff00::", 8, "ipv6"],
  // Documentation, discard-only, the IETF's protocol assignments (Teredo and ORCHID among them).
  ["reserved", "2001:db8::", 32, "ipv6"],
  ["reserved", "100::", 64, "ipv6"],
  ["reserved", "2001::", 23, "ipv6"],
];

const lists = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of ranges) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}
// Checked in this order: the narrowest first (::1 before ::/96, :: before ::/96).
const order: AddressClass[] = ["unspecified", "loopback", "link-local", "unique-local", "multicast", "private", "reserved"];

/** Four bytes written as the last 32 bits of an IPv6 address, as dotted IPv4. */
function embeddedIPv4(groups: number[]): string {
  return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
}

/** An IPv6 address's eight 16-bit groups (any form Node accepts, a dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === null ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16));
}

/** What kind of address this is; "invalid" for a text that is not an IP address. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return "invalid";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const kind of order) if (lists.get(kind)!.check(bare, type)) return kind;
  if (family === 6) {
    const groups = ipv6Groups(bare);
    // NAT64's well-known prefix 64:ff9b::/96 and 6to4's 2002::/16 lead to an IPv4 address: judge that one.
    if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return classifyAddress(embeddedIPv4(groups));
    if (groups[0] === 0x2002) return classifyAddress([groups[1] >> 8, groups[1] & 255, groups[2] >> 8, groups[2] & 255].join("."));
    // IPv4-mapped addresses the list did not already place (::ffff:0:0/96 is a public IPv4 otherwise).
    if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) return classifyAddress(embeddedIPv4(groups));
  }
  return "public";
}

/**
 * Whether the webhook may connect to this address: a public one; a loopback one too when the test-only
 * setting allows it (WEBHOOK_ALLOW_LOOPBACK, refused in production by app/infrastructure/env.server.ts).
 */
export function mayConnectTo(address: string, options: { allowLoopback: boolean }): boolean {
  const kind = classifyAddress(address);
  return kind === "public" || (options.allowLoopback && kind === "loopback");
}

/** A URL's host as an IP address, or null for a name. */
export function hostAsAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return isIP(bare) ? bare : null;
}
