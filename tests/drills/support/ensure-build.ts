/**
 * Drills run the real web process, which serves the Remix build (app/ and db/ are bundled into it).
 * A build older than any of those sources would drill yesterday's code: rebuild it first.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../../scripts/lib/local-services.ts";

const BUILD = path.join(REPO_ROOT, "build", "index.js");
const SOURCES = ["app", "db", "remix.config.js", "package-lock.json"].map((entry) => path.join(REPO_ROOT, entry));

function newestChange(entry: string): number {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

export default function ensureBuild() {
  const built = statSync(BUILD, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > Math.max(...SOURCES.map(newestChange))) return;
  // NODE_ENV is "test" inside vitest: remix would then emit development JSX, which the production server cannot render.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync("npm", ["run", "-s", "build"], { cwd: REPO_ROOT, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed: the drills need the web build");
}
