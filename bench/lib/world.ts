/**
 * A seeded event for the benchmarks, inserted in bulk by Postgres itself (generate_series), so
 * 10,000 teams take seconds: open gates, challenges, teams with members, judges, an admin, and
 * optionally scored submissions. Then the standings are rebuilt, as after an import.
 */
import { sql } from "drizzle-orm";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { deleteObject } from "../../app/infrastructure/s3.server.ts";
import { sessionCookie } from "../../tests/support/fixtures.ts";
import { sleep } from "./servers.ts";

export interface WorldSize {
  teams: number;
  membersPerTeam: number;
  challenges: number;
  judges: number;
  /** Scored submissions per team (spread over the challenges); 0 for none. */
  submissionsPerTeam: number;
}

export interface World {
  teamIds: number[];
  participants: Array<{ id: number; teamId: number }>;
  judgeIds: number[];
  adminId: number;
  challenges: Array<{ id: number; wave: number; points: number }>;
}

const CATEGORIES = ["AI", "CS", "PS", "GD"];

export async function seedWorld(size: WorldSize): Promise<World> {
  const db = getDb();
  await db.execute(sql`insert into event_settings (id, final_at) values (1, now() + interval '1 day') on conflict do nothing`);
  // Every gate open an hour ago: the participant pages list their challenges.
  await db.execute(sql`insert into gates (number, title, description, opens_at)
    select n, 'Gate ' || n, 'The gate number ' || n, now() - interval '1 hour' from generate_series(1, 5) n
    on conflict (number) do update set opens_at = excluded.opens_at`);
  await db.execute(sql`insert into challenges (title, description, points, category, wave)
    select 'Challenge ' || i, 'Solve challenge ' || i || ' and explain how.', 100 + (i % 4) * 50,
           (${sql.raw(`array['${CATEGORIES.join("','")}']`)})[1 + i % 4]::category, 1 + i % 5
    from generate_series(1, ${size.challenges}) i`);
  await db.execute(sql`insert into teams (name, name_key, created_at) select 'Team ' || i, 'team ' || i, now() - interval '1 day' from generate_series(1, ${size.teams}) i`);
  // Sessions are signed cookies made by the bench: nobody logs in, so the hash is never checked.
  await db.execute(sql`insert into users (name, name_key, password_hash, role, team_id)
    select 'p' || t.id || '_' || m, 'p' || t.id || '_' || m, 'bench-no-login', 'participant', t.id from teams t, generate_series(1, ${size.membersPerTeam}) m`);
  await db.execute(sql`insert into users (name, name_key, password_hash, role) select 'judge' || i, 'judge' || i, 'bench-no-login', 'judge' from generate_series(1, ${size.judges}) i`);
  await db.execute(sql`insert into users (name, name_key, password_hash, role) values ('bench-admin', 'bench-admin', 'bench-no-login', 'admin')`);
  if (size.submissionsPerTeam > 0) {
    const stride = Math.max(1, Math.floor(size.challenges / size.submissionsPerTeam));
    await db.execute(sql`insert into submissions (team_id, challenge_id, user_id, text, status, score_centi, scored_at)
      select t.id, c.id, (select min(u.id) from users u where u.team_id = t.id), 'an answer', 'reviewed',
             ((t.id * 7919 + c.id * 104729) % 10000) * c.points / 100, now() - (t.id % 1000) * interval '1 second'
      from teams t join challenges c on (c.id + t.id) % ${stride} = 0`);
  }
  await rebuildStandings();

  const teamIds = (await db.execute<{ id: number }>(sql`select id from teams order by id`)).map((row) => Number(row.id));
  const people = await db.execute<{ id: number; role: string; team_id: number | null }>(sql`select id, role, team_id from users order by id`);
  const challengeRows = await db.execute<{ id: number; wave: number; points: number }>(sql`select id, wave, points from challenges order by id`);
  return {
    teamIds,
    participants: people.filter((row) => row.role === "participant").map((row) => ({ id: Number(row.id), teamId: Number(row.team_id) })),
    judgeIds: people.filter((row) => row.role === "judge").map((row) => Number(row.id)),
    adminId: Number(people.find((row) => row.role === "admin")!.id),
    challenges: challengeRows.map((row) => ({ id: Number(row.id), wave: Number(row.wave), points: Number(row.points) })),
  };
}

/** Session cookies for many users (signing is cheap; done once before the load starts). */
export async function cookiesFor(userIds: readonly number[]): Promise<Map<number, string>> {
  const cookies = new Map<number, string>();
  // The benchmarks' web processes run in production mode.
  for (const id of userIds) cookies.set(id, await sessionCookie(id, { production: true }));
  return cookies;
}

/**
 * Removes every file the world's submissions point at. The bucket is shared with everyone's tests
 * and outlives the benchmark's database; s3rver cannot page a listing (its continuation token needs
 * DES, which OpenSSL 3 lacks), so a prefix past 1,000 objects breaks every listing under it.
 */
export async function deleteStoredSubmissionFiles() {
  // Replaced files are the storage-cleanup worker's: let it finish before the workers stop.
  const cleanup = getQueue("storageCleanup");
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
    const counts = await cleanup.getJobCounts("waiting", "active", "delayed");
    if (Object.values(counts).every((count) => count === 0)) break;
  }
  const rows = await getDb().execute<{ file_key: string }>(sql`select file_key from submissions where file_key is not null`);
  await Promise.all(rows.map((row) => deleteObject(row.file_key).catch(() => {})));
}
