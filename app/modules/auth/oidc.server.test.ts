import { describe, expect, it } from "vitest";
import { hasInvisibleCharacters } from "../names/names.ts";
import { baseNameFromClaims } from "./oidc.server.ts";

describe("the name of an account made through the identity provider", () => {
  it("is the provider's preferred_username, else the address's local part, else participant", () => {
    expect(baseNameFromClaims("alice", "a.smith@uni.example")).toBe("alice");
    expect(baseNameFromClaims(null, "a.smith@uni.example")).toBe("a.smith");
    expect(baseNameFromClaims("", null)).toBe("participant");
  });

  it("is valid under the names rule: no invisible characters, its normal form, 40 characters at most", () => {
    const name = baseNameFromClaims("\u200Bａｌｉｃｅ\u202E   smith\u0000", null);
    expect(name).toBe("alice smith");
    expect(hasInvisibleCharacters(name)).toBe(false);
    expect(baseNameFromClaims("x".repeat(500), null)).toHaveLength(40);
    // Nothing but invisible characters: the address is asked next.
    expect(baseNameFromClaims("\u200B\u2800", "bob@uni.example")).toBe("bob");
  });
});
