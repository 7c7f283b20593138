/**
 * "Forgot your password?" (docs/domain.md "Mail"). The page's answer is one sentence whether or not an
 * account has the address, and the request costs the same either way: the web process checks the limits and
 * queues a job, always; the worker looks the address up (./delivery.server.ts sends what it finds). Limits,
 * in Redis (shared by every web process): per client address, then per e-mail address. Past the client's, a
 * 429 that says how long to wait (it says nothing of any account); past the address's, nothing is queued and
 * the answer is the usual one, so a thousand requests mail an inbox at most RESET_PER_ADDRESS times an hour.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { enqueue } from "../../infrastructure/queue.server.ts";
import { triesLimiter } from "../../infrastructure/tries.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { passwordRefusalFor } from "../auth/password-sign-in.server.ts";
import { emailKey } from "./addresses.ts";
import { dispatchMails, mailIsOn, queueMails } from "./mails.server.ts";

/** Requests from one client address: 20 an hour. */
export const RESET_PER_CLIENT = { points: 20, duration: 3600 } as const;
/** Mails to one address: 3 an hour (a person who lost the first two still gets a third). */
export const RESET_PER_ADDRESS = { points: 3, duration: 3600 } as const;

const tries = { client: triesLimiter("reset-client", RESET_PER_CLIENT), address: triesLimiter("reset-address", RESET_PER_ADDRESS) };

/** An address is counted by its digest: Redis keys never hold it. */
const addressCounter = (address: string) => createHash("sha256").update(emailKey(address)).digest("base64url");

/**
 * A visitor asks for a reset link for `address` from `client`. Returns nothing (the
 * page answers the same sentence); throws a 429 past the client's limit, a 409 when mail is off, a 503 when
 * the request cannot be queued.
 */
export async function requestPasswordReset(address: string, client: string): Promise<void> {
  if (!mailIsOn()) throw new DomainError(messages.mail.off, { status: 409 });
  try {
    const wait = await tries.client.take(client);
    if (wait > 0) throw new DomainError(messages.mail.resetThrottled(wait), { status: 429, retryAfterSeconds: wait });
    if ((await tries.address.take(addressCounter(address))) > 0) return;
    await enqueue("mail", { kind: "reset-request", address });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    getLogger().warn({ err: error }, "password reset request not queued");
    throw new DomainError(messages.mail.notQueued, { status: 503 });
  }
}

/**
 * The worker's half: the account with this address (any case), if any, gets a reset mail, in its own
 * language. Nothing otherwise, nor for a participant while passwords are off for participants.
 */
export async function resolvePasswordReset(address: string): Promise<{ mailId: number } | null> {
  const queued = await getDb().transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, language: users.language, role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, emailKey(address)))
      .limit(1);
    if (!user?.email) return null;
    // Passwords off for participants: no link to mail (the page's answer is the same sentence for everyone).
    if (await passwordRefusalFor(user.role, tx)) return null;
    const [mailId] = await queueMails(tx, [{ userId: user.id, kind: "password_reset", toAddress: user.email, language: user.language }]);
    return { mailId };
  });
  if (queued) await dispatchMails([queued.mailId]);
  return queued;
}
