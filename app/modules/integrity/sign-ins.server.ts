/**
 * The sign-in log and the account signals (docs/domain.md "Integrity signals"). Each sign-in records the user,
 * their team then, the time, the browser (the SHA-256 of its device cookie: a random value set at sign-in, so a
 * venue's shared address says nothing) and the address. The worker then checks two things against the
 * thresholds: one browser signed in as two people of two teams (never one user seen in their own successive teams
 * after a move), and one account used from many browsers, both
 * within the log's retention (SIGN_IN_RETENTION_DAYS); the worker prunes older rows.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, countDistinct, eq, gt, isNotNull, lt, ne, sql } from "drizzle-orm";
import { integritySignals, signIns, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { broadcastJudgingChanged } from "../realtime/broadcast.server.ts";
import { readIntegritySettings } from "./compare.server.ts";

/** How long the sign-in log keeps a row (docs/domain.md "Integrity signals"). */
export const SIGN_IN_RETENTION_DAYS = 30;

/** A new browser's device value: 256 random bits, base64url. */
export function newDeviceId(): string {
  return randomBytes(32).toString("base64url");
}

const deviceHash = (device: string) => createHash("sha256").update(device).digest("hex");

/**
 * Logs a sign-in and asks the worker to check it. Never fails the sign-in it logs: a log that cannot be written
 * is said in the server's log, and the user signs in.
 */
export async function recordSignIn(userId: number, device: string, address: string | null): Promise<void> {
  try {
    const [row] = await getDb().execute<{ id: number }>(sql`
      insert into ${signIns} (user_id, team_id, device, address)
      select id, team_id, ${deviceHash(device)}, ${address?.slice(0, 64) ?? null}::text from ${users} where id = ${userId}
      returning id`);
    if (row) await enqueue("integrity", { kind: "sign-in", signInId: Number(row.id) });
  } catch (error) {
    getLogger().warn({ err: error, userId }, "sign-in not logged for the integrity signals");
  }
}

const retained = () => sql`now() - make_interval(days => ${SIGN_IN_RETENTION_DAYS})`;

/** The worker's check of one sign-in: a browser shared by two teams' members, an account on many browsers. */
export async function checkSignIn(signInId: number): Promise<{ signals: number }> {
  const db = getDb();
  const [entry] = await db.select().from(signIns).where(eq(signIns.id, signInId));
  if (!entry) return { signals: 0 };
  let added = 0;
  if (entry.teamId !== null) {
    const others = await db
      .selectDistinct({ teamId: signIns.teamId })
      .from(signIns)
      // Another person's sign-in: one user's own successive teams (an admin moved them) share nothing.
      .where(and(eq(signIns.device, entry.device), isNotNull(signIns.teamId), ne(signIns.teamId, entry.teamId), ne(signIns.userId, entry.userId), gt(signIns.at, retained())));
    for (const other of others) {
      if (other.teamId === null) continue;
      const [low, high] = entry.teamId < other.teamId ? [entry.teamId, other.teamId] : [other.teamId, entry.teamId];
      const rows = await db
        .insert(integritySignals)
        .values({
          kind: "device-shared",
          teamId: entry.teamId,
          otherTeamId: other.teamId,
          similarity: 100,
          details: { userId: entry.userId, device: entry.device.slice(0, 12) },
          sourceKey: `device-shared:${entry.device.slice(0, 32)}:${low}:${high}`,
        })
        .onConflictDoNothing()
        .returning({ id: integritySignals.id });
      added += rows.length;
    }
  }
  const { devicesPerAccount } = await readIntegritySettings(db);
  const [{ devices }] = await db
    .select({ devices: countDistinct(signIns.device) })
    .from(signIns)
    .where(and(eq(signIns.userId, entry.userId), gt(signIns.at, retained())));
  if (devices >= devicesPerAccount && entry.teamId !== null) {
    // One signal per account while it is open: its count follows the log.
    const rows = await db
      .insert(integritySignals)
      .values({ kind: "many-devices", teamId: entry.teamId, similarity: Math.min(100, devices), details: { userId: entry.userId, devices }, sourceKey: `many-devices:${entry.userId}` })
      .onConflictDoUpdate({
        target: integritySignals.sourceKey,
        set: { similarity: Math.min(100, devices), details: { userId: entry.userId, devices } },
        setWhere: eq(integritySignals.status, "open"),
      })
      .returning({ id: integritySignals.id, createdAt: integritySignals.createdAt });
    added += rows.length;
  }
  if (added > 0) broadcastJudgingChanged();
  return { signals: added };
}

/** Deletes the sign-in log's rows older than the retention period (the worker, now and then). */
export async function pruneSignIns(): Promise<number> {
  const rows = await getDb().delete(signIns).where(lt(signIns.at, retained())).returning({ id: signIns.id });
  return rows.length;
}
