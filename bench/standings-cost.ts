/**
 * Standings cost: the worker's time per score change with 100, 1,000 and 10,000 teams
 * (~10 submissions each). Measures recomputeTeamStanding (the job body: Postgres + Redis snapshot
 * + publish) after a real score change, in process, on a fresh database per size.
 *   node --import tsx bench/standings-cost.ts [--sizes 100,1000,10000] [--updates 300] [--out file]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { markStandingsStale } from "../app/modules/standings/outbox.server.ts";
import { recomputeTeamStanding } from "../app/modules/standings/recompute.server.ts";
import { rebuildStandings } from "../app/modules/standings/rebuild.server.ts";
import { closeDb, getDb } from "../app/utils/db.server.ts";
import { closeEmitter } from "../app/utils/emitter.server.ts";
import { closeQueues } from "../app/utils/queue.server.ts";
import { closeRedis } from "../app/utils/redis.server.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,1000,10000" },
    updates: { type: "string", default: "300" },
    out: { type: "string" },
  },
});
const sizes = values.sizes!.split(",").map(Number);
const updates = Number(values.updates);
const CHALLENGES = 20;
const PER_TEAM = 10;

/** Teams, 3 members each, ~10 scored submissions each, inserted in bulk by Postgres itself. */
async function seed(teams: number) {
  const db = getDb();
  await db.execute(sql`insert into event_settings (id, final_at) values (1, now() + interval '1 day') on conflict do nothing`);
  await db.execute(sql`insert into challenges (title, description, points, category, wave)
    select 'c' || i, 'd', 100 + (i % 4) * 50, (array['AI','CS','PS','GD'])[1 + i % 4]::category, 1 + i % 5 from generate_series(1, ${CHALLENGES}) i`);
  await db.execute(sql`insert into teams (name, created_at) select 'team ' || i, now() - interval '1 day' from generate_series(1, ${teams}) i`);
  await db.execute(sql`insert into users (name, password_hash, role, team_id)
    select 'u' || t.id || '_' || m, 'x', 'participant', t.id from teams t, generate_series(1, 3) m`);
  await db.execute(sql`insert into submissions (team_id, challenge_id, user_id, text, status, score_centi, scored_at)
    select t.id, c.id, (select min(u.id) from users u where u.team_id = t.id), 'a', 'reviewed',
           ((t.id * 7919 + c.id * 104729) % 10000) * c.points / 100, now() - (t.id % 1000) * interval '1 second'
    from teams t join challenges c on (c.id + t.id) % ${CHALLENGES / PER_TEAM} = 0`);
}

const rows: Array<Record<string, unknown>> = [];
for (const teams of sizes) {
  const world = await createBenchWorld(`cost${teams}`);
  try {
    await seed(teams);
    const rebuildStart = performance.now();
    await rebuildStandings();
    const rebuildMs = performance.now() - rebuildStart;
    const subs = (await getDb().execute<{ id: number; team_id: number; points: number }>(
      sql`select s.id, s.team_id, c.points from submissions s join challenges c on c.id = s.challenge_id order by random() limit ${updates}`,
    )).map((row) => ({ id: Number(row.id), teamId: Number(row.team_id), points: Number(row.points) }));

    const samples: number[] = [];
    for (const [index, submission] of subs.entries()) {
      // A real score change (as the judge's transaction does), then the job body, timed alone.
      await getDb().transaction(async (tx) => {
        await tx.execute(sql`update submissions set score_centi = ${Math.round((((index * 7907) % 10000) * submission.points) / 100)}, scored_at = now() where id = ${submission.id}`);
        await markStandingsStale(tx, submission.teamId);
      });
      const started = performance.now();
      const result = await recomputeTeamStanding(submission.teamId);
      samples.push(performance.now() - started);
      if (result.status !== "updated") throw new Error(`unexpected ${result.status}`);
    }
    const stats = summarise(samples.slice(Math.min(20, samples.length / 10))); // drop warm-up
    rows.push({ teams, submissions: teams * PER_TEAM, updates: stats.count, p50_ms: +stats.p50.toFixed(2), p90_ms: +stats.p90.toFixed(2), p99_ms: +stats.p99.toFixed(2), rebuild_ms: Math.round(rebuildMs) });
  } finally {
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    await world.drop();
  }
}
console.table(rows);
if (values.out) writeFileSync(values.out, JSON.stringify({ benchmark: "standings-cost", rows, at: new Date().toISOString() }, null, 2));
process.exit(0);
