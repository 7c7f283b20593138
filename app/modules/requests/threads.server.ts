/**
 * Threads between a team and the organisers (docs/domain.md "Questions and requests"): a mentor call, a
 * need or a question about a challenge is a thread with a status, open → claimed (by whom) → answered →
 * closed. Organisers (admins and mentors) claim one so that no two answer it by accident; a reply reaches
 * the team at once; the team answers back until it is closed. A team reads its own threads only.
 */
import { and, asc, desc, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { jsonDate, jsonObjectSql, oneRow, parsedJson, scalarSubquery } from "../../../db/json.ts";
import { challenges, gates, requestMessages, requests, teams, users } from "../../../db/schema.ts";
import type { Transaction } from "../../../db/client.ts";
import { getDb, preparedOnce } from "../../infrastructure/db.server.ts";
import type { UserActor } from "../audit/audit.server.ts";
import { isOrganiser, mayOverrule, type Role } from "../auth/access.ts";
import { challengeGateJoin, visibleChallengeSql } from "../challenges/visibility.server.ts";
import { DomainError } from "../errors.ts";
import { inLanguage } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { messages } from "../messages.ts";
import { broadcastThreadChanged, broadcastThreadReply } from "../realtime/broadcast.server.ts";
import { createAnnouncement } from "../announcements/announcements.server.ts";
import { createRequest, refuseOverWaitingLimits, WAITING_STATUSES } from "./requests.server.ts";
import { readListPage, type ListPage } from "../paging.ts";

const m = messages.threads;

export const threadKinds = ["mentor", "needs", "question"] as const;
export type ThreadKind = (typeof threadKinds)[number];
export const threadStatuses = ["open", "claimed", "answered", "closed"] as const;
export type ThreadStatus = (typeof threadStatuses)[number];

/** The statuses an organiser still has to act on: the queue. */
export const WAITING: readonly ThreadStatus[] = WAITING_STATUSES;

export class ThreadError extends DomainError {}

export interface ThreadFilter {
  kind?: ThreadKind;
  gate?: number;
  challengeId?: number;
  /** "waiting" (open or claimed, the default), or one status. */
  status?: ThreadStatus | "waiting";
}

const claimer = sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${requests.claimedBy})`;

const listColumns = {
  id: requests.id,
  kind: requests.kind,
  status: requests.status,
  message: requests.message,
  teamId: requests.teamId,
  team: teams.name,
  challengeId: requests.challengeId,
  challenge: challenges.title,
  // Its Arabic title (null: none): a team's pages name it in their reader's language.
  challengeAr: challenges.titleAr,
  gate: challenges.wave,
  claimedBy: requests.claimedBy,
  claimedByName: claimer,
  createdAt: requests.createdAt,
  updatedAt: requests.updatedAt,
  replies: sql<number>`(select count(*)::int from ${requestMessages} where ${requestMessages.requestId} = ${requests.id})`,
};

/** Threads a page of the organisers' queue lists; the others are on the next pages, never out of reach. */
export const QUEUE_PAGE_SIZE = 50;

function threadConditions(filter: ThreadFilter): SQL | undefined {
  const status = filter.status ?? "waiting";
  const conditions: SQL[] = [status === "waiting" ? anyOf(requests.status, [...WAITING]) : eq(requests.status, status)];
  if (filter.kind) conditions.push(eq(requests.kind, filter.kind));
  if (filter.challengeId) conditions.push(eq(requests.challengeId, filter.challengeId));
  if (filter.gate) conditions.push(eq(challenges.wave, filter.gate));
  return and(...conditions);
}

/** The organisers' queue: oldest first, filtered by kind, gate and challenge, waiting ones by default. */
export async function listThreads(filter: ThreadFilter = {}, { limit, offset = 0 }: { limit?: number; offset?: number } = {}) {
  const status = filter.status ?? "waiting";
  const query = getDb()
    .select(listColumns)
    .from(requests)
    .leftJoin(teams, eq(teams.id, requests.teamId))
    .leftJoin(challenges, eq(challenges.id, requests.challengeId))
    .where(threadConditions(filter))
    .orderBy(status === "waiting" ? asc(requests.createdAt) : desc(requests.updatedAt), asc(requests.id))
    .offset(offset);
  return limit === undefined ? query : query.limit(limit);
}

/** Where a page of the queue stands (app/modules/paging.ts; `total`: threads the filter matches). */
export interface ThreadQueuePage extends ListPage {
  /** Every thread waiting for an organiser, whatever the filter. */
  waiting: number;
}

/**
 * One page of the organisers' queue (QUEUE_PAGE_SIZE threads): a page past the last is the last, a page
 * not asked for the first. However many threads one team sends, every other team's are on some page.
 */
export async function threadQueuePage(filter: ThreadFilter, requested: number | undefined) {
  const [counts] = await getDb()
    .select({
      total: sql<number>`count(*) filter (where ${threadConditions(filter)})::int`,
      waiting: sql<number>`count(*) filter (where ${anyOf(requests.status, [...WAITING])})::int`,
    })
    .from(requests)
    .leftJoin(challenges, eq(challenges.id, requests.challengeId));
  const { rows, page } = await readListPage(counts?.total ?? 0, requested, QUEUE_PAGE_SIZE, (limit, offset) => listThreads(filter, { limit, offset }));
  const at: ThreadQueuePage = { ...page, waiting: counts?.waiting ?? 0 };
  return { rows, page: at };
}

/** The challenges teams asked about (the queue's challenge filter). */
export async function questionChallenges() {
  return getDb()
    .selectDistinct({ id: challenges.id, title: challenges.title, wave: challenges.wave })
    .from(requests)
    .innerJoin(challenges, eq(challenges.id, requests.challengeId))
    .orderBy(asc(challenges.title), asc(challenges.id));
}

/** One of a team's threads as its list shows it (listColumns). */
export interface TeamThread {
  id: number;
  kind: ThreadKind;
  status: ThreadStatus;
  message: string;
  teamId: number | null;
  team: string | null;
  challengeId: number | null;
  challenge: string | null;
  challengeAr: string | null;
  gate: number | null;
  claimedBy: number | null;
  claimedByName: string | null;
  createdAt: Date;
  updatedAt: Date;
  replies: number;
}

/** The challenge a thread is about, by its title in the reader's language (docs/domain.md "Event content in two languages"); null: none. */
export function threadChallengeIn(thread: { challenge: string | null; challengeAr: string | null }, language: Language): string | null {
  return thread.challenge === null ? null : inLanguage(language, thread.challenge, thread.challengeAr);
}

/** How many threads a team's list shows. */
const TEAM_THREADS_LIMIT = 100;

/**
 * A team's threads, newest activity first, as one JSON column (a scalar subquery): /home reads it on every
 * load with the viewer's badges (app/modules/participant/badges.server.ts); `teamThreads` reads the same alone.
 */
export function teamThreadsSql(teamId: Placeholder): SQL {
  const newest = getDb()
    .select({ row: jsonObjectSql(listColumns).as("row"), updatedAt: requests.updatedAt, id: requests.id })
    .from(requests)
    .leftJoin(teams, eq(teams.id, requests.teamId))
    .leftJoin(challenges, eq(challenges.id, requests.challengeId))
    .where(eq(requests.teamId, teamId))
    .orderBy(desc(requests.updatedAt), desc(requests.id))
    .limit(TEAM_THREADS_LIMIT)
    .as("newest");
  return scalarSubquery(sql`select coalesce(json_agg(${newest.row} order by ${newest.updatedAt} desc, ${newest.id} desc), '[]'::json) from ${newest}`);
}

export function parseTeamThreads(column: unknown): TeamThread[] {
  const rows = (parsedJson(column) as (Omit<TeamThread, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string })[] | null) ?? [];
  return rows.map((row) => ({ ...row, createdAt: jsonDate(row.createdAt), updatedAt: jsonDate(row.updatedAt) }));
}

const teamThreadsStatement = preparedOnce((db) => db.select({ rows: teamThreadsSql(sql.placeholder("teamId")) }).from(oneRow()).prepare("team_threads"));

export async function teamThreads(teamId: number): Promise<TeamThread[]> {
  const [row] = await teamThreadsStatement().execute({ teamId });
  return parseTeamThreads(row?.rows);
}

/** Whether the thread is this team's (a team member's action asks first: another team's thread is not found). */
export async function isTeamThread(id: number, teamId: number | null): Promise<boolean> {
  if (teamId === null) return false;
  const [row] = await getDb().select({ id: requests.id }).from(requests).where(and(eq(requests.id, id), eq(requests.teamId, teamId)));
  return Boolean(row);
}

/** How many of the team's threads an organiser has answered and the team has not taken up (the nav's badge), as a scalar subquery. */
export function answeredThreadsSql(teamId: number | Placeholder): SQL<number> {
  return sql<number>`(${getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(requests)
    .where(and(eq(requests.teamId, teamId), eq(requests.status, "answered")))})`;
}

export async function answeredThreadCount(teamId: number): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(sql`select ${answeredThreadsSql(teamId)}::int as n`);
  return Number(row?.n ?? 0);
}

/**
 * One thread with its messages, for an organiser (`teamId` undefined) or for a team (only its own: another
 * team's thread is "not found", never "forbidden", so ids reveal nothing).
 */
export async function getThread(id: number, viewer: { teamId?: number | null }) {
  const [thread] = await getDb()
    .select(listColumns)
    .from(requests)
    .leftJoin(teams, eq(teams.id, requests.teamId))
    .leftJoin(challenges, eq(challenges.id, requests.challengeId))
    .where(eq(requests.id, id));
  if (!thread) return null;
  if (viewer.teamId !== undefined && (viewer.teamId === null || thread.teamId !== viewer.teamId)) return null;
  const replies = await getDb()
    .select({ id: requestMessages.id, fromTeam: requestMessages.fromTeam, body: requestMessages.body, author: users.name, createdAt: requestMessages.createdAt })
    .from(requestMessages)
    .leftJoin(users, eq(users.id, requestMessages.authorId))
    .where(eq(requestMessages.requestId, id))
    .orderBy(asc(requestMessages.id));
  return { ...thread, replies };
}

async function lockThread(tx: Transaction, id: number) {
  const [row] = await tx
    .select({
      id: requests.id,
      status: requests.status,
      teamId: requests.teamId,
      userId: requests.userId,
      kind: requests.kind,
      claimedBy: requests.claimedBy,
      claimedByName: claimer,
      claimerRole: sql<Role | null>`(select ${users.role} from ${users} where ${users.id} = ${requests.claimedBy})`,
    })
    .from(requests)
    .where(eq(requests.id, id))
    .for("update", { of: requests });
  if (!row) throw new ThreadError(m.notFound, { status: 404 });
  return row;
}

/**
 * Refuses an organiser's action on a thread another organiser holds (claimed, not yet answered). An admin
 * may take any thread over (a mentor who claims and leaves must not lock it), and a claim by someone who is
 * no longer an organiser holds nothing.
 */
function refuseIfTakenByAnother(row: { claimedBy: number | null; claimedByName: string | null; claimerRole: Role | null; status: ThreadStatus }, actor: UserActor) {
  if (row.status === "closed") throw new ThreadError(m.closed, { status: 409 });
  const held = row.claimedBy !== null && row.claimedBy !== actor.id && row.status === "claimed" && row.claimerRole !== null && isOrganiser(row.claimerRole);
  if (held && !mayOverrule(actor.role)) throw new ThreadError(m.claimedByAnother(row.claimedByName ?? m.someoneElse), { status: 409 });
}

/** The organiser holding a claimed thread (or an admin) lets it go: open again, for anyone to take. */
export async function releaseThread(actor: UserActor, id: number) {
  const teamId = await getDb().transaction(async (tx) => {
    const row = await lockThread(tx, id);
    if (row.status !== "claimed") return row.teamId;
    refuseIfTakenByAnother(row, actor);
    await tx.update(requests).set({ status: "open", claimedBy: null, claimedAt: null }).where(eq(requests.id, id));
    return row.teamId;
  });
  broadcastThreadChanged({ id, teamId });
}

/**
 * An organiser takes a thread: the others see it is theirs. Refused (409) when another organiser holds it
 * (and has not answered yet) or it is closed; taking one already yours changes nothing.
 */
export async function claimThread(actor: UserActor, id: number) {
  const teamId = await getDb().transaction(async (tx) => {
    const row = await lockThread(tx, id);
    refuseIfTakenByAnother(row, actor);
    if (row.claimedBy === actor.id && row.status === "claimed") return row.teamId;
    await tx
      .update(requests)
      .set({ claimedBy: actor.id, claimedAt: new Date(), status: row.status === "answered" ? "answered" : "claimed" })
      .where(eq(requests.id, id));
    return row.teamId;
  });
  broadcastThreadChanged({ id, teamId });
}

/**
 * An organiser's reply: it claims the thread for them if nobody holds it, is refused if another organiser
 * does, and marks the thread answered. The team hears of it at once (its notification popup).
 */
export async function answerThread(actor: UserActor, id: number, body: string) {
  const teamId = await getDb().transaction(async (tx) => {
    const row = await lockThread(tx, id);
    refuseIfTakenByAnother(row, actor);
    await tx.insert(requestMessages).values({ requestId: id, authorId: actor.id, fromTeam: false, body });
    await tx.update(requests).set({ status: "answered", claimedBy: actor.id, claimedAt: row.claimedBy === actor.id ? undefined : new Date() }).where(eq(requests.id, id));
    return row.teamId;
  });
  broadcastThreadChanged({ id, teamId });
  if (teamId !== null) broadcastThreadReply(teamId, { threadId: id, message: m.replyNotification(body), timestamp: new Date().toISOString() });
}

/**
 * The team answers back (any member), until the thread is closed; the thread waits for its organiser again,
 * so a reply to an answered thread is refused (429) while its team or sender has too many waiting.
 */
export async function teamReply(member: { id: number; teamId: number | null }, id: number, body: string) {
  await getDb().transaction(async (tx) => {
    const row = await lockThread(tx, id);
    if (member.teamId === null || row.teamId !== member.teamId) throw new ThreadError(m.notFound, { status: 404 });
    if (row.status === "closed") throw new ThreadError(m.closed, { status: 409 });
    // An answered thread goes back in the queue: it takes a waiting place of its team and its sender.
    if (row.status === "answered") await refuseOverWaitingLimits(tx, { teamId: row.teamId, userId: row.userId });
    await tx.insert(requestMessages).values({ requestId: id, authorId: member.id, fromTeam: true, body });
    // Back to whoever holds it, if they still organise; otherwise open for anyone.
    const held = row.claimedBy !== null && row.claimerRole !== null && isOrganiser(row.claimerRole);
    await tx.update(requests).set(held ? { status: "claimed" } : { status: "open", claimedBy: null, claimedAt: null }).where(eq(requests.id, id));
  });
  broadcastThreadChanged({ id, teamId: member.teamId });
}

/** An organiser closes a thread: the team sees it closed and can no longer write in it. */
export async function closeThread(actor: UserActor, id: number) {
  const teamId = await getDb().transaction(async (tx) => {
    const row = await lockThread(tx, id);
    if (row.status === "closed") return row.teamId;
    refuseIfTakenByAnother(row, actor);
    await tx.update(requests).set({ status: "closed", claimedBy: row.claimedBy ?? actor.id }).where(eq(requests.id, id));
    return row.teamId;
  });
  broadcastThreadChanged({ id, teamId });
}

/**
 * A team member's question about a challenge they can see (an active challenge of an opened gate): a new
 * thread of kind "question", which organisers see at once. Returns its id.
 */
export async function askQuestion(member: { id: number; name: string; role: Role; teamId: number | null; teamName: string | null }, challengeId: number, message: string) {
  if (member.teamId === null) throw new ThreadError(m.noTeam, { status: 403 });
  const [challenge] = await getDb()
    .select({ id: challenges.id, title: challenges.title })
    .from(challenges)
    .innerJoin(gates, challengeGateJoin)
    .where(and(eq(challenges.id, challengeId), visibleChallengeSql({ role: "participant" }, new Date())));
  if (!challenge) throw new ThreadError(m.challengeNotFound, { status: 404 });
  const event = await createRequest("question", message, { userId: member.id, userName: member.name, teamId: member.teamId, teamName: member.teamName }, challenge.id);
  return event.id;
}

/**
 * An admin publishes a question's answer to every team: an announcement with the question's challenge, which
 * that challenge's page lists. A mentor answers the team only (403).
 */
export async function publishAnswer(actor: UserActor, id: number, answer: { title: string; content: string; titleAr?: string; contentAr?: string }) {
  if (!mayOverrule(actor.role)) throw new ThreadError(messages.errors.forbidden, { status: 403 });
  const question = await questionOf(id);
  return createAnnouncement(actor, { ...answer, challengeId: question.challengeId });
}

/** The challenge a question is about and its text, to publish its answer (404 if not a question). */
export async function questionOf(id: number) {
  const [row] = await getDb()
    .select({ kind: requests.kind, challengeId: requests.challengeId, challenge: challenges.title, message: requests.message })
    .from(requests)
    .leftJoin(challenges, eq(challenges.id, requests.challengeId))
    .where(eq(requests.id, id));
  if (!row || row.kind !== "question" || row.challengeId === null) throw new ThreadError(m.notAQuestion, { status: 404 });
  return { challengeId: row.challengeId, challenge: row.challenge ?? "", message: row.message };
}
