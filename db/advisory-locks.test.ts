import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_CLASS } from "./advisory-locks.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === "node_modules" ? [] : sourceFiles(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("advisory lock classes", () => {
  it("are distinct", () => {
    const classes = Object.values(LOCK_CLASS);
    expect(new Set(classes).size).toBe(classes.length);
  });

  it("are the only first arguments of every advisory lock the code takes", () => {
    const offenders: string[] = [];
    const files = ["app", "db", "workers", "scripts"].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    // The list's own comments name the function.
    for (const file of files.filter((file) => !file.endsWith(path.join("db", "advisory-locks.ts")))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/pg_(?:try_)?advisory_xact_lock(?:_shared)?\(([^,)]*)[,)]/g)) {
        const first = match[1].trim();
        if (!/^\$\{(LOCK_CLASS\.\w+|ACCOUNTS_LOCK_KEY)\}$/.test(first)) offenders.push(`${path.relative(ROOT, file)}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
