/**
 * A judge's queue (docs/domain.md "Judging"): the submissions this judge still has to score, oldest
 * first: those they never scored, and those the team changed after their score ("changed since your
 * score"); only their assigned gates and categories, if they have any; and, with N judges per submission,
 * only those that fewer than N judges scored or hold. The backlog counts the same condition per gate and
 * per category.
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { challenges, eventSettings, judgeAssignments, judgeClaims, submissionScores, submissions, teams, type Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { categories } from "../scoring/rules.ts";

export interface QueueFilter {
  gate?: number;
  category?: Category;
  /** One challenge's answers in a row: the same yardstick for each. */
  challengeId?: number;
}

/** This judge's score on the submission is missing, or older than the team's latest version. */
export function awaitsJudge(judgeId: number): SQL {
  return sql`not exists (select 1 from ${submissionScores} where ${submissionScores.submissionId} = ${submissions.id} and ${submissionScores.judgeId} = ${judgeId} and ${submissionScores.updatedAt} >= ${submissions.revisedAt})`;
}

/** The judge's gates and categories, if they have any (judges without assignments score everything). */
function assignedTo(judgeId: number): SQL {
  return sql`(not exists (select 1 from ${judgeAssignments} where ${judgeAssignments.judgeId} = ${judgeId} and ${judgeAssignments.wave} is not null)
      or ${challenges.wave} in (select ${judgeAssignments.wave} from ${judgeAssignments} where ${judgeAssignments.judgeId} = ${judgeId}))
    and (not exists (select 1 from ${judgeAssignments} where ${judgeAssignments.judgeId} = ${judgeId} and ${judgeAssignments.category} is not null)
      or ${challenges.category} in (select ${judgeAssignments.category} from ${judgeAssignments} where ${judgeAssignments.judgeId} = ${judgeId}))`;
}

/** Judges per submission (null: every judge), read where the queue is decided. */
const judgesPerSubmission = sql`(select ${eventSettings.judgesPerSubmission} from ${eventSettings} where ${eventSettings.id} = 1)`;

/**
 * With N judges per submission: fewer than N distinct judges scored its latest version or hold it now
 * (other than this one; a judge who did both counts once). Every judge's queue, the backlog and the
 * claims use this one condition.
 */
export function stillNeedsJudges(judgeId: number): SQL {
  return sql`(${judgesPerSubmission} is null or
    (select count(*) from (
      select coalesce(${submissionScores.judgeId}, -${submissionScores.id}) as judge from ${submissionScores}
        where ${submissionScores.submissionId} = ${submissions.id} and ${submissionScores.updatedAt} >= ${submissions.revisedAt}
      union
      select ${judgeClaims.judgeId} from ${judgeClaims}
        where ${judgeClaims.submissionId} = ${submissions.id} and ${judgeClaims.judgeId} <> ${judgeId} and ${judgeClaims.expiresAt} > now()
    ) as busy) < ${judgesPerSubmission})`;
}

