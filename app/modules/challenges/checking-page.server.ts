/**
 * The challenge a checking page reads first (docs/domain.md "Code challenges", "Prediction challenges"): a challenge
 * checked by tests (/code/:id) or by a metric (/predictions/:id), with its gate and the event's settings, when its
 * viewer may see it (./visibility.server.ts). The pages and their API calls read it here, one rule for both kinds.
 */
import { eq } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { challenges, eventSettings, gates } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { challengeGateJoin, maySeeChallenge } from "./visibility.server.ts";

export type CheckedBy = "tests" | "metric";

/** The challenge `challengeId` when it is checked by `checking` and `viewer` may see it now; else null (a 404). */
export async function checkingChallenge(challengeId: number, checking: CheckedBy, viewer: { role: Role }, now = new Date(), db: Queryable = getDb()) {
  const [row] = await db
    .select({
      id: challenges.id,
      title: challenges.title,
      titleAr: challenges.titleAr,
      points: challenges.points,
      checking: challenges.checking,
      status: challenges.status,
      wave: challenges.wave,
      opensAt: gates.opensAt,
      releaseAfterMinutes: challenges.releaseAfterMinutes,
      finalAt: eventSettings.finalAt,
      timeZone: eventSettings.timeZone,
      frozen: eventSettings.scoreboardFrozen,
      frozenAt: eventSettings.frozenAt,
    })
    .from(challenges)
    .leftJoin(gates, challengeGateJoin)
    .leftJoin(eventSettings, eq(eventSettings.id, 1))
    .where(eq(challenges.id, challengeId));
  if (!row || row.checking !== checking) return null;
  if (!maySeeChallenge(viewer, { status: row.status, opensAt: row.wave === null ? null : row.opensAt, releaseAfterMinutes: row.releaseAfterMinutes }, now)) return null;
  return row;
}
