/**
 * 6. Audit trail: one page of the trail (app/modules/audit/read.server.ts) under each filter alone and a
 * few combinations, on a table of 1,000,000 records (about 48 hours of an event: ~1,000 teams, ~600
 * users, every kind), in process and through HTTP (the real /dashboard/audit page of server.ts, one
 * request at a time). Target: p95 ≤ 50 ms for the page's query under every filter. Every case is also
 * checked against a plain query of the same filter (the same ids in the same order), so a faster plan
 * that answers wrongly fails the benchmark.
 *
 *   npm run bench:audit [-- --smoke] [--records N] [--teams N] [--users N] [--runs N] [--http-runs N]
 */
import { sql, type SQL } from "drizzle-orm";
import { closeDb, getDb } from "../app/infrastructure/db.server.ts";
import { closeEmitter } from "../app/infrastructure/emitter.server.ts";
import { closeQueues } from "../app/infrastructure/queue.server.ts";
import { closeRedis } from "../app/infrastructure/redis.server.ts";
import { auditKindList, type AuditKind } from "../app/modules/audit/kinds.ts";
import { auditPage } from "../app/modules/audit/read.server.ts";
import { AUDIT_PAGE_SIZE, formatCursor, type AuditCursor, type AuditFilter, type AuditPosition } from "../app/modules/audit/schema.ts";
import { utcToZonedLocal } from "../app/modules/settings/zoned-time.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";
import { BenchFailure, benchArgs, numberOption, report, targetVerdict } from "./lib/report.ts";
import { cpuTimeMs } from "./lib/http-load.ts";
import { BENCH_PORT_BASE, startWeb, stopChildren } from "./lib/servers.ts";
import { cookiesFor } from "./lib/world.ts";
import { random } from "./lib/random.ts";

const args = benchArgs({ records: { type: "string" }, teams: { type: "string" }, users: { type: "string" }, "http-runs": { type: "string" } });
const profile = args.smoke ? { records: 20_000, teams: 50, users: 60, runs: 10, httpRuns: 3 } : { records: 1_000_000, teams: 1000, users: 600, runs: 300, httpRuns: 40 };
const config = {
  records: numberOption(args.records, profile.records),
  teams: numberOption(args.teams, profile.teams),
  users: numberOption(args.users, profile.users),
  runs: numberOption(args.runs, profile.runs),
  httpRuns: numberOption(args["http-runs"], profile.httpRuns),
};
const TARGET_P95_MS = 50;
const WARM_UP = 10;
const HOURS = 48;
const EVENT_ZONE = "Africa/Algiers";

interface People {
  teams: number[];
  admins: number[];
  judges: number[];
  participants: number[];
  adminId: number;
}

/**
 * The event: teams, users (5 admins, 30 judges, the rest participants spread over the teams), then the
 * trail in one statement: records ~every 0.17 s over 48 h, two at a time sharing an instant (a change
 * writing two records in one transaction), with the mix of an event: judges' scores (40 %), teams'
 * submissions (40 %) and the admins' other kinds of change (20 %, each kind about equally).
 */
