import { and, desc, eq, or, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { requests, teams, users } from "../../../db/schema.ts";
import type { Transaction } from "../../../db/client.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { broadcastRequest, broadcastThreadChanged } from "../realtime/broadcast.server.ts";
import type { RequestEvent } from "../realtime/events.ts";


export type RequestKind = "mentor" | "needs";

/** The statuses of a thread still waiting for an organiser (threads.server.ts's queue). */
export const WAITING_STATUSES: Array<"open" | "claimed"> = ["open", "claimed"];

/** A new thread refused because its team or its sender has too many waiting already (429). */
export class WaitingLimitError extends DomainError {
  constructor(message: string) {
    super(message, { status: 429 });
  }
}

/** How many threads may wait for an organiser at once, per team and per user (docs/RELIABILITY.md). */
export function waitingLimits() {
  const env = getEnv();
  return { perTeam: env.THREADS_WAITING_PER_TEAM, perUser: env.THREADS_WAITING_PER_USER };
}

/**
 * Refuses (WaitingLimitError, 429) one more thread waiting for an organiser while the team already has
 * THREADS_WAITING_PER_TEAM waiting (open or claimed), or the user THREADS_WAITING_PER_USER: a new thread,
 * and a team's reply that puts an answered thread back in the queue alike. The team's and the user's rows
 * are locked while counting (always the team first, then the user), so two writers cannot both pass the
 * last free place.
 */
export async function refuseOverWaitingLimits(tx: Transaction, owner: { teamId: number | null; userId: number | null }) {
  const { teamId, userId } = owner;
  if (teamId === null && userId === null) return;
  const limits = waitingLimits();
  if (teamId !== null) await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("no key update");
  if (userId !== null) await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
  const ownThreads = [...(teamId === null ? [] : [eq(requests.teamId, teamId)]), ...(userId === null ? [] : [eq(requests.userId, userId)])];
  const [waiting] = await tx
    .select({
      team: teamId === null ? sql<number>`0` : sql<number>`count(*) filter (where ${requests.teamId} = ${teamId})::int`,
      user: userId === null ? sql<number>`0` : sql<number>`count(*) filter (where ${requests.userId} = ${userId})::int`,
    })
    .from(requests)
    .where(and(anyOf(requests.status, WAITING_STATUSES), or(...ownThreads)));
  if (teamId !== null && waiting.team >= limits.perTeam) throw new WaitingLimitError(messages.threads.teamWaitingLimit(limits.perTeam));
  if (userId !== null && waiting.user >= limits.perUser) throw new WaitingLimitError(messages.threads.userWaitingLimit(limits.perUser));
}

/**
 * A mentor call, a need or a question (with its challenge), from a signed-in user: a new open thread
 * (threads.server.ts) that admins and mentors see live; refused while the team or the user has too many
 * waiting already (refuseOverWaitingLimits): one player cannot fill the organisers' queue.
 */
export async function createRequest(
  kind: RequestKind | "question",
  message: string,
  from: { userId: number; userName: string; teamId: number | null; teamName: string | null },
  challengeId: number | null = null,
) {
  const row = await getDb().transaction(async (tx) => {
    await refuseOverWaitingLimits(tx, from);
    const [inserted] = await tx.insert(requests).values({ kind, message, userId: from.userId, teamId: from.teamId, challengeId }).returning();
    return inserted;
  });
  const event: RequestEvent = {
    id: row.id,
    kind,
    message: row.message,
    team: from.teamName,
    user: from.userName,
    createdAt: row.createdAt.toISOString(),
  };
  broadcastRequest(event);
  broadcastThreadChanged({ id: row.id, teamId: from.teamId });
  return event;
}

export async function listRequests(kind: RequestKind): Promise<RequestEvent[]> {
  const rows = await getDb()
    .select({ id: requests.id, kind: requests.kind, message: requests.message, createdAt: requests.createdAt, team: teams.name, user: users.name })
    .from(requests)
    .leftJoin(teams, eq(teams.id, requests.teamId))
    .leftJoin(users, eq(users.id, requests.userId))
    .where(eq(requests.kind, kind))
    .orderBy(desc(requests.createdAt), desc(requests.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
