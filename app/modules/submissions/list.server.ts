import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { anyOf } from "../../../db/any-of.ts";
import { challengeCriteria, challenges, submissionScores, submissions, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { shownFileNameOrNull } from "../file-names.ts";
import { submissionOrderSql } from "../judging/blind.server.ts";
import { type SubmissionListQuery, type submissionSortKeys } from "./schema.ts";
import { readListPage, type ListPage } from "../paging.ts";

export interface JudgeScoreView {
  judgeId: number | null;
  judge: string;
  score: number;
  comment: string | null;
}

export type SubmissionSortKey = (typeof submissionSortKeys)[number];

export interface SubmissionListOptions {
  sort?: SubmissionSortKey;
  dir?: "asc" | "desc";
  gate?: number;
  category?: "AI" | "CS" | "PS" | "GD";
  status?: "pending" | "approved" | "rejected" | "reviewed";
  /** Only submissions this judge has not scored yet. */
  unscoredBy?: number;
  teamId?: number;
  /** Submission order (oldest first) instead of `sort`: a name the reader may not see (blind judging, app/modules/judging/blind.server.ts). */
  orderById?: boolean;
  /** A page of the sorted list: at most `limit` rows after the first `offset` (every row unless told). */
  limit?: number;
  offset?: number;
}

/** Rows on a page of the dashboard's list: a judge's page renders a score form per row. */
export const SUBMISSIONS_PAGE_SIZE = 50;
/** No limit (Postgres takes any bigint). */
const ALL_ROWS = 2_147_483_647;

/** The list options a judge's query asks for ("mine" = not yet scored by this judge). */
export function submissionListOptions(query: SubmissionListQuery, judgeId: number): SubmissionListOptions {
  return {
    sort: query.sort,
    dir: query.dir,
    gate: query.gate,
    category: query.category,
    status: query.status,
    unscoredBy: query.mine ? judgeId : undefined,
  };
}

/** The filters of a list, as SQL conditions (the list and its count alike). */
function listFilters(options: SubmissionListOptions): SQL[] {
  return [
    options.gate ? eq(challenges.wave, options.gate) : undefined,
    options.category ? eq(challenges.category, options.category) : undefined,
    options.status ? eq(submissions.status, options.status) : undefined,
    options.teamId ? eq(submissions.teamId, options.teamId) : undefined,
    options.unscoredBy
      ? sql`not exists (select 1 from ${submissionScores} where ${submissionScores.submissionId} = ${submissions.id} and ${submissionScores.judgeId} = ${options.unscoredBy})`
      : undefined,
  ].filter((filter) => filter !== undefined);
}

/** How many submissions the list's filters match (its pages' count). */
export async function countSubmissions(options: SubmissionListOptions = {}): Promise<number> {
  const filters = listFilters(options);
  const [row] = await getDb()
    .select({ total: count() })
    .from(submissions)
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .where(filters.length ? and(...filters) : undefined);
  return row?.total ?? 0;
}

/**
 * The judging table sorted and filtered in SQL (dashboard Submissions: ?sort=&dir= and filters), each row
 * with every judge's score (two queries, no N+1). "points" sorts by the submission's score (unscored last).
 */
export async function listSubmissionsSorted(options: SubmissionListOptions = {}) {
  const db = getDb();
  const judges = alias(users, "judges");
  const direction = options.dir === "asc" ? asc : desc;
  const sortColumn = {
    team: sql`lower(${teams.name})`,
    user: sql`lower(${users.name})`,
    challenge: sql`lower(${challenges.title})`,
    date: sql`${submissions.createdAt}`,
    status: sql`${submissions.status}::text`,
    points: sql`${submissions.scoreCenti}`,
  }[options.sort ?? "date"];
  const filters = listFilters(options);
  const rows = await db
    .select({
      id: submissions.id,
      teamId: submissions.teamId,
      challengeId: submissions.challengeId,
      team: teams.name,
      user: users.name,
      challenge: challenges.title,
      category: challenges.category,
      wave: challenges.wave,
      points: challenges.points,
      status: submissions.status,
      text: submissions.text,
      fileName: submissions.fileName,
      scoreCenti: submissions.scoreCenti,
      // Scored per criterion, in the judging workspace, not with a single score.
      hasRubric: sql<boolean>`exists (select 1 from ${challengeCriteria} where ${challengeCriteria.challengeId} = ${challenges.id})`,
      createdAt: submissions.createdAt,
      updatedAt: submissions.updatedAt,
    })
    .from(submissions)
    .innerJoin(teams, eq(teams.id, submissions.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .leftJoin(users, eq(users.id, submissions.userId))
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(...(options.orderById ? submissionOrderSql : [sql`${direction(sortColumn)} nulls last`, desc(submissions.createdAt), desc(submissions.id)]))
    .limit(options.limit ?? ALL_ROWS)
    .offset(options.offset ?? 0);
  const ids = rows.map((row) => row.id);
  const scores = ids.length
    ? await db
        .select({
          submissionId: submissionScores.submissionId,
          judgeId: submissionScores.judgeId,
          judge: judges.name,
          scoreCenti: submissionScores.scoreCenti,
          comment: submissionScores.comment,
        })
        .from(submissionScores)
        .leftJoin(judges, eq(judges.id, submissionScores.judgeId))
        .where(anyOf(submissionScores.submissionId, ids))
        .orderBy(submissionScores.createdAt)
    : [];
  const byId = new Map<number, JudgeScoreView[]>();
  for (const score of scores) {
    const list = byId.get(score.submissionId) ?? [];
    list.push({ judgeId: score.judgeId, judge: score.judge ?? "deleted judge", score: score.scoreCenti / 100, comment: score.comment });
    byId.set(score.submissionId, list);
  }
  return rows.map((row) => ({ ...row, fileName: shownFileNameOrNull(row.fileName), judgeScores: byId.get(row.id) ?? [] }));
}

/** Where a page of the list stands (app/modules/paging.ts). */
export type SubmissionListPage = ListPage;

/**
 * One page of the dashboard's list (SUBMISSIONS_PAGE_SIZE rows): a page past the last is the last; a page
 * not asked for is the first.
 */
export async function listSubmissionsPage(options: SubmissionListOptions, requested: number | undefined) {
  const total = await countSubmissions(options);
  return readListPage(total, requested, SUBMISSIONS_PAGE_SIZE, (limit, offset) => listSubmissionsSorted({ ...options, limit, offset }));
}
