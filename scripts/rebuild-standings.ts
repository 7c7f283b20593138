/** npm run standings:rebuild — recomputes every standing, rank and statistic from Postgres. */
import { closeDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { rebuildStandings } from "../app/modules/standings/rebuild.server.ts";

const started = performance.now();
const result = await rebuildStandings();
console.log(`standings rebuilt: ${result.teams} teams, ${result.users} users in ${Math.round(performance.now() - started)} ms`);
await Promise.all([closeDb(), closeRedis(), closeEmitter()]);
