import { describe, expect, it } from "vitest";
import { hasInvisibleCharacters, nameKey, normaliseName } from "./names.ts";

describe("names", () => {
  it("keeps names in NFKC form with spaces collapsed", () => {
    expect(normaliseName("  Ｐｈｏｅｎｉｘ\u00A0\u3000Team ")).toBe("Phoenix Team");
    expect(normaliseName("ﬁre")).toBe("fire");
    expect(normaliseName("فريق النور")).toBe("فريق النور");
  });

  it("finds invisible characters, and only those", () => {
    for (const hidden of ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u200E", "\u200F", "\u202E", "\u2066", "\u00AD", "\u3164", "\u115F", "\u2800", "\uE000", "\u{E0041}", "\u180E", "\u0085", "\u0080", "\u009F"]) {
      expect(hasInvisibleCharacters(`ab${hidden}c`), `U+${hidden.codePointAt(0)!.toString(16)}`).toBe(true);
    }
    for (const visible of ["Phoenix", "فريق النور", "Équipe Ölçü", "日本チーム", "Team 🔥", "O'Brien-Smith"]) expect(hasInvisibleCharacters(visible), visible).toBe(false);
  });

  it("gives look-alikes one key, and different names different keys", () => {
    const same = (a: string, b: string) => expect(nameKey(a), `${a} / ${b}`).toBe(nameKey(b));
    same("phoenix", "PHOENIX");
    same("Phoenix", "Ph0enix");
    same("Phoenix", "Рhoenix"); // Cyrillic Р
    same("admin", "аdmіn"); // Cyrillic а and і
    same("Kraken", "Ｋｒａｋｅｎ");
    same("team1", "teaml");
    same("modern", "rnodern");
    same("Griffin", "Griﬃn");
    same("Modern", "rnodern");
    same("Alice", "AIice");
    same("ALICE", "alice");
    same("Ümit", "ümit");
    // Combining marks of no script are not part of a name's look.
    same("kraken1", "kraken1\u0323");
    same("Jose", "José");
    same("Jose", "Jose\u0301\u0301\u0301");
    same("محمد", "مُحَمَّد");
    expect(nameKey("राम"), "a script's own vowel signs are kept").not.toBe(nameKey("रम"));
    expect(nameKey("Phoenix")).not.toBe(nameKey("Kraken"));
    expect(nameKey("team 1")).not.toBe(nameKey("team 2"));
    expect(nameKey("فريق النور")).not.toBe(nameKey("فريق الشمس"));
  });
});

describe("name keys ignore case", () => {
  it("for names of Latin letters, digits and spaces, and accented ones", async () => {
    const fc = (await import("fast-check")).default;
    const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 éÉüÜçÇ";
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 20 }), (name) => {
        expect(nameKey(name.toUpperCase())).toBe(nameKey(name));
        expect(nameKey(name.toLowerCase())).toBe(nameKey(name));
      }),
      { numRuns: 2000 },
    );
  });
});
