import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { getEnv } from "../app/utils/env.server.ts";
import { createDb } from "./client.ts";
import { rekeyNames } from "./name-keys.ts";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Applies every committed drizzle-kit migration that the database has not seen yet, then re-keys names. */
export async function runMigrations(databaseUrl: string) {
  const handle = createDb(databaseUrl, { max: 1 });
  try {
    await migrate(handle.db, { migrationsFolder });
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
