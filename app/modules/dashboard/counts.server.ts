import { count } from "drizzle-orm";
import { challenges, submissions, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";

/** The dashboard home's three cards. */
export async function dashboardCounts() {
  const db = getDb();
  const [[u], [c], [s]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(challenges),
    db.select({ n: count() }).from(submissions),
  ]);
  return { users: u.n, challenges: c.n, submissions: s.n };
}
