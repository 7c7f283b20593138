/**
 * A signed-in user changes their own password (/account/password; docs/domain.md "Mail"): the current one is
 * checked first, by the caller, under the login throttle (app/glue/auth.server.ts). The new one is hashed
 * before the transaction; the user's other sign-in sessions end in it, the one they changed it from goes on.
 */
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type UserActor } from "../audit/audit.server.ts";
import { hashPassword } from "./password.server.ts";
import { forgetRecentUsers } from "./recent-users.server.ts";
import { endSessionsOf } from "./sessions.server.ts";

/** Sets the password (audited: `user.password-changed`, never the password); returns how many of the user's other sessions ended. */
export async function changeOwnPassword(actor: UserActor, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  const ended = await getDb().transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, actor.id));
    const sessionsEnded = await endSessionsOf(tx, actor.id, actor.sessionId);
    await recordAudit(tx, actor, { kind: "user.password-changed", userId: actor.id, subjectId: actor.id, after: sessionsEnded ? { sessionsEnded } : null });
    return sessionsEnded;
  });
  if (ended > 0) forgetRecentUsers();
  return ended;
}
