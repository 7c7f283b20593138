import { describe, expect, it } from "vitest";
import { evidence, fingerprint, MIN_SHINGLES } from "./fingerprint.ts";
import { bandKeys, estimatedSimilarity, jaccard, minhash, shingleHashes } from "./minhash.ts";
import { answerShingles, codeLines, foldLetters, looksLikeCode, stripComments, textTokens } from "./normalize.ts";

describe("normalising", () => {
  it("folds Arabic letter forms, diacritics and tatweel to one spelling", () => {
    // أَحْمَدُ with harakat and a tatweel, إ/آ/ٱ alef forms, ta marbuta and alef maqsura.
    expect(foldLetters("أَحْمَـــدُ")).toBe("احمد");
    expect(foldLetters("إسلام آمن ٱلكتاب")).toBe("اسلام امن الكتاب");
    expect(foldLetters("مدرسة على")).toBe("مدرسه علي");
    expect(textTokens("المَدْرَسَةُ الكُبْرى")).toEqual(textTokens("المدرسه الكبري"));
  });

  it("ignores case and white space in prose", () => {
    expect(textTokens("The  Quick\n\tBROWN fox")).toEqual(["the", "quick", "brown", "fox"]);
  });

  it("strips //, # and /* */ comments but keeps them inside strings", () => {
    expect(stripComments("a = 1 // note\nb = 2 # other\n/* block\n more */c = '#not' ").replace(/\s+/g, " ").trim()).toBe("a = 1 b = 2 c = '#not'");
    expect(stripComments('#include <stdio.h>\nx = "// kept"')).toContain('"// kept"');
  });

  it("replaces identifier names by one placeholder, keeping keywords and literals", () => {
    const a = codeLines("def total(items):\n    return sum(items) + 1");
    const b = codeLines("def add_all(xs):\n    return accumulate(xs) + 1");
    expect(a).toEqual(b);
    expect(a[0]).toEqual(["def", "$", "(", "$", ")", ":"]);
    expect(codeLines("x = 2")).not.toEqual(codeLines("x = 3"));
  });

  it("tells code from prose", () => {
    expect(looksLikeCode("int main() {\n  return 0;\n}\n")).toBe(true);
    expect(looksLikeCode("We measured the response.\nIt was fast.\nThe end.")).toBe(false);
  });
});

describe("similarity", () => {
  const program = [
    "def mean(values):",
    "    total = 0",
    "    for value in values:",
    "        total += value",
    "    return total / len(values)",
    "def median(values):",
    "    ordered = sorted(values)",
    "    middle = len(ordered) // 2",
    "    if len(ordered) % 2 == 0:",
    "        return (ordered[middle - 1] + ordered[middle]) / 2",
    "    return ordered[middle]",
    "print(mean([1, 2, 3]), median([4, 5, 6, 7]))",
  ].join("\n");

  it("finds a copy with renamed identifiers, comments and reordered lines the same", () => {
    const copy = program
      .replaceAll("values", "nums")
      .replaceAll("total", "acc")
      .replaceAll("ordered", "s")
      .split("\n")
      .reverse()
      .join("\n") + "\n# my own work";
    const a = fingerprint(program)!;
    const b = fingerprint(copy)!;
    expect(a.kind).toBe("code");
    expect(estimatedSimilarity(a.signature, b.signature)).toBe(1);
    expect(a.bands).toEqual(b.bands);
  });

  it("estimates the Jaccard similarity within a few points", () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const a = new Set(words.slice(0, 300));
    const b = new Set(words.slice(100, 400));
    const exact = jaccard(a, b);
    expect(exact).toBeCloseTo(0.5, 5);
    const estimate = estimatedSimilarity(minhash(shingleHashes(a)), minhash(shingleHashes(b)));
    expect(Math.abs(estimate - exact)).toBeLessThan(0.12);
  });

  it("shares no band with an unrelated answer", () => {
    const other = "The committee reviewed forty proposals and funded the nine that promised the most impact for the least money this year.";
    const a = fingerprint(program)!;
    const b = fingerprint(other)!;
    expect(estimatedSimilarity(a.signature, b.signature)).toBeLessThan(0.1);
    expect(bandKeys(a.signature).filter((key) => b.bands.includes(key))).toEqual([]);
  });

  it("leaves out answers too short to mean anything, and what the starter code gives everyone", () => {
    expect(fingerprint("42")).toBeNull();
    expect(fingerprint("yes")).toBeNull();
    expect(fingerprint(program, program)).toBeNull();
    expect(answerShingles(program).shingles.size).toBeGreaterThan(MIN_SHINGLES);
    expect(fingerprint(program + "\nanswer = 17", program)).toBeNull();
  });

  it("marks the passages two answers share, line by line", () => {
    const copy = "import os\n" + program.split("\n").slice(0, 5).join("\n");
    const shown = evidence(copy, program);
    expect(shown.a[0]).toEqual({ text: "import os", matched: false });
    expect(shown.a.slice(1).every((line) => line.matched)).toBe(true);
    expect(shown.b.filter((line) => line.matched).length).toBeGreaterThanOrEqual(5);
    expect(shown.b.at(-1)!.matched).toBe(false);
  });
});
