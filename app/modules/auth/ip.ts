/** The longest client address kept. */
const MAX_IP = 64;

/**
 * A client address as people read it and as it is kept: an IPv4 client of a dual-stack server arrives as
 * ::ffff:a.b.c.d, kept a.b.c.d (the same client either way; the letters would read as a word in the Arabic
 * screens' texts, and one client would count as two in a log of addresses).
 */
export function shownIp(ip: string): string {
  return ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").slice(0, MAX_IP);
}
