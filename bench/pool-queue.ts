/**
 * The Postgres pool over a long quiet stretch: a client with 4 connections sending two queries at a
 * time (so some connections always stay idle, as a web process between peaks), rounds of 20,000 pairs,
 * each round's wall time. Unpatched, postgres.js's idle queue grew by a spent slot per query and every
 * query scanned all of them: each round slower than the one before, without end (docs/decisions/012,
 * "The pool's queues"). Flat rounds are the patch at work.
 *
 *   node --import tsx bench/pool-queue.ts [--rounds N] [--pairs N]
 */
import postgres from "postgres";
import { DEFAULT_DATABASE_URL } from "../scripts/lib/local-services.ts";
import { benchArgs, numberOption } from "./lib/report.ts";

const args = benchArgs({ rounds: { type: "string" }, pairs: { type: "string" } });
const rounds = numberOption(args.rounds, 8);
const pairs = numberOption(args.pairs, 20_000);

const sql = postgres(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, { max: 4 });
await Promise.all(Array.from({ length: 4 }, () => sql`select 1`));
const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  const started = performance.now();
  for (let pair = 0; pair < pairs; pair++) await Promise.all([sql`select 1`, sql`select 1`]);
  times.push(Math.round(performance.now() - started));
  console.log(`round ${round + 1}: ${times.at(-1)} ms for ${pairs} pairs of queries (${((round + 1) * pairs * 2).toLocaleString("en")} queries so far)`);
}
await sql.end();
console.log(`last round ÷ first: ${(times.at(-1)! / times[0]).toFixed(2)}`);
