/**
 * db/client.ts: what every connection of the app's pool is opened with, whatever the server's own settings.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createDb } from "../../db/client.ts";

it("opens connections that never JIT-compile a statement (a compile at every run of a costly prepared statement)", async () => {
  const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
  try {
    // Off, and by the connection's own parameter: whatever the server's configuration says.
    const [row] = await handle.db.execute<{ jit: string; source: string }>(sql`select setting as jit, source from pg_settings where name = 'jit'`);
    expect(row).toEqual({ jit: "off", source: "client" });
  } finally {
    await handle.close();
  }
});

it("keeps its connections while the process lives: no close for idling or for age (docs/decisions/053-connections-kept-ready.md)", async () => {
  const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
  try {
    // A connection opened again plans every statement again: postgres.js's defaults would close one after it idled
    // for the time set here and after 30 to 60 minutes of life, whatever it did.
    expect(handle.sql.options.idle_timeout).toBe(0);
    expect(handle.sql.options.max_lifetime).toBe(0);
  } finally {
    await handle.close();
  }
});