async function seed(): Promise<People> {
  const db = getDb();
  await db.execute(sql`insert into event_settings (id, final_at, time_zone) values (1, now() + interval '1 day', ${EVENT_ZONE}) on conflict do nothing`);
  await db.execute(sql`insert into teams (name, name_key, created_at) select 'Team ' || i, 'team ' || i, now() - interval '3 days' from generate_series(1, ${config.teams}) i`);
  const teams = (await db.execute<{ id: number }>(sql`select id from teams order by id`)).map((row) => Number(row.id));
  const admins = 5;
  const judges = 30;
  const participants = Math.max(1, config.users - admins - judges);
  await db.execute(sql`insert into users (name, name_key, password_hash, role) select 'admin' || i, 'admin' || i, 'bench-no-login', 'admin' from generate_series(1, ${admins}) i`);
  await db.execute(sql`insert into users (name, name_key, password_hash, role) select 'judge' || i, 'judge' || i, 'bench-no-login', 'judge' from generate_series(1, ${judges}) i`);
  await db.execute(sql`insert into users (name, name_key, password_hash, role, team_id)
    select 'p' || i, 'p' || i, 'bench-no-login', 'participant', (${sql.raw(`array[${teams.join(",")}]`)})[1 + i % ${teams.length}] from generate_series(1, ${participants}) i`);
  const people = await db.execute<{ id: number; role: string }>(sql`select id, role from users order by id`);
  const of = (role: string) => people.filter((row) => row.role === role).map((row) => Number(row.id));
  const result = { teams, admins: of("admin"), judges: of("judge"), participants: of("participant"), adminId: of("admin")[0] };

  const other = auditKindList.filter((kind) => !kind.startsWith("score.") && !kind.startsWith("submission."));
  // Numbers written into the statement: as parameters Postgres would type them integer (and 172,800,000,000 overflows).
  const raw = (value: number) => sql.raw(String(value));
  const array = (values: readonly (number | string)[], type: string) => sql.raw(`array[${values.map((value) => (typeof value === "number" ? value : `'${value}'`)).join(",")}]::${type}[]`);
  await db.execute(sql`
    insert into audit_log (at, kind, actor_id, actor_name, actor_role, via, session_id, token_id, ip, team_id, user_id, subject_id, before, after)
    select at, kind, actor_id, actor_name, actor_role, via,
           case when via = 'session' then 1 + h % 5000 end, case when via = 'token' then 1 + h % 20 end,
           case when via <> 'system' then '10.' || (h % 250) || '.' || (h / 250 % 250) || '.7' end,
           team_id, user_id, 1 + h % 20000,
           case when kind like 'score.%' then jsonb_build_object('challenge', 'Challenge ' || (h % 200), 'score', case when kind = 'score.changed' then (h % 10000) / 100.0 end,
                                                                 'comment', null, 'submissionScore', (h % 9000) / 100.0, 'status', 'pending')
                when kind = 'submission.updated' then jsonb_build_object('challenge', 'Challenge ' || (h % 200), 'text', 'answer ' || (h % 97), 'file', null)
                when kind like '%.created' or kind like '%.given' then null
                else jsonb_build_object('name', 'before ' || (h % 1000), 'value', h % 7) end,
           case when kind like 'score.%' then jsonb_build_object('challenge', 'Challenge ' || (h % 200), 'score', (h % 10007) / 100.0, 'comment', 'ok',
                                                                 'submissionScore', (h % 9001) / 100.0, 'status', 'reviewed')
                when kind like 'submission.%' then jsonb_build_object('challenge', 'Challenge ' || (h % 200), 'text', 'answer ' || (h % 89), 'file', 'answer.zip')
                when kind like '%.deleted' or kind like '%.revoked' then null
                else jsonb_build_object('name', 'after ' || (h % 1000), 'value', h % 11) end
    from (
      select g, h, at, kind,
             case when kind like 'score.%' then judge when kind like 'submission.%' then participant when kind like 'import.%' then null else admin end as actor_id,
             case when kind like 'score.%' then 'judge' || judge when kind like 'submission.%' then 'p' || participant when kind like 'import.%' then 'import script' else 'admin' || admin end as actor_name,
             case when kind like 'score.%' then 'judge' when kind like 'submission.%' then 'participant' when kind like 'import.%' then null else 'admin' end as actor_role,
             case when kind like 'import.%' then 'system' when h % 10 = 0 then 'token' else 'session' end as via,
             case when kind like 'submission.%' then participant_team when kind like 'score.%' or kind like 'team.%' or kind like 'award.%' then team end as team_id,
             case when kind like 'user.%' or kind = 'session.ended' or kind like 'token.%' then someone end as user_id
      from (
        select g, h, p,
               now() - ${raw(HOURS)} * interval '1 hour' + ((g / 2) * 2 * ${raw(HOURS * 3_600_000_000)}::bigint / ${raw(config.records)})::bigint * interval '1 microsecond' as at,
               case when h % 100 < 25 then 'score.given' when h % 100 < 40 then 'score.changed' when h % 100 < 60 then 'submission.created'
                    when h % 100 < 80 then 'submission.updated' else (${array(other, "text")})[1 + (h / 100) % ${raw(other.length)}] end as kind,
               (${array(result.judges, "int")})[1 + (p / 7) % ${raw(result.judges.length)}] as judge,
               (${array(result.participants, "int")})[1 + (p / 11) % ${raw(result.participants.length)}] as participant,
               (${array(result.participants.map((_, index) => teams[(index + 1) % teams.length]), "int")})[1 + (p / 11) % ${raw(result.participants.length)}] as participant_team,
               (${array(result.admins, "int")})[1 + (p / 13) % ${raw(result.admins.length)}] as admin,
               (${array(teams, "int")})[1 + (p / 17) % ${raw(teams.length)}] as team,
               (${array([...result.participants, ...result.judges], "int")})[1 + (p / 19) % ${raw(result.participants.length + result.judges.length)}] as someone
        -- h picks the kind, p (an independent hash) who and which team.
        from (select g, ((g::bigint * 2654435761) % 1000003)::int as h, ((g::bigint * 3266489917 + 40503) % 999983)::int as p
              from generate_series(1, ${raw(config.records)}) g) numbered
      ) drawn
    ) shaped
    order by g`);
  // As a table that has lived for two days would be: planner statistics and the visibility map up to date.
  await db.execute(sql`vacuum analyze audit_log`);
  return result;
}

