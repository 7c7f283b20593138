import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipHead, gzipWithTail } from "./gzip-splice.server.ts";

describe("gzipWithTail", () => {
  it("is one gzip member of the head's text and the tail, whatever their sizes", () => {
    const board = JSON.stringify(Array.from({ length: 500 }, (_, id) => ({ id, name: `Team ${id} é ✓`, totalScore: id * 1.5 })));
    for (const [head, tail] of [
      [`{"teams":${board}`, `,"ownTeamId":12}`],
      ["", ""],
      ["x", ""],
      ["", "é".repeat(40_000)], // more than one stored block
    ]) {
      const body = gzipWithTail(gzipHead(head), tail);
      expect(zlib.gunzipSync(body).toString("utf8")).toBe(head + tail);
      // A client that stops at the first member would still read it all: there is only one.
      expect(body.subarray(2).includes(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]))).toBe(false);
    }
  });

  it("shares the head: two tails, two bodies, the head compressed once", () => {
    const head = gzipHead(`{"teams":${"[1,2,3],".repeat(1000)}`);
    const a = zlib.gunzipSync(gzipWithTail(head, "a}")).toString();
    const b = zlib.gunzipSync(gzipWithTail(head, "b}")).toString();
    expect(a.endsWith("a}")).toBe(true);
    expect(b.endsWith("b}")).toBe(true);
    expect(gzipWithTail(head, "a}").length).toBeLessThan(200);
  });
});
