import { describe, expect, it } from "vitest";
import { cleanCompilerMessage } from "./programs.server.ts";

describe("a compiler's message as anyone reads it", () => {
  it("loses control characters, terminal colours and the box's path, keeping new lines and tabs", () => {
    const raw = "\u001b[01m\u001b[K/box/main.c:1:5:\u001b[m error:\tno\u0007 such\u0000 name\r\nnext\u009b line";
    expect(cleanCompilerMessage(raw)).toBe("main.c:1:5: error:\tno such name\nnext line");
  });

  it("loses the bidirectional controls a quoted source may hold, so no line reads in another order than it runs", () => {
    // "Trojan Source": an override and isolates in a comment would show code in a different order.
    const raw = "main.c:3: warning: /* \u202e } \u2066if (admin)\u2069 \u2067 */ unused\u200f \u061c\u200e";
    expect(cleanCompilerMessage(raw)).toBe("main.c:3: warning: /*  } if (admin)  */ unused");
    // Arabic text itself stays as it is.
    expect(cleanCompilerMessage("خطأ: متغير")).toBe("خطأ: متغير");
  });

  it("is cut at a line's end below the cap, saying so", () => {
    const raw = Array.from({ length: 100 }, (_, index) => `line ${index} ${"x".repeat(40)}`).join("\n");
    const cleaned = cleanCompilerMessage(raw, 500);
    expect(cleaned.length).toBeLessThanOrEqual(502);
    expect(cleaned.endsWith("\n…")).toBe(true);
    expect(cleaned.split("\n").slice(0, -1).every((line) => /^line \d+ x{40}$/.test(line))).toBe(true);
  });
});
