/**
 * db/client.ts: what every connection of the app's pool is opened with, whatever the server's own settings.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createDb } from "../../db/client.ts";

it("opens connections that never JIT-compile a statement (a compile at every run of a costly prepared statement)", async () => {
  const handle = createDb(process.env.DATABASE_URL!, { max: 1 });
  try {
    const server = await handle.sql`select boot_val from pg_settings where name = 'jit'`;
    // The server's own default is on: the pool's setting is what turns it off.
    expect(server[0].boot_val).toBe("on");
    const [row] = await handle.db.execute<{ jit: string }>(sql`select current_setting('jit') as jit`);
    expect(row.jit).toBe("off");
  } finally {
    await handle.close();
  }
});
