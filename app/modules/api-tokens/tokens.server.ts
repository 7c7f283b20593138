/**
 * Personal API tokens (decision 009): `gk_` and 40 random base62 characters (≈ 238 bits). Only the
 * token's SHA-256 is stored, so a database leak gives no usable token; the plain token is returned
 * once, at creation. A token carries its user's role as it is at each request (the user is re-read),
 * so a changed role or a deleted user takes effect at once, as with the session cookie.
 */
import { createHash, randomInt } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { apiTokens, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { findSessionUser, type SessionUser } from "../auth/login.server.ts";
import { messages } from "../messages.ts";
import { DashboardError } from "../teams/teams.server.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const TOKEN_PREFIX = "gk_";
const RANDOM_LENGTH = 40;
/** What the list shows of a token: enough to tell tokens apart, far too little to guess one. */
const DISPLAY_LENGTH = TOKEN_PREFIX.length + 6;
/** last_used_at is refreshed at most this often: a scoreboard polled every second writes no row per poll. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function generateToken(): string {
  return TOKEN_PREFIX + Array.from({ length: RANDOM_LENGTH }, () => BASE62[randomInt(BASE62.length)]).join("");
}

export interface CreatedApiToken {
  id: number;
  /** Plain text, returned once: never stored or logged. */
  token: string;
}

export async function createApiToken(actor: Actor, userId: number, name: string): Promise<CreatedApiToken> {
  const user = await findSessionUser(userId);
  if (!user) throw new DashboardError(messages.dashboard.userNotFound, 404, "userId");
  const token = generateToken();
  const prefix = token.slice(0, DISPLAY_LENGTH);
  const row = await getDb().transaction(async (tx) => {
    const [created] = await tx.insert(apiTokens).values({ userId, name, tokenHash: hashToken(token), prefix }).returning({ id: apiTokens.id });
    await recordAudit(tx, actor, { kind: "token.created", userId, teamId: user.teamId, subjectId: created.id, after: { name, prefix, role: user.role } });
    return created;
  });
  return { id: row.id, token };
}

/** Revoking is permanent; revoking twice is harmless (and recorded once). */
export async function revokeApiToken(actor: Actor, id: number): Promise<void> {
  const row = await getDb().transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id, userId: apiTokens.userId, name: apiTokens.name, prefix: apiTokens.prefix });
    if (revoked) await recordAudit(tx, actor, { kind: "token.revoked", userId: revoked.userId, subjectId: id, before: { name: revoked.name, prefix: revoked.prefix } });
    return revoked;
  });
  if (row) return;
  const [exists] = await getDb().select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, id));
  if (!exists) throw new DashboardError(messages.apiTokens.notFound, 404);
}

export async function listApiTokens() {
  return getDb()
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      userName: users.name,
      role: users.role,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** The user a live (unrevoked) token belongs to, with the token's id, or null. */
export async function findUserByApiToken(token: string, now = new Date()): Promise<(SessionUser & { tokenId: number }) | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const db = getDb();
  const [row] = await db
    .select({ id: apiTokens.id, userId: apiTokens.userId })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  const [user] = await Promise.all([
    findSessionUser(row.userId),
    db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore)))),
  ]);
  return user ? { ...user, tokenId: row.id } : null;
}
