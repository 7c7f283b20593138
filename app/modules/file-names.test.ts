import { describe, expect, it } from "vitest";
import { contentDisposition, shownFileName, shownFileNameOrNull } from "./file-names.ts";
import { safeFileName } from "./form-fields.ts";

describe("file names as shown", () => {
  it("show every direction control and invisible character as its code point", () => {
    expect(shownFileName("photo\u202Egnp.scr")).toBe("photo<U+202E>gnp.scr");
    const hidden = ["\u202A", "\u202B", "\u202C", "\u202D", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C", "\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD", "\u0007", "\u0085", "\u2028", "\u115F"];
    for (const character of hidden) {
      const shown = shownFileName(`a${character}b.txt`);
      expect(shown, JSON.stringify(character)).toBe(`a<U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>b.txt`);
    }
    expect(shownFileName("a\u{E0001}b")).toBe("a<U+E0001>b");
    expect(shownFileNameOrNull(null)).toBeNull();
  });

  it("leave visible names in any script as they are", () => {
    for (const visible of ["report «final».pdf", "تقرير الفريق.pdf", "日本語.png", "naïve café.docx", "photo.png", "a b (1).zip"]) expect(shownFileName(visible)).toBe(visible);
  });

  it("are what an upload keeps", () => {
    expect(safeFileName("C:\\Users\\x\\photo\u202Egnp.scr")).toBe("photo<U+202E>gnp.scr");
    expect(safeFileName("line\nbreak.txt")).toBe("linebreak.txt");
  });
});

describe("Content-Disposition", () => {
  it("names the shown file in UTF-8 and gives an ASCII fallback without quotes, backslashes or invisible characters", () => {
    expect(contentDisposition("photo\u202Egnp.scr")).toBe(`attachment; filename="photo<U+202E>gnp.scr"; filename*=UTF-8''photo%3CU%2B202E%3Egnp.scr`);
    expect(contentDisposition('report «final» "v2" \\ (1)*.pdf', "inline")).toBe(
      `inline; filename="report _final_ _v2_ _ (1)*.pdf"; filename*=UTF-8''report%20%C2%ABfinal%C2%BB%20%22v2%22%20%5C%20%281%29%2A.pdf`,
    );
    for (const name of ["a\r\nSet-Cookie: x=1.txt", "\u202E\u2066x.exe", "تقرير.pdf"]) {
      const header = contentDisposition(name);
      // eslint-disable-next-line no-control-regex -- what a header must never carry
      expect(header, JSON.stringify(name)).not.toMatch(/[\u0000-\u001F\u007F-\uFFFF]/);
    }
  });
});
