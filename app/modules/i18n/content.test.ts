import { describe, expect, it } from "vitest";
import { arabicOrNull, CONTENT_TEXTS, inLanguage, isolated, shownIn } from "./content.ts";

describe("event content in two languages", () => {
  it("gives each reader the text in their language, the other when theirs is missing", () => {
    expect(inLanguage("ar", "Lunch", "الغداء")).toBe("الغداء");
    expect(inLanguage("en", "Lunch", "الغداء")).toBe("Lunch");
    // No Arabic (none, or only white space): the Arabic reader reads the English.
    for (const none of [null, undefined, "", "  \n"]) expect(inLanguage("ar", "Lunch", none)).toBe("Lunch");
    // No English (never stored so, but not a blank either): the English reader reads the Arabic.
    expect(inLanguage("en", " ", "الغداء")).toBe("الغداء");
  });

  it("shows a row in one language: its texts picked, the Arabic fields gone, the row itself unchanged", () => {
    const stored = { id: 7, title: "Lunch", titleAr: "الغداء", content: "Hall B", contentAr: null, createdAt: "2026-11-24T12:00:00.000Z" };
    const before = structuredClone(stored);
    expect(shownIn(stored, "ar", CONTENT_TEXTS.announcement)).toEqual({ id: 7, title: "الغداء", content: "Hall B", createdAt: stored.createdAt });
    expect(shownIn(stored, "en", CONTENT_TEXTS.announcement)).toEqual({ id: 7, title: "Lunch", content: "Hall B", createdAt: stored.createdAt });
    // A shared read's value is shared by every request: it is never changed in place.
    expect(stored).toEqual(before);
  });

  it("isolates a written text inside a sentence, and reads an empty Arabic field as none", () => {
    expect(isolated("Runes of Order")).toBe("\u2068Runes of Order\u2069");
    expect(arabicOrNull("  الغداء ")).toBe("الغداء");
    for (const none of [undefined, null, "", "   "]) expect(arabicOrNull(none)).toBeNull();
  });
});
