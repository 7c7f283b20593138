/**
 * Every route whose action can read a multipart file (through app/glue/multipart.server.ts, directly or through other
 * glue) streams its multipart bodies (UPLOAD_PATHS): else the web process buffers them and refuses anything past
 * FORM_MAX_BYTES with a 413 before the route's own limit is asked (a 1 MB predictions file, a tests archive).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bodyRule, FORM_MAX_BYTES, IMPORT_FORM_MAX_BYTES } from "./request-bodies.server.ts";

const APP = path.resolve(import.meta.dirname, "..");
/** The app's modules a file imports (relative or `~/`), as absolute paths with their extension. */
const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/from "((?:\.{1,2}|~)\/[^"]+)"/g)].map((match) => {
    const target = match[1]!.startsWith("~/") ? path.join(APP, match[1]!.slice(2)) : path.resolve(path.dirname(file), match[1]!);
    return [target, `${target}.ts`, `${target}.tsx`].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate)) ?? target;
  });

/** The glue modules that read multipart files, directly or through another glue module. */
function multipartGlue(): Set<string> {
  const glue = readdirSync(path.join(APP, "glue"))
    .filter((name) => name.endsWith(".ts") && !name.includes(".test."))
    .map((name) => path.join(APP, "glue", name));
  const reading = new Set(glue.filter((file) => !file.endsWith("multipart.server.ts") && /receiveMultipart\(/.test(readFileSync(file, "utf8"))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of glue) {
      if (reading.has(file) || file.endsWith("request-bodies.server.ts")) continue;
      if (importsOf(file).some((imported) => reading.has(imported))) {
        reading.add(file);
        grew = true;
      }
    }
  }
  return reading;
}

/** A route module's URL with each parameter filled in (Remix's flat names: `_app.` a pathless layout, `$id` a parameter). */
function samplePath(routeFile: string): string {
  const name = routeFile.replace(/\.tsx?$/, "");
  const segments = name
    .split(/\.(?![^[]*\])/)
    .filter((segment) => !segment.startsWith("_") && segment !== "_index")
    .map((segment) => (segment.startsWith("$") ? "1" : segment.replace(/_$/, "").replace(/\[(.*)\]/, "$1")));
  return `/${segments.join("/")}`;
}

describe("upload paths", () => {
  it("streams the multipart bodies of every route that reads a file", () => {
    const reading = multipartGlue();
    const routes = readdirSync(path.join(APP, "routes")).filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."));
    const uploading = routes.filter((name) => /export async function action/.test(readFileSync(path.join(APP, "routes", name), "utf8")) && importsOf(path.join(APP, "routes", name)).some((file) => reading.has(file)));
    expect(uploading.length).toBeGreaterThan(5);
    const buffered = uploading.map(samplePath).filter((url) => bodyRule("POST", url, "multipart/form-data; boundary=x").kind !== "stream");
    expect(buffered).toEqual([]);
  });

  it("reads an upload path as the router does: a respelling that reaches another route has its body bounded", () => {
    const multipart = "multipart/form-data; boundary=x";
    // These reach the dashboard's index (or its layout's catch-all), which reads a bounded form: never a stream.
    for (const path of ["/dashboard/code/..", "/dashboard/predictions/%2e%2e", "/dashboard/code/1/..", "/x/../dashboard"]) {
      expect(bodyRule("POST", path, multipart), path).toEqual({ kind: "buffer", maxBytes: FORM_MAX_BYTES });
    }
    // And a respelling of an upload path is still one.
    for (const path of ["/DASHBOARD/code/1", "/dashboard//code/1/", "/code/%31", "/submition/1/./upload"]) expect(bodyRule("POST", path, multipart).kind, path).toBe("stream");
    expect(bodyRule("POST", "/DASHBOARD/IMPORT", "application/x-www-form-urlencoded")).toEqual({ kind: "buffer", maxBytes: IMPORT_FORM_MAX_BYTES });
  });
});
