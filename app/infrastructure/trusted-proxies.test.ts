import { describe, expect, it } from "vitest";
import { trustedProxies } from "./env.server.ts";

describe("TRUST_PROXY", () => {
  it("never trusts every hop: 'true' is the one proxy in front, whose view of the client is the last entry", () => {
    expect(trustedProxies("true")).toBe(1);
    expect(trustedProxies("false")).toBe(false);
    expect(trustedProxies("")).toBe(false);
    expect(trustedProxies("2")).toBe(2);
    expect(trustedProxies("loopback, 10.0.0.0/8")).toEqual(["loopback", "10.0.0.0/8"]);
  });

  it("refuses what it cannot read", () => {
    expect(trustedProxies("yes please")).toBeUndefined();
    expect(trustedProxies("12")).toBeUndefined();
  });
});
