import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { getEnv } from "../app/utils/env.server.ts";
import { createDb } from "./client.ts";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Applies every committed drizzle-kit migration that the database has not seen yet. */
export async function runMigrations(databaseUrl: string) {
  const handle = createDb(databaseUrl, { max: 1 });
  try {
    await migrate(handle.db, { migrationsFolder });
  } finally {
    await handle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { DATABASE_URL } = getEnv();
  await runMigrations(DATABASE_URL);
  console.log("migrations applied");
}
