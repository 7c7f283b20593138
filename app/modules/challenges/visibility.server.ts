/**
 * May this viewer see this challenge: the rule in one place (docs/domain.md "Gates"), as a function for a
 * row in hand and as the matching SQL condition for queries, used by the gate board, the challenge page,
 * attachments, submitting and the API alike.
 *
 * - A gate is open once its opening time has passed, by server time.
 * - A participant sees a challenge when it is active and its gate is open. Staff (admins, judges) see
 *   every challenge.
 */
import { and, eq, lte, sql, type SQL } from "drizzle-orm";
import { challenges, gates } from "../../../db/schema.ts";
import { STAFF_READERS, type Role } from "../auth/access.ts";

export function isGateOpen(opensAt: Date, now: Date): boolean {
  return opensAt.getTime() <= now.getTime();
}

/** What a challenge's visibility depends on: its status and its gate's opening time (null: no gate). */
export interface ChallengeGate {
  status: "active" | "inactive";
  opensAt: Date | null;
}

/** Why a participant may not see a challenge (null: they may). */
export type HiddenBecause = "inactive" | "noGate" | "gateClosed";

export function hiddenFromParticipants(challenge: ChallengeGate, now: Date): HiddenBecause | null {
  if (challenge.status !== "active") return "inactive";
  if (challenge.opensAt === null) return "noGate";
  if (!isGateOpen(challenge.opensAt, now)) return "gateClosed";
  return null;
}

export function maySeeChallenge(viewer: { role: Role }, challenge: ChallengeGate, now: Date): boolean {
  return STAFF_READERS.includes(viewer.role) || hiddenFromParticipants(challenge, now) === null;
}

/**
 * The same rule in SQL, for a query over `challenges` joined to `gates` on the challenge's wave
 * (`challengeGateJoin`): what a participant (or a mentor) may see; true for staff.
 */
export function visibleChallengeSql(viewer: { role: Role }, now: Date): SQL {
  if (STAFF_READERS.includes(viewer.role)) return sql`true`;
  return and(eq(challenges.status, "active"), lte(gates.opensAt, now)) as SQL;
}

/** The join `visibleChallengeSql` reads: a challenge's gate. */
export const challengeGateJoin = eq(gates.number, challenges.wave);
