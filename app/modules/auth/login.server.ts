import { sql } from "drizzle-orm";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../utils/db.server.ts";
import type { Role } from "./access.ts";
import { verifyDummyPassword, verifyPassword } from "./password.server.ts";

/** What the session keeps about a signed-in user. */
export interface SessionUser {
  id: number;
  name: string;
  role: Role;
  teamId: number | null;
  teamName: string | null;
}

export async function findSessionUser(userId: number): Promise<SessionUser | null> {
  const [row] = await getDb()
    .select({ id: users.id, name: users.name, role: users.role, teamId: users.teamId, teamName: teams.name })
    .from(users)
    .leftJoin(teams, sql`${teams.id} = ${users.teamId}`)
    .where(sql`${users.id} = ${userId}`)
    .limit(1);
  return row ?? null;
}

/** The user whose name (case-insensitive) and password match, or null. */
export async function verifyLogin(name: string, password: string): Promise<SessionUser | null> {
  const [row] = await getDb()
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.name}) = lower(${name.trim()})`)
    .limit(1);
  if (!row) {
    await verifyDummyPassword(password);
    return null;
  }
  if (!(await verifyPassword(row.passwordHash, password))) return null;
  return findSessionUser(row.id);
}
