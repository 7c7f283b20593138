import { describe, expect, it } from "vitest";
import { MAX_ROW_ID, parseRowId, rowId } from "./ids.ts";

describe("row ids from outside", () => {
  it("a path or query id is its plain digits, within Postgres' integer", () => {
    expect(parseRowId("1")).toBe(1);
    expect(parseRowId(String(MAX_ROW_ID))).toBe(MAX_ROW_ID);
    for (const bad of [String(MAX_ROW_ID + 1), "99999999999", "1e3", "0x10", "+5", "-1", "0", "007", " 7", "7 ", "1.0", "", null, undefined, "٣"]) {
      expect(parseRowId(bad), String(bad)).toBeNull();
    }
  });

  it("a form id is refused outside the same range", () => {
    expect(rowId().safeParse("42").data).toBe(42);
    expect(rowId().safeParse(MAX_ROW_ID).success).toBe(true);
    expect(rowId().safeParse(42).data).toBe(42);
    for (const bad of [MAX_ROW_ID + 1, "2147483648", "1e20", 0, -3, 1.5, "abc", "0x10", "1e3", "0b11", " 7 ", "+5", "007", "1.0", "", null, undefined, true]) {
      expect(rowId().safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});
