/**
 * `npm ci` (the Docker image's install) refuses a lockfile that lacks a package another one lists as
 * optional, such as rollup's build for another platform: npm then says "Missing: … from lock file".
 * package.json's `overrides` pin rollup and msgpackr-extract to versions whose builds for every
 * platform are published, so the lockfile can list them all; this test fails when it no longer does.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

/** Node's lookup: the package's own node_modules, then each folder above it. */
function resolves(packages: Record<string, LockedPackage>, from: string, dependency: string): boolean {
  let folder = from;
  for (;;) {
    if (packages[`${folder ? `${folder}/` : ""}node_modules/${dependency}`]) return true;
    if (!folder) return false;
    const parent = folder.lastIndexOf("/node_modules/");
    folder = parent < 0 ? "" : folder.slice(0, parent);
  }
}

function missingOptionalDependencies(packages: Record<string, LockedPackage>): string[] {
  const missing: string[] = [];
  for (const [where, locked] of Object.entries(packages))
    for (const dependency of Object.keys(locked.optionalDependencies ?? {})) if (!resolves(packages, where, dependency)) missing.push(`${where} → ${dependency}`);
  return missing;
}

describe("package-lock.json", () => {
  it("lists every optional dependency of every locked package, so npm ci accepts it", () => {
    expect(missingOptionalDependencies(lock.packages)).toEqual([]);
  });

  it("lists rollup's build for a platform other than this one", () => {
    // The check above passes vacuously if the lockfile listed no optional builds at all.
    expect(Object.keys(lock.packages).some((key) => key.endsWith("@rollup/rollup-darwin-arm64"))).toBe(true);
  });
});
