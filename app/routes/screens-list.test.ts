/**
 * The layout check's list of screens (tests/e2e/support/screens.ts) names every route that renders a page: a
 * new page route without an entry fails here, so it cannot escape tests/e2e/screens-layout.spec.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LAYOUTS, SCREENS } from "../../tests/e2e/support/screens";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The route files that render a page: a default export (resource routes, the API and exports have none). */
const pageRoutes = readdirSync(here)
  .filter((file) => file.endsWith(".tsx") && /^export default /m.test(readFileSync(path.join(here, file), "utf8")))
  .map((file) => file.replace(/\.tsx$/, ""));

describe("the screens the layout check opens", () => {
  it("has an entry for every page route", () => {
    const listed = new Set([...SCREENS.map((screen) => screen.route), ...LAYOUTS]);
    expect(pageRoutes.filter((route) => !listed.has(route))).toEqual([]);
  });

  it("names only routes that exist, each screen once", () => {
    expect([...SCREENS.map((screen) => screen.route), ...LAYOUTS].filter((route) => !pageRoutes.includes(route))).toEqual([]);
    expect(new Set(SCREENS.map((screen) => screen.name)).size).toBe(SCREENS.length);
  });
});
