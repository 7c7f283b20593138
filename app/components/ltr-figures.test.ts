/**
 * `.ltr` (a figure written left to right inside Arabic: app/styles/app.css) is put on the figure's own inline
 * element, never on a block: a block written left to right aligns its text to its own start, the left, while
 * its label in an Arabic page starts at the right. /status's points once sat at the far edge from their
 * categories so (tests/e2e/bilingual-content.spec.ts measures it).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BLOCKS = "dd|dt|div|p|li|td|th|h[1-6]|section|article|header|footer|main|figure|figcaption|blockquote|dl|ul|ol|table|form|fieldset";
const BLOCK_WITH_LTR = new RegExp(`<(?:${BLOCKS})\\b[^>]*\\bclassName=(?:"[^"]*\\bltr\\b[^"]*"|\\{[^}]*\\bltr\\b[^}]*\\})`, "g");

function blocksWithLtr(source: string): string[] {
  return [...source.matchAll(BLOCK_WITH_LTR)].map((match) => match[0]);
}

describe("figures written left to right", () => {
  it("are inline elements of their own, never blocks", () => {
    const found = readdirSync(app, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".tsx") && !file.includes(".test."))
      .flatMap((file) => blocksWithLtr(readFileSync(path.join(app, file), "utf8")).map((tag) => `${file}: ${tag}`));
    expect(found).toEqual([]);
  });

  it("notices a block that carries it", () => {
    expect(blocksWithLtr(`<dd className="ltr">{points}</dd>`)).toHaveLength(1);
    expect(blocksWithLtr(`<td className={"num ltr"}>1</td>`)).toHaveLength(1);
    expect(blocksWithLtr(`<dd>\n  <span className="ltr">{points}</span>\n</dd>`)).toEqual([]);
  });
});
