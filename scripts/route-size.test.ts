/**
 * A route file stays small enough to read at once: it guards, parses, calls a module and responds; its screen lives in app/components, its flows in
 * app/modules, a request body's reading in app/glue (docs/decisions/017-layers.md). Past the limit,
 * move a piece out rather than raise it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const MAX_ROUTE_LINES = 300;

const routes = path.resolve(import.meta.dirname, "../app/routes");

function linesOf(file: string): number {
  const text = readFileSync(path.join(routes, file), "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("route files", () => {
  const files = readdirSync(routes).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));

  it(`each holds at most ${MAX_ROUTE_LINES} lines`, () => {
    const over = files.map((file) => ({ file, lines: linesOf(file) })).filter(({ lines }) => lines > MAX_ROUTE_LINES);
    expect(over).toEqual([]);
  });
});