/** This judge scored an earlier version (the team changed it since). */
function scoredEarlierBy(judgeId: number): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${submissionScores} where ${submissionScores.submissionId} = ${submissions.id} and ${submissionScores.judgeId} = ${judgeId})`;
}

/**
 * In this judge's queue: not yet scored by them (in its latest version), theirs to score, and still
 * needed; or changed since their own score, which still counts in the mean until they score it again.
 */
export function inJudgeQueue(judgeId: number): SQL {
  return sql`(${awaitsJudge(judgeId)} and ${assignedTo(judgeId)} and (${stillNeedsJudges(judgeId)} or ${scoredEarlierBy(judgeId)}))`;
}

function filterConditions(filter: QueueFilter): SQL[] {
  return [
    filter.gate ? eq(challenges.wave, filter.gate) : undefined,
    filter.category ? eq(challenges.category, filter.category) : undefined,
    filter.challengeId ? eq(challenges.id, filter.challengeId) : undefined,
  ].filter((condition) => condition !== undefined);
}

export interface QueueItem {
  id: number;
  teamId: number;
  team: string;
  challenge: string;
  category: Category;
  wave: number | null;
  revisedAt: Date;
  changedSinceScore: boolean;
}

/**
 * The queue shown beside the submission: at most `limit` items (the backlog says how many in all). With
 * `after`, the items that come after that submission's place (by when the team last sent it, then id),
 * whether or not it is still in the queue: what "next" means after a skip or a score.
 */
export async function judgeQueue(
  judgeId: number,
  filter: QueueFilter = {},
  limit = 200,
  afterId?: number,
): Promise<QueueItem[]> {
  return getDb()
    .select({
      id: submissions.id,
      teamId: submissions.teamId,
      team: teams.name,
      challenge: challenges.title,
      category: challenges.category,
      wave: challenges.wave,
      revisedAt: submissions.revisedAt,
      changedSinceScore: scoredEarlierBy(judgeId),
    })
    .from(submissions)
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(
      and(
        inJudgeQueue(judgeId),
        ...filterConditions(filter),
        // Its place read in the same statement, at the database's own precision.
        afterId !== undefined
          ? sql`(${submissions.revisedAt}, ${submissions.id}) > (select ${submissions.revisedAt}, ${submissions.id} from ${submissions} where ${submissions.id} = ${afterId})`
          : undefined,
      ),
    )
    .orderBy(asc(submissions.revisedAt), asc(submissions.id))
    .limit(limit);
}

export interface Backlog {
  total: number;
  byGate: Record<1 | 2 | 3 | 4 | 5, number>;
  byCategory: Record<Category, number>;
}

/** How many submissions this judge still has to score: in all, per gate, per category. */
export async function judgeBacklog(judgeId: number): Promise<Backlog> {
  const rows = await getDb()
    .select({ wave: challenges.wave, category: challenges.category, count: sql<number>`count(*)::int` })
    .from(submissions)
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(inJudgeQueue(judgeId))
    .groupBy(challenges.wave, challenges.category);
  const backlog: Backlog = {
    total: 0,
    byGate: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
    byCategory: Object.fromEntries(categories.map((category) => [category, 0])) as Record<Category, number>,
  };
  for (const row of rows) {
    backlog.total += row.count;
    backlog.byCategory[row.category] += row.count;
    if (row.wave !== null && row.wave >= 1 && row.wave <= 5) backlog.byGate[row.wave as 1 | 2 | 3 | 4 | 5] += row.count;
  }
  return backlog;
}

/** Just the total, for the dashboard's sidebar on every page. */
export async function judgeBacklogTotal(judgeId: number): Promise<number> {
  const [row] = await getDb()
    .select({ count: sql<number>`count(*)::int` })
    .from(submissions)
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(inJudgeQueue(judgeId));
  return row?.count ?? 0;
}

export interface ScoredByJudge {
  submissionId: number;
  teamId: number;
  team: string;
  challenge: string;
  points: number;
  scoreCenti: number;
  comment: string | null;
  scoredAt: Date;
}

/** The submissions this judge scored, latest first: their score, comment and when. */
export async function judgeHistory(judgeId: number, limit = 50): Promise<ScoredByJudge[]> {
  return getDb()
    .select({
      submissionId: submissions.id,
      teamId: submissions.teamId,
      team: teams.name,
      challenge: challenges.title,
      points: challenges.points,
      scoreCenti: submissionScores.scoreCenti,
      comment: submissionScores.comment,
      scoredAt: submissionScores.updatedAt,
    })
    .from(submissionScores)
    .innerJoin(submissions, eq(submissions.id, submissionScores.submissionId))
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(eq(submissionScores.judgeId, judgeId))
    .orderBy(desc(submissionScores.updatedAt), desc(submissionScores.id))
    .limit(limit);
}

/** The challenges a judge can filter the queue by: those with submissions, by gate and title. */
export async function challengesWithSubmissions(): Promise<Array<{ id: number; title: string; wave: number | null }>> {
  return getDb()
    .selectDistinct({ id: challenges.id, title: challenges.title, wave: challenges.wave })
    .from(challenges)
    .innerJoin(submissions, eq(submissions.challengeId, challenges.id))
    .orderBy(asc(challenges.wave), asc(challenges.title), asc(challenges.id));
}
