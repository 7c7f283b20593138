/**
 * 2. Standings cost: the worker's time per score change with 100, 1,000 and 10,000 teams (~10
 * scored submissions each). Times recomputeTeamStanding, the standings job's whole body (locks,
 * recompute from Postgres, user statistics, history, the Redis order, publish), after a real score
 * change, in process, on a fresh database per size; the board must still equal a full rebuild after.
 *
 *   npm run bench:standings [-- --smoke] [--sizes 100,1000,10000] [--updates N] [--runs N]
 */
import { sql } from "drizzle-orm";
import { markStandingsStale } from "../app/modules/standings/outbox.server.ts";
import { recomputeTeamStanding } from "../app/modules/standings/recompute.server.ts";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { checkStandingsExact } from "./lib/exactness.ts";
import { acrossRuns, BenchFailure, benchArgs, numberOption, report, showFigure, targetVerdict } from "./lib/report.ts";
import { seedWorld } from "./lib/world.ts";

const args = benchArgs({ sizes: { type: "string" }, updates: { type: "string" } });
const profile = args.smoke ? { sizes: "100,500", updates: 40, runs: 1 } : { sizes: "100,1000,10000", updates: 300, runs: 3 };
const sizes = (args.sizes ?? profile.sizes).split(",").map(Number);
const updates = numberOption(args.updates, profile.updates);
const runCount = numberOption(args.runs, profile.runs);
const TARGET_MS = 5;
const WARM_UP = 20;

/** One timed pass: `updates` real score changes on random submissions, each followed by the job body. */
async function timedPass(pass: number) {
  const picked = (await getDb().execute<{ id: number; team_id: number; points: number }>(
    sql`select s.id, s.team_id, c.points from submissions s join challenges c on c.id = s.challenge_id order by random() limit ${updates + WARM_UP}`,
  )).map((row) => ({ id: Number(row.id), teamId: Number(row.team_id), points: Number(row.points) }));
  const samples: number[] = [];
  for (const [index, submission] of picked.entries()) {
    // What the judge's transaction does: a new score and the outbox mark, committed together.
    await getDb().transaction(async (tx) => {
      const centi = Math.round((((index + pass * 7) * 7907) % 10000) * submission.points / 100);
      await tx.execute(sql`update submissions set score_centi = ${centi}, scored_at = now() where id = ${submission.id}`);
      await markStandingsStale(tx, submission.teamId);
    });
    const started = performance.now();
    const result = await recomputeTeamStanding(submission.teamId);
    if (index >= WARM_UP) samples.push(performance.now() - started);
    if (result.status !== "updated") throw new BenchFailure(`job for team ${submission.teamId} ended ${result.status}`);
  }
  return summarise(samples);
}

const rows: Array<Record<string, unknown>> = [];
const details: Array<Record<string, unknown>> = [];
for (const teams of sizes) {
  const world = await createBenchWorld(`cost${teams}`);
  try {
    const seedStart = performance.now();
    await seedWorld({ teams, membersPerTeam: 3, challenges: 20, judges: 1, submissionsPerTeam: 10 });
    const seedMs = performance.now() - seedStart;
    const passes = [];
    for (let pass = 0; pass < runCount; pass++) passes.push(await timedPass(pass));
    const exactness = await checkStandingsExact();
    if (!exactness.exact) throw new BenchFailure(`standings inexact at ${teams} teams: ${JSON.stringify(exactness.mismatches)}`);
    const p50 = acrossRuns(passes.map((pass) => pass.p50));
    const p99 = acrossRuns(passes.map((pass) => pass.p99));
    const [{ submissions }] = await getDb().execute<{ submissions: number }>(sql`select count(*)::int as submissions from submissions`);
    rows.push({
      teams,
      submissions,
      "updates/run": updates,
      "p50 ms": showFigure(p50, 2),
      "p90 ms": showFigure(acrossRuns(passes.map((pass) => pass.p90)), 2),
      "p99 ms": showFigure(p99, 2),
      "seed + rebuild s": +(seedMs / 1000).toFixed(1),
      exact: exactness.exact,
      "p50 ≤ 5": targetVerdict(p50.median <= TARGET_MS),
    });
    details.push({ teams, submissions, passes, p50, p99 });
  } finally {
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    await world.drop();
  }
}
const smallest = details[0]?.p50 as { median: number } | undefined;
const largest = details[details.length - 1]?.p50 as { median: number } | undefined;
const growth = smallest && largest ? largest.median / smallest.median : NaN;
report(
  "standings-cost",
  args.smoke,
  `2. Standings cost: the standings job per score change (median over ${runCount} run(s), range in brackets); growth ${sizes[0]}→${sizes[sizes.length - 1]} teams: ×${growth.toFixed(2)}`,
  rows,
  { target: { p50Ms: TARGET_MS, growth: "no worse than logarithmic" }, sizes: details, growth },
  args.out,
);
process.exit(0);
