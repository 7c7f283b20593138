import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb } from "./client.ts";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Applies every committed drizzle-kit migration that the database has not seen yet. The whole migrate
 * step (these, then the data steps that need the app's rules) is scripts/migrate.ts.
 */
export async function applySqlMigrations(databaseUrl: string) {
  const handle = createDb(databaseUrl, { max: 1 });
  try {
    await migrate(handle.db, { migrationsFolder });
  } finally {
    await handle.close();
  }
}
