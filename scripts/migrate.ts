/**
 * `npm run db:migrate`: the SQL migrations (db/migrate.ts), then the data steps that need the app's own
 * rules: every user and team name re-keyed (scripts/lib/name-keys.ts). Every place that migrates a
 * database (the scripts, the tests, the e2e server, the benchmarks) calls runMigrations.
 */
import { fileURLToPath } from "node:url";
import { createDb } from "../db/client.ts";
import { applySqlMigrations } from "../db/migrate.ts";
import { getEnv } from "../app/infrastructure/env.server.ts";
import { rekeyNames } from "./lib/name-keys.ts";

export async function runMigrations(databaseUrl: string) {
  await applySqlMigrations(databaseUrl);
  const handle = createDb(databaseUrl, { max: 1 });
  try {
    const { clashes, invisible } = await rekeyNames(handle.db);
    for (const clash of clashes) {
      console.warn(`name kept as it was, with a provisional key: ${clash} looks the same as another name; rename one of them (a user cannot sign in by typing it until then)`);
    }
    for (const name of invisible) console.warn(`name with invisible characters, made before they were refused: ${name}; rename it`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { DATABASE_URL } = getEnv();
  await runMigrations(DATABASE_URL);
  console.log("migrations applied");
}
