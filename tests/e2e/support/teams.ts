/** Teams and challenges a test makes or picks for itself, by SQL on the e2e database. */
import type postgres from "postgres";
import { nameColumns } from "../../../app/modules/names/names.ts";
import { logins } from "./login.ts";

/** A team of its own with one member (the demo participants' password): what it does is its own. */
export async function freshTeam(sql: postgres.Sql, prefix: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const team = nameColumns(`${prefix} ${stamp}`);
  const member = nameColumns(`${prefix.toLowerCase()}.${stamp}`);
  const [row] = await sql<Array<{ id: number }>>`insert into teams (name, name_key) values (${team.name}, ${team.nameKey}) returning id`;
  await sql`insert into users (name, name_key, role, password_hash, team_id)
    select ${member.name}, ${member.nameKey}, 'participant', password_hash, ${row.id} from users where name = ${logins.participant.name}`;
  return { id: row.id, name: team.name, member: { name: member.name, password: logins.participant.password } };
}

/** A challenge of an opened gate (the demo's gate 1). */
export async function openedChallenge(sql: postgres.Sql) {
  const [row] = await sql<Array<{ id: number; title: string }>>`select id, title from challenges where wave = 1 and status = 'active' order by id limit 1`;
  return row;
}
