/** What the judging tests set up for themselves, by SQL on the e2e database, so that parallel tests never disturb them. */
import type postgres from "postgres";
import { nameColumns } from "../../../app/modules/names/names.ts";
import { logins } from "./login.ts";


const words = ["Amber", "Birch", "Cedar", "Dune", "Ember", "Fjord", "Grove", "Harbor", "Juniper", "Kestrel", "Meadow", "Nectar"];

/**
 * A challenge of its own in gate 2 with `count` answers from fresh teams (oldest first), a fresh judge, and
 * one more fresh team that has not answered yet: the judge filters the queue to this challenge, so what
 * other tests submit meanwhile never enters it. Accounts share the demo passwords.
 */
export async function freshChallengeToJudge(
  sql: postgres.Sql,
  count: number,
  options: {
    category?: "AI" | "CS" | "PS" | "GD";
    rubric?: Array<{ name: string; weight: number; maxPoints: number }>;
    /** The answers' texts, in order (default "Answer number N"). */
    texts?: string[];
    /** The challenge's points (default 10). */
    points?: number;
  } = {},
) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const [hashes] = await sql<Array<{ judge: string; participant: string }>>`
    select (select password_hash from users where name = ${logins.judge.name}) as judge,
           (select password_hash from users where name = ${logins.participant.name}) as participant`;
  const title = `Judged in a row ${stamp}`;
  const [challenge] = await sql<Array<{ id: number }>>`
    insert into challenges (title, description, points, category, wave, hints)
    values (${title}, 'Give each answer 0 to 10.', ${options.points ?? 10}, ${options.category ?? "PS"}, 2, 'Correctness first.') returning id`;
  for (const [position, criterion] of (options.rubric ?? []).entries()) {
    await sql`insert into challenge_criteria (challenge_id, position, name, weight, max_points)
      values (${challenge.id}, ${position}, ${criterion.name}, ${criterion.weight}, ${criterion.maxPoints})`;
  }
  const judge = nameColumns(`Judge ${stamp}`);
  await sql`insert into users (name, name_key, role, password_hash) values (${judge.name}, ${judge.nameKey}, 'judge', ${hashes.judge})`;
  const teams: string[] = [];
  const members: string[] = [];
  for (const [index, word] of words.slice(0, count + 1).entries()) {
    const team = nameColumns(`${word} ${stamp}`);
    const member = nameColumns(`${word.toLowerCase()}.${stamp}`);
    const [row] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
    const [user] = await sql<Array<{ id: number }>>`
      insert into users (name, name_key, role, password_hash, team_id) values (${member.name}, ${member.nameKey}, 'participant', ${hashes.participant}, ${row.id}) returning id`;
    if (index < count) {
      await sql`insert into submissions (team_id, challenge_id, user_id, text, revised_at, created_at)
        values (${row.id}, ${challenge.id}, ${user.id}, ${options.texts?.[index] ?? `Answer number ${index + 1}`}, now() - make_interval(mins => ${count - index}), now() - make_interval(mins => ${count - index}))`;
    }
    teams.push(team.name);
    members.push(member.name);
  }
  return { challengeId: challenge.id, stamp, title, judge: { name: judge.name, password: logins.judge.password }, teams, members, latecomer: { name: members[count], password: logins.participant.password }, latecomerTeam: teams[count] };
}


/** Another fresh judge (the demo judge's password), for tests of two judges at once. */
export async function anotherJudge(sql: postgres.Sql, stamp: string) {
  const judge = nameColumns(`Second judge ${stamp}`);
  await sql`insert into users (name, name_key, role, password_hash)
    select ${judge.name}, ${judge.nameKey}, 'judge', password_hash from users where name = ${logins.judge.name}`;
  return { name: judge.name, password: logins.judge.password };
}
