import { describe, expect, it } from "vitest";
import { shownIp } from "./ip.ts";

describe("a client's address as kept", () => {
  it("is an IPv4 client's a.b.c.d, however a dual-stack server wrote it; any other as it came, cut at 64 characters", () => {
    expect(shownIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(shownIp("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(shownIp("203.0.113.9")).toBe("203.0.113.9");
    expect(shownIp("2001:db8::ffff:1")).toBe("2001:db8::ffff:1");
    expect(shownIp("::ffff:not-an-address")).toBe("::ffff:not-an-address");
    expect(shownIp("x".repeat(100))).toHaveLength(64);
  });
});
