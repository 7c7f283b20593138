/**
 * Claims (docs/domain.md "Judging"): with N judges per submission, a judge who is handed a submission holds
 * it for CLAIM_MINUTES, renewed while they work on it, so no more judges are handed it at once than it
 * still needs. A judge holds one claim at a time: opening another submission moves it (a skip releases
 * it), a score ends it, and an expired one counts for nobody.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { prebuilt } from "../../../db/in-order.ts";
import { judgeClaims, submissions } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { judgeQueue, stillNeedsJudges, type QueueFilter } from "./queue.server.ts";
import { LOCK_CLASS } from "../../../db/advisory-locks.ts";

export const CLAIM_MINUTES = 5;


const expiry = sql`now() + make_interval(mins => ${CLAIM_MINUTES})`;

/**
 * Hands the judge the first of `candidates` that still needs a judge, and claims it; null when none does.
 * Two judges asking at the same moment are served one after the other on each submission (a lock per
 * submission), so the second sees the first's claim.
 */
export async function claimFirstAvailable(judgeId: number, candidates: readonly number[]): Promise<number | null> {
  for (const submissionId of candidates) {
    const claimed = await getDb().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.judgeClaim}, ${submissionId})`);
      const [free] = await tx
        .select({ id: submissions.id })
        .from(submissions)
        .where(and(eq(submissions.id, submissionId), stillNeedsJudges(judgeId)));
      if (!free) return false;
      await holdClaim(tx, judgeId, submissionId);
      return true;
    });
    if (claimed) return submissionId;
  }
  return null;
}

/**
 * The judge has this submission open (handed to them, or opened from a link, their history, back): they
 * hold it. Opening it again (a reload, the page re-reading itself) does not extend a claim they still
 * hold: only `renewClaim`, sent while they are active, does.
 */
export async function claimSubmission(judgeId: number, submissionId: number): Promise<void> {
  await holdClaim(getDb(), judgeId, submissionId);
}

async function holdClaim(db: Pick<ReturnType<typeof getDb>, "insert">, judgeId: number, submissionId: number) {
  await db
    .insert(judgeClaims)
    .values({ judgeId, submissionId, expiresAt: expiry })
    .onConflictDoUpdate({
      target: judgeClaims.judgeId,
      set: { submissionId, expiresAt: expiry },
      setWhere: sql`${judgeClaims.submissionId} <> excluded.submission_id or ${judgeClaims.expiresAt} <= now()`,
    });
}

/** A score ends the scoring judge's claim on that submission (from any screen or the API): the statement, for its transaction. */
export const endClaim = prebuilt(["judgeId", "submissionId"], ({ judgeId, submissionId }) => sql`delete from ${judgeClaims} where ${judgeClaims.judgeId} = ${judgeId} and ${judgeClaims.submissionId} = ${submissionId}`);

/** The judge is still working on it: another CLAIM_MINUTES. False when they no longer hold it. */
export async function renewClaim(judgeId: number, submissionId: number): Promise<boolean> {
  const rows = await getDb()
    .update(judgeClaims)
    .set({ expiresAt: expiry })
    .where(and(eq(judgeClaims.judgeId, judgeId), eq(judgeClaims.submissionId, submissionId), gt(judgeClaims.expiresAt, sql`now()`)))
    .returning({ judgeId: judgeClaims.judgeId });
  return rows.length > 0;
}

export async function releaseClaim(judgeId: number): Promise<void> {
  await getDb().delete(judgeClaims).where(eq(judgeClaims.judgeId, judgeId));
}

/**
 * The submission to hand a judge who opened the workspace without one: the next after `afterId` (a skip or
 * a score), else the oldest, round to the start; with N judges a submission (`shared`), one nobody else
 * holds, claimed. None left: their claim, if any, is released. The caller pins the answer in the page's
 * address, so that the page re-reading itself never swaps it.
 */
export async function handOut(judgeId: number, filter: QueueFilter, afterId: number | undefined, shared: boolean): Promise<number | null> {
  const [after, head] = await Promise.all([afterId === undefined ? [] : judgeQueue(judgeId, filter, 20, afterId), judgeQueue(judgeId, filter, 20)]);
  const candidates = [...new Set([...after, ...head].map((item) => item.id))].filter((id) => id !== afterId);
  const handed = shared ? await claimFirstAvailable(judgeId, candidates) : (candidates[0] ?? null);
  if (handed === null && shared) await releaseClaim(judgeId);
  return handed;
}
