import { normaliseName } from "../names/names.ts";
import { sql } from "drizzle-orm";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import type { Role } from "./access.ts";
import { NO_PASSWORD, verifyDummyPassword, verifyPassword } from "./password.server.ts";

/** What the session keeps about a signed-in user. */
export interface SessionUser {
  id: number;
  name: string;
  role: Role;
  teamId: number | null;
  teamName: string | null;
}

/**
 * Lookups of one user already under way. Remix runs a page's loaders (root, layout, page) at the
 * same time and each asks for the session's user: they share one query instead of three. Only a
 * query still in flight is shared, nothing is kept after it answers: a caller gets an answer at most
 * as old as a query started a moment before it asked (as if its request had come that much earlier).
 */
const lookupsInFlight = new Map<number, Promise<SessionUser | null>>();

export function findSessionUser(userId: number): Promise<SessionUser | null> {
  let lookup = lookupsInFlight.get(userId);
  if (!lookup) {
    lookup = querySessionUser(userId).finally(() => lookupsInFlight.delete(userId));
    lookupsInFlight.set(userId, lookup);
  }
  // A copy each: one caller changing its user must not change another's.
  return lookup.then((user) => (user ? { ...user } : null));
}

async function querySessionUser(userId: number): Promise<SessionUser | null> {
  const [row] = await getDb()
    .select({ id: users.id, name: users.name, role: users.role, teamId: users.teamId, teamName: teams.name })
    .from(users)
    .leftJoin(teams, sql`${teams.id} = ${users.teamId}`)
    .where(sql`${users.id} = ${userId}`)
    .limit(1);
  return row ?? null;
}

/**
 * A user whose password was just checked, with the hash it was checked against: the session starts only
 * if that is still the user's password (sessions.server.ts), so a login racing a password change loses.
 */
export interface VerifiedUser extends SessionUser {
  verifiedPasswordHash: string;
}

/** The user whose name (case-insensitive, in the normal form names are kept in) and password match, or null. */
export async function verifyLogin(name: string, password: string): Promise<VerifiedUser | null> {
  const [row] = await getDb()
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.name}) = lower(${normaliseName(name)})`)
    .limit(1);
  // No such user, or one who has not chosen a password yet: the same time as a wrong password.
  if (!row || row.passwordHash === NO_PASSWORD) {
    await verifyDummyPassword(password);
    return null;
  }
  if (!(await verifyPassword(row.passwordHash, password))) return null;
  const user = await findSessionUser(row.id);
  return user ? { ...user, verifiedPasswordHash: row.passwordHash } : null;
}
