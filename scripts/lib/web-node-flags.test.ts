import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./local-services.ts";
import { WEB_NODE_FLAGS } from "./web-node-flags.ts";

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), "utf8");

describe("a web process's node flags (one list, every way production starts server.ts)", () => {
  it("npm start, the image's command and the quickstart pass the list, in order, before the entry point", () => {
    const flags = WEB_NODE_FLAGS.join(" ");
    const packageJson = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(packageJson.scripts.start).toBe(`cross-env NODE_ENV=production node ${flags} --import tsx server.ts`);
    const command = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(command && JSON.parse(command)).toEqual(["node", ...WEB_NODE_FLAGS, "--import", "tsx", "server.ts"]);
    expect(read("scripts/quickstart.sh")).toMatch(new RegExp(`^node ${flags} --import tsx server\\.ts &$`, "m"));
  });

  it("the benchmarks' and the end-to-end tests' web processes take the same list", () => {
    expect(read("bench/lib/servers.ts")).toContain('path.join(root, "scripts", "lib", "web-node-flags.ts")');
    expect(read("tests/e2e/support/start-server.ts")).toContain('start("server.ts", WEB_NODE_FLAGS)');
  });

  it("the flags are Node's and take effect: the young generation grows past its default 2 × 16 MB", () => {
    // Allocates 3 million small objects, 200,000 of them alive at a time, and prints the young generation's size.
    const script = `const v8 = require("node:v8"); let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: [i], c: "x" + i }); if (keep.length > 200000) keep = []; }
      const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
      process.stdout.write(String(young.space_size / 1048576));`;
    const sizeWith = (flags: readonly string[]) => {
      const result = spawnSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      return Number(result.stdout);
    };
    expect(sizeWith([])).toBeLessThanOrEqual(32);
    expect(sizeWith(WEB_NODE_FLAGS)).toBeGreaterThan(32);
  });
});
