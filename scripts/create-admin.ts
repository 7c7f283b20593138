/**
 * The first admin of a fresh install (no demo seed): `npm run admin:create -- <name>`. Prints a generated
 * password once; it is stored only as an argon2id hash. Change it later on the Users page.
 */
import { systemActor } from "../app/modules/audit/audit.server.ts";
import { createUser } from "../app/modules/users/users.server.ts";
import { generatePassword } from "../app/modules/registrations/accounts.server.ts";
import { closeDb } from "../app/infrastructure/db.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";

const name = process.argv[2]?.trim();
if (!name) {
  console.error("usage: npm run admin:create -- <name>");
  process.exit(2);
}
const password = generatePassword();
try {
  await createUser(systemActor("npm run admin:create"), { name, role: "admin", password, teamId: undefined });
  console.log(`admin "${name}" created; password (shown once): ${password}`);
} catch (error) {
  // The database's own reason, never drizzle's message: that one quotes the query's parameters (the hash).
  const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  console.error(`could not create "${name}": ${reason}`);
  process.exitCode = 1;
} finally {
  await Promise.allSettled([closeQueues(), closeRedis(), closeDb()]);
}
