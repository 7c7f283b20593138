import { desc, eq } from "drizzle-orm";
import { requests, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { broadcastRequest, broadcastThreadChanged } from "../realtime/broadcast.server.ts";
import type { RequestEvent } from "../realtime/events.ts";


export type RequestKind = "mentor" | "needs";

/**
 * A mentor call, a need or a question (with its challenge), from a signed-in user: a new open thread
 * (threads.server.ts) that admins and mentors see live.
 */
export async function createRequest(
  kind: RequestKind | "question",
  message: string,
  from: { userId: number; userName: string; teamId: number | null; teamName: string | null },
  challengeId: number | null = null,
) {
  const [row] = await getDb().insert(requests).values({ kind, message, userId: from.userId, teamId: from.teamId, challengeId }).returning();
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
