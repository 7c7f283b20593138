import { describe, expect, it } from "vitest";
import { scrub } from "./audit.server.ts";

describe("what an audit record keeps", () => {
  it("drops secrets, writes dates as ISO text, and makes lone surrogates (which jsonb refuses) U+FFFD, at any depth", () => {
    const kept = scrub({
      password: "hunter2",
      passwordHash: "$argon2id$…",
      at: new Date("2026-11-24T10:00:00Z"),
      comment: "ok \ud800 then \udc00 and a pair 😀",
      nested: { list: ["\udbff"], when: new Date(0) },
    });
    expect(kept).toEqual({
      at: "2026-11-24T10:00:00.000Z",
      comment: "ok \ufffd then \ufffd and a pair 😀",
      nested: { list: ["\ufffd"], when: "1970-01-01T00:00:00.000Z" },
    });
  });
});
