import { describe, expect, it } from "vitest";
import { i18nInstances, tFor } from "./i18n.ts";

describe("a language's t: texts kept per key and values", () => {
  it("gives each call the text of its own values, again and again", () => {
    const t = tFor("en");
    for (let round = 0; round < 3; round++) {
      expect(t("meta.gate", { name: "Gate 1" })).toBe("Gate 1 · Gatekeeper");
      expect(t("meta.gate", { name: "Gate 2" })).toBe("Gate 2 · Gatekeeper");
      expect(t("nav.unread", { count: 1 })).toBe("1 unread");
      expect(t("nav.unread", { count: 12 })).toBe("12 unread");
    }
    // Arabic's plural forms, per count.
    const ar = tFor("ar");
    expect(ar("nav.unread", { count: 0 })).toBe(i18nInstances.ar.t("nav.unread", { count: 0 }));
    expect(ar("nav.unread", { count: 2 })).toBe(i18nInstances.ar.t("nav.unread", { count: 2 }));
    expect(ar("nav.unread", { count: 0 })).not.toBe(ar("nav.unread", { count: 2 }));
  });

  it("a value holding the separators (a name is the user's) never answers for another call", () => {
    const t = tFor("en");
    // Without the length of each value in the key, these two calls would share one: the first's text
    // would be served for the second.
    const forged = "a\u0000count\u0001n2";
    expect(t("meta.gate", { name: forged })).toBe(`${forged} · Gatekeeper`);
    expect(t("meta.gate", { name: "a", count: 2 })).toBe("a · Gatekeeper");
    // A number and the same digits as a string are different values.
    expect(t("nav.unread", { count: 1 })).toBe("1 unread");
    expect(t("nav.unread", { count: "1" })).toBe(i18nInstances.en.t("nav.unread", { count: "1" }));
  });

  it("a value that is an object, or a long one, goes to i18next each time", () => {
    const t = tFor("en");
    let shown = "Gate 7";
    const name = { toString: () => shown };
    expect(t("meta.gate", { name })).toBe("Gate 7 · Gatekeeper");
    shown = "Gate 8";
    expect(t("meta.gate", { name })).toBe("Gate 8 · Gatekeeper");
    const long = "x".repeat(600);
    expect(t("meta.gate", { name: long })).toBe(`${long} · Gatekeeper`);
  });
});
