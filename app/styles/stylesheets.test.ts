/**
 * Every stylesheet's blocks are balanced. The build only warns about a missing brace (esbuild drops the
 * rest of the block), and a merge once left a media query open: the rules after it applied to phones
 * only, and the audit page's table overflowed a laptop.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Depth after each character, comments and strings skipped; fails on a close without an open. */
function unbalanced(css: string): string | null {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "").replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  let depth = 0;
  for (const [index, char] of [...text].entries()) {
    if (char === "{") depth += 1;
    if (char === "}") depth -= 1;
    if (depth < 0) return `a "}" without its "{" near character ${index}`;
  }
  return depth === 0 ? null : `${depth} "{" never closed`;
}

describe("stylesheets", () => {
  for (const file of readdirSync(here).filter((name) => name.endsWith(".css"))) {
    it(`${file} has balanced blocks`, () => {
      expect(unbalanced(readFileSync(path.join(here, file), "utf8"))).toBeNull();
    });
  }

  it("notices an open block", () => {
    expect(unbalanced("@media (max-width: 40rem) { .a { color: red; }\n.b { color: blue; }")).toBe('1 "{" never closed');
    expect(unbalanced(".a { content: \"}\"; }")).toBeNull();
  });
});