interface Case {
  name: string;
  /** The filter and page position of one run. */
  pick: (rng: () => number) => { filter: AuditFilter; position: AuditPosition };
}

async function main() {
  const world = await createBenchWorld("audit");
  try {
    const seedStart = performance.now();
    const people = await seed();
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const db = getDb();
    const [bounds] = await db.execute<{ first: string; last: string; records: string; size: string }>(
      sql`select (extract(epoch from min(at)) * 1000)::text as first, (extract(epoch from max(at)) * 1000)::text as last, count(*)::text as records,
                 pg_size_pretty(pg_total_relation_size('audit_log')) as size from audit_log`,
    );
    const first = Number(bounds.first);
    const last = Number(bounds.last);
    const span = last - first;
    console.info(`audit: ${bounds.records} records (${bounds.size}) seeded in ${seedSeconds.toFixed(1)} s`);

    const any = <T>(rng: () => number, values: readonly T[]) => values[Math.floor(rng() * values.length)];
    const hour = (rng: () => number) => {
      const from = first + rng() * (span - 3_600_000);
      return { from: new Date(from), until: new Date(from + 3_600_000) };
    };
    const common: AuditKind[] = ["score.given", "score.changed", "submission.created", "submission.updated"];
    const rare = auditKindList.filter((kind) => !common.includes(kind));
    /** A cursor about halfway down the trail (the records of the filter there): a page deep in the history. */
    const deepCursor = async (rng: () => number, teamId?: number): Promise<AuditPosition> => {
      const at = new Date(first + rng() * span).toISOString();
      const [row] = await db.execute<{ id: string; micros: string }>(
        sql`select id::text, (extract(epoch from at) * 1000000)::bigint::text as micros from audit_log where at <= ${at}::timestamptz ${teamId ? sql`and team_id = ${teamId}` : sql``} order by at desc, id desc limit 1`,
      );
      return row ? { before: { micros: row.micros, id: row.id } } : null;
    };

    const cases: Array<Case & { deep?: (rng: () => number) => Promise<{ filter: AuditFilter; position: AuditPosition }> }> = [
      { name: "no filter (newest page)", pick: () => ({ filter: {}, position: null }) },
      { name: "team", pick: (rng) => ({ filter: { teamId: any(rng, people.teams) }, position: null }) },
      { name: "user: a judge", pick: (rng) => ({ filter: { userId: any(rng, people.judges) }, position: null }) },
      { name: "user: a participant", pick: (rng) => ({ filter: { userId: any(rng, people.participants) }, position: null }) },
      { name: "user: an admin", pick: (rng) => ({ filter: { userId: any(rng, people.admins) }, position: null }) },
      { name: "kind: a common one", pick: (rng) => ({ filter: { kind: any(rng, common) }, position: null }) },
      { name: "kind: a rare one", pick: (rng) => ({ filter: { kind: any(rng, rare) }, position: null }) },
      { name: "from–to: one hour", pick: (rng) => ({ filter: hour(rng), position: null }) },
      { name: "team + kind (any)", pick: (rng) => ({ filter: { teamId: any(rng, people.teams), kind: any(rng, auditKindList) }, position: null }) },
      { name: "user + kind (any)", pick: (rng) => ({ filter: { userId: any(rng, [...people.judges, ...people.participants, ...people.admins]), kind: any(rng, auditKindList) }, position: null }) },
      { name: "user (judge) + kind none of theirs", pick: (rng) => ({ filter: { userId: any(rng, people.judges), kind: "submission.created" }, position: null }) },
      { name: "user (admin) + kind none of theirs", pick: (rng) => ({ filter: { userId: any(rng, people.admins), kind: "score.given" }, position: null }) },
      { name: "team + user", pick: (rng) => ({ filter: { teamId: any(rng, people.teams), userId: any(rng, people.judges) }, position: null }) },
      { name: "kind + one hour", pick: (rng) => ({ filter: { kind: any(rng, auditKindList), ...hour(rng) }, position: null }) },
      { name: "team + kind + one hour", pick: (rng) => ({ filter: { teamId: any(rng, people.teams), kind: any(rng, common), ...hour(rng) }, position: null }) },
      {
        name: "team + user + kind + one day",
        pick: (rng) => {
          const from = first + rng() * (span - 86_400_000);
          return { filter: { teamId: any(rng, people.teams), userId: any(rng, people.judges), kind: any(rng, common), from: new Date(from), until: new Date(from + 86_400_000) }, position: null };
        },
      },
      { name: "older page, deep (no filter)", pick: () => ({ filter: {}, position: null }), deep: async (rng) => ({ filter: {}, position: await deepCursor(rng) }) },
      {
        name: "older page, deep (team)",
        pick: () => ({ filter: {}, position: null }),
        deep: async (rng) => {
          const teamId = any(rng, people.teams);
          return { filter: { teamId }, position: await deepCursor(rng, teamId) };
        },
      },
      {
        name: "newer page, deep (user)",
        pick: () => ({ filter: {}, position: null }),
        deep: async (rng) => {
          const userId = any(rng, people.participants);
          const position = await deepCursor(rng);
          return { filter: { userId }, position: position && "before" in position ? { after: position.before } : null };
        },
      },
    ];

    const rows: Array<Record<string, unknown>> = [];
    const details: Array<Record<string, unknown>> = [];
    let checked = 0;
    for (const [index, benchCase] of cases.entries()) {
      const rng = random(1000 + index);
      const samples: number[] = [];
      let returned = 0;
      for (let run = 0; run < config.runs + WARM_UP; run++) {
        const { filter, position } = benchCase.deep ? await benchCase.deep(rng) : benchCase.pick(rng);
        const started = performance.now();
        const page = await auditPage(filter, position, AUDIT_PAGE_SIZE);
        const elapsed = performance.now() - started;
        if (run >= WARM_UP) samples.push(elapsed);
        returned += page.records.length;
        // The first runs of every case (every run of a smoke) against a plain query of the same filter.
        if (args.smoke || run < WARM_UP + 5) {
          await checkPage(benchCase.name, filter, position, page.records.map((record) => record.id));
          checked++;
        }
      }
      const figures = summarise(samples);
      const p95 = percentileOf(samples, 95);
      rows.push({
        filter: benchCase.name,
        "p50 ms": figures.p50.toFixed(2),
        "p95 ms": p95.toFixed(2),
        "max ms": figures.max.toFixed(1),
        "rows/page": +(returned / (config.runs + WARM_UP)).toFixed(1),
        "p95 ≤ 50": targetVerdict(p95 <= TARGET_P95_MS),
      });
      details.push({ name: benchCase.name, runs: samples.length, ...figures, p95 });
    }

    // The real page through HTTP, one request at a time (the figures are the page's whole cost: session,
    // layout, filter lists, query, render), and the CSV of one team's history.
    const web = await startWeb(world.env, BENCH_PORT_BASE + 60);
    const [cookie] = (await cookiesFor([people.adminId])).values();
    const local = (instant: Date) => utcToZonedLocal(instant, EVENT_ZONE);
    const httpCases: Array<{ name: string; path: (rng: () => number) => string }> = [
      { name: "page: no filter", path: () => "/dashboard/audit" },
      { name: "page: team", path: (rng) => `/dashboard/audit?team=${any(rng, people.teams)}` },
      { name: "page: user (a judge)", path: (rng) => `/dashboard/audit?user=${any(rng, people.judges)}` },
      { name: "page: kind", path: (rng) => `/dashboard/audit?kind=${any(rng, auditKindList)}` },
      {
        name: "page: one hour",
        path: (rng) => {
          const { from, until } = hour(rng);
          return `/dashboard/audit?from=${local(from)}&to=${local(new Date(until.getTime() - 60_000))}`;
        },
      },
      { name: "page: team + kind", path: (rng) => `/dashboard/audit?team=${any(rng, people.teams)}&kind=${any(rng, common)}` },
      {
        name: "page: older page, deep",
        path: (rng) => {
          const instant = first + rng() * span;
          return `/dashboard/audit?before=${formatCursor({ micros: String(Math.floor(instant * 1000)), id: String(Number.MAX_SAFE_INTEGER) })}`;
        },
      },
      { name: "CSV: one team's history", path: (rng) => `/dashboard/exports/audit.csv?team=${any(rng, people.teams)}` },
    ];
    const httpRows: Array<Record<string, unknown>> = [];
    let failures = 0;
    for (const [index, httpCase] of httpCases.entries()) {
      const rng = random(2000 + index);
      const samples: number[] = [];
      let bytes = 0;
      let cpuStart = 0;
      for (let run = 0; run < config.httpRuns + 3; run++) {
        if (run === 3) cpuStart = cpuTimeMs(web.pid);
        const started = performance.now();
        const response = await fetch(`${web.url}${httpCase.path(rng)}`, { headers: { Cookie: cookie } });
        const body = await response.arrayBuffer();
        const elapsed = performance.now() - started;
        if (response.status !== 200) {
          failures++;
          console.error(`${httpCase.name}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
        }
        if (run >= 3) {
          samples.push(elapsed);
          bytes += body.byteLength;
        }
      }
      const cpuPerRequest = (cpuTimeMs(web.pid) - cpuStart) / samples.length;
      const figures = summarise(samples);
      httpRows.push({
        request: httpCase.name,
        "p50 ms": figures.p50.toFixed(1),
        "p95 ms": percentileOf(samples, 95).toFixed(1),
        "web CPU ms/req": cpuPerRequest.toFixed(1),
        "KB/answer": Math.round(bytes / samples.length / 1024),
      });
    }
    if (failures > 0) throw new BenchFailure(`${failures} HTTP requests failed`);

    report(
      "audit",
      args.smoke,
      `6. Audit trail: one page (${AUDIT_PAGE_SIZE} records) of ${Number(bounds.records).toLocaleString("en-US")} records, ${config.teams} teams, ${config.users} users; ${config.runs} runs per filter (p95 target ${TARGET_P95_MS} ms); ${checked} pages checked against a plain query`,
      rows,
      { config, records: Number(bounds.records), tableSize: bounds.size, seedSeconds, cases: details, http: httpRows },
      args.out,
    );
    console.info(`\n6b. Through HTTP (server.ts, one request at a time, ${config.httpRuns} runs each)`);
    console.table(httpRows);
    const missed = details.filter((detail) => (detail.p95 as number) > TARGET_P95_MS);
    if (missed.length && !args.smoke) console.info(`p95 over ${TARGET_P95_MS} ms: ${missed.map((detail) => detail.name).join(", ")}`);
  } finally {
    await stopChildren();
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    await world.drop();
  }
}

function percentileOf(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The same page by the plainest query there is (an OR, no union, no cleverness): ids must match. */
async function checkPage(name: string, filter: AuditFilter, position: AuditPosition, got: number[]) {
  const where: SQL[] = [];
  if (filter.teamId !== undefined) where.push(sql`team_id = ${filter.teamId}`);
  if (filter.userId !== undefined) where.push(sql`(actor_id = ${filter.userId} or user_id = ${filter.userId})`);
  if (filter.kind !== undefined) where.push(sql`kind = ${filter.kind}`);
  if (filter.from) where.push(sql`at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.until) where.push(sql`at < ${filter.until.toISOString()}::timestamptz`);
  const cursorSql = (cursor: AuditCursor) => sql`(timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::bigint)`;
  const newer = position !== null && "after" in position;
  if (position && "before" in position) where.push(sql`(at, id) < ${cursorSql(position.before)}`);
  if (position && "after" in position) where.push(sql`(at, id) > ${cursorSql(position.after)}`);
  const rows = await getDb().execute<{ id: string }>(
    sql`select id::text as id from (select id, at from audit_log ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by at ${sql.raw(newer ? "asc" : "desc")}, id ${sql.raw(newer ? "asc" : "desc")} limit ${AUDIT_PAGE_SIZE}) page order by at desc, id desc`,
  );
  const expected = rows.map((row) => Number(row.id));
  if (JSON.stringify(expected) !== JSON.stringify(got)) {
    throw new BenchFailure(`${name}: the page differs from the plain query (${JSON.stringify({ filter, position })}): got ${got.slice(0, 5).join(",")}… expected ${expected.slice(0, 5).join(",")}…`);
  }
}

await main();
process.exit(0);
