/**
 * The layers' direction is enforced by lint (eslint.config.js; docs/decisions/017-layers.md). Each case
 * lints one import as if written in a file of the given folder: an arrow against the direction fails,
 * the same import in the direction it is meant to go passes. If the lint rules rot, this fails.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

const against: [file: string, source: string][] = [
  ["db/probe.ts", `import { getDb } from "../app/infrastructure/db.server.ts";`],
  ["app/infrastructure/probe.server.ts", `import { rooms } from "../modules/realtime/rooms.ts";`],
  ["app/infrastructure/probe.server.ts", `import { requireUser } from "~/glue/auth.server";`],
  ["app/modules/teams/probe.server.ts", `import { requireUser } from "../../glue/auth.server.ts";`],
  ["app/modules/teams/probe.server.ts", `import { json } from "@remix-run/node";`],
  ["app/modules/teams/probe.ts", `import { parseWithZod } from "@conform-to/zod/v4";`],
  ["app/glue/probe.server.ts", `import Login from "../routes/login.tsx";`],
  ["app/components/probe.tsx", `import { getLogger } from "~/infrastructure/logger.server";`],
  ["app/routes/probe.tsx", `import { getDb } from "~/infrastructure/db.server";`],
  ["app/routes/probe.tsx", `import { eq } from "drizzle-orm";`],
];

const along: [file: string, source: string][] = [
  ["app/routes/probe.tsx", `import { requireUser } from "~/glue/auth.server";`],
  ["app/glue/probe.server.ts", `import { listTeams } from "../modules/teams/teams.server.ts";`],
  ["app/modules/teams/probe.server.ts", `import { getDb } from "../../infrastructure/db.server.ts";`],
  ["app/infrastructure/probe.server.ts", `import { teams } from "../../db/schema.ts";`],
];

describe("import direction", () => {
  it.each(against)("lint refuses, in %s: %s", async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([expect.stringContaining("Against the layers' direction")]);
  });

  it.each(along)("lint allows, in %s: %s", async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });

  it("a browser-bundled file still may not import server-only code", async () => {
    expect(await restrictedImports("app/components/probe.tsx", `import { readFile } from "node:fs";`)).toEqual([expect.stringContaining("Server-only")]);
  });
});
