/**
 * May this viewer see this challenge: the rule in one place (docs/domain.md "Gates and challenges"), as a
 * function for a row in hand and as the matching SQL condition for queries, used by the gate board, the
 * challenge page, attachments, submitting, flag answers, hints and the API alike.
 *
 * - A gate is open once its opening time has passed, by server time.
 * - A participant sees a challenge when it is active, its gate is open and it has been released: a challenge
 *   may open some minutes after its gate (`releaseAfterMinutes`). Staff (admins, judges) see every challenge.
 * - Prerequisites: a challenge may require others solved first (by the same rule as everywhere: a judged one
 *   at 65 % of its points, a flag one by its solve). Until the team has solved them, it sees the challenge
 *   locked (its title and what it requires, nothing else) and may neither open nor answer it. A team's own
 *   rule: `missingPrerequisites` (a function over the team's answers, in one statement).
 */
import { and, eq, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { parsedJson } from "../../../db/json.ts";
import { anyOf } from "../../../db/any-of.ts";
import type { Queryable } from "../../../db/client.ts";
import { challengePrerequisites, challenges, gates, teamAnswers } from "../../../db/schema.ts";
import { STAFF_READERS, type Role } from "../auth/access.ts";
import { SOLVE_THRESHOLD_PERCENT } from "../scoring/rules.ts";
import { submissionsCloseSql, submissionsOpenAt } from "../submissions/close.ts";

const MINUTE = 60_000;

export function isGateOpen(opensAt: Date, now: Date): boolean {
  return opensAt.getTime() <= now.getTime();
}

/** What a challenge's visibility depends on: its status, its gate's opening time (null: no gate), its release. */
export interface ChallengeGate {
  status: "active" | "inactive";
  opensAt: Date | null;
  /** Minutes after its gate that it opens (null: with the gate). */
  releaseAfterMinutes: number | null;
}

/** When a challenge opens to participants (null: no gate). */
export function challengeOpensAt(challenge: Pick<ChallengeGate, "opensAt" | "releaseAfterMinutes">): Date | null {
  if (challenge.opensAt === null) return null;
  return new Date(challenge.opensAt.getTime() + (challenge.releaseAfterMinutes ?? 0) * MINUTE);
}

/** Why a participant may not see a challenge (null: they may). */
export type HiddenBecause = "inactive" | "noGate" | "gateClosed" | "notReleased";

export function hiddenFromParticipants(challenge: ChallengeGate, now: Date): HiddenBecause | null {
  if (challenge.status !== "active") return "inactive";
  if (challenge.opensAt === null) return "noGate";
  if (!isGateOpen(challenge.opensAt, now)) return "gateClosed";
  if (!isGateOpen(challengeOpensAt(challenge)!, now)) return "notReleased";
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
  return and(
    eq(challenges.status, "active"),
    lte(gates.opensAt, now),
    sql`${gates.opensAt} + make_interval(mins => coalesce(${challenges.releaseAfterMinutes}, 0)) <= ${now.toISOString()}::timestamptz`,
  ) as SQL;
}

/** The join `visibleChallengeSql` reads: a challenge's gate. */
export const challengeGateJoin = eq(gates.number, challenges.wave);

/** A prerequisite as a locked challenge names it: its title in both languages (null: one participants cannot see yet). */
export type PrerequisiteTitle = { title: string; titleAr: string | null } | null;

/**
 * The titles (a JSON array of PrerequisiteTitle, by title; `[]`: none) of the prerequisites of a challenge the team has not solved:
 * the one SQL form of the rule, read by the challenge page in its own statement and by
 * `missingPrerequisites`. A prerequisite is solved as everywhere (`isSolved`, app/modules/scoring/rules.ts): a
 * flag solve, whatever its value has fallen to, or a judged answer that counts at 65 % of its points.
 */
export function missingPrerequisitesSql(challengeId: SQLWrapper, teamId: SQLWrapper): SQL {
  // A prerequisite participants cannot see yet (inactive, in no gate or a closed one, not released) is named by
  // no title: null (the page says "a challenge not open yet").
  const seen = sql`required.status = 'active' and required_gate.opens_at + make_interval(mins => coalesce(required.release_after_minutes, 0)) <= now()`;
  return sql`(select coalesce(json_agg(case when ${seen} then json_build_object('title', required.title, 'titleAr', required.title_ar) end order by required.title), '[]'::json)
    from ${challengePrerequisites} prerequisite inner join ${challenges} required on required.id = prerequisite.requires_id
    left join ${gates} required_gate on required_gate.number = required.wave
    where prerequisite.challenge_id = ${challengeId}
      and not exists (select 1 from ${teamAnswers} solved where solved.team_id = ${teamId} and solved.challenge_id = prerequisite.requires_id
        and (solved.flag or (not solved.rejected and solved.score_centi >= ${SOLVE_THRESHOLD_PERCENT} * required.points))))`;
}

/**
 * For each of these challenges that the team may not open yet, the titles of the prerequisites it has not
 * solved (a challenge missing from the map is open to it). One statement. A viewer without a team (staff, a
 * participant without one) is not held back here: what they may do is decided elsewhere.
 */
export async function missingPrerequisites(db: Queryable, teamId: number | null, challengeIds: readonly number[]): Promise<Map<number, PrerequisiteTitle[]>> {
  const missing = new Map<number, PrerequisiteTitle[]>();
  if (teamId === null || challengeIds.length === 0) return missing;
  const rows = await db
    .select({ id: challenges.id, titles: missingPrerequisitesSql(sql`${challenges}.id`, sql`${teamId}::int`) })
    .from(challenges)
    .where(anyOf(challenges.id, [...challengeIds]));
  for (const row of rows) {
    const titles = parsedJson(row.titles) as PrerequisiteTitle[];
    if (titles.length > 0) missing.set(row.id, titles);
  }
  return missing;
}

/** Whether a challenge has prerequisites at all (cached with the challenges: only then is a team's state read). */
export const hasPrerequisitesSql = sql<boolean>`exists (select 1 from ${challengePrerequisites} where ${challengePrerequisites}.challenge_id = ${challenges}.id)`;

/** The columns `refusalToAnswer` reads, for a select over `challenges` joined to its gate and the settings row. */
export const answerGateColumns = {
  status: challenges.status,
  wave: challenges.wave,
  opensAt: gates.opensAt,
  releaseAfterMinutes: challenges.releaseAfterMinutes,
  closesAt: submissionsCloseSql,
};

export type AnswerRefusal = "inactive" | "noGate" | "closed" | "notReleased" | "locked" | "submissionsClosed";

/** What `refusalToAnswer` reads of a challenge (answerGateColumns). */
export interface AnswerGate {
  status: "active" | "inactive";
  wave: number | null;
  opensAt: Date | null;
  releaseAfterMinutes: number | null;
  closesAt: Date | null;
}

/**
 * The part of `refusalToAnswer` that is the same for every team: hidden from participants (a closed gate is
 * "closed"), or submissions closed for a request begun at `begunAt`. Pure: a flag answer asks it of the
 * challenge it remembers, then asks Postgres the team's part (prerequisites) in the statement that records it.
 */
export function refusalToEveryTeam(row: AnswerGate, now: Date, begunAt: Date = now): Exclude<AnswerRefusal, "locked"> | null {
  const hidden = hiddenFromParticipants({ status: row.status, opensAt: row.wave === null ? null : row.opensAt, releaseAfterMinutes: row.releaseAfterMinutes }, now);
  if (hidden) return hidden === "gateClosed" ? "closed" : hidden;
  if (!submissionsOpenAt(row.closesAt, begunAt)) return "submissionsClosed";
  return null;
}

/**
 * Why a team may not answer this challenge now (null: it may): the one rule that a judged upload, a flag
 * answer and a hint's unlock all ask, in this order: hidden from participants (a closed gate is "closed"),
 * submissions closed for a request begun at `begunAt` (refusalToEveryTeam), then locked by prerequisites the
 * team has not solved (missingPrerequisitesSql).
 */
export async function refusalToAnswer(
  db: Queryable,
  row: AnswerGate,
  team: { teamId: number; challengeId: number },
  now: Date,
  begunAt: Date = now,
): Promise<AnswerRefusal | null> {
  const everyTeam = refusalToEveryTeam(row, now, begunAt);
  if (everyTeam) return everyTeam;
  if ((await missingPrerequisites(db, team.teamId, [team.challengeId])).size > 0) return "locked";
  return null;
}
