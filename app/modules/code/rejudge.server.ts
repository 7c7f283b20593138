/**
 * What admins do to judging (docs/domain.md "Code challenges"): rejudge one run or every judged run of a challenge
 * (after fixing its tests), a run given up after its judge errors too, and pause or resume every runner at once.
 *
 * A rejudged run goes back to *queued* keeping its last judgement until the new one replaces it: the standings do
 * not flicker while it waits, and the new judgement moves the team's points (both ways) through the outbox. A run's
 * send time stays what it was, so a rejudge never reorders ties. Rejudging every run also bumps the challenge's
 * generation: a run being judged at that moment is queued again by its runner instead of recorded
 * (./runner.server.ts), and is counted here.
 *
 * Pausing pauses the `runs` queue itself (BullMQ): runs are still sent and queued, no runner starts one; the runs
 * being judged finish.
 */
import { and, eq, gte, or, sql } from "drizzle-orm";
import { challenges, codeChallenges, codeRuns } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { enqueueMany, getQueue } from "../../infrastructure/queue.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { messages } from "../messages.ts";
import { broadcastRunChanged } from "../realtime/broadcast.server.ts";
import { CodeError, GIVEN_UP_AFTER_FAILURES } from "./settings.server.ts";

const m = messages.code;

/** Queues again the challenge's judged runs and those given up (or the one run `runId`); returns how many. */
export async function rejudgeRuns(actor: Actor, challengeId: number, runId: number | null = null): Promise<number> {
  const rows = await getDb().transaction(async (tx) => {
    const [challenge] = await tx.select({ checking: challenges.checking }).from(challenges).where(eq(challenges.id, challengeId));
    if (!challenge) throw new CodeError(messages.dashboard.challengeNotFound, { status: 404 });
    if (challenge.checking !== "tests") throw new CodeError(m.notTests, { status: 409 });
    // Taken before the runs: a runner saving a verdict holds this row too (FOR SHARE), so it either saved first (its run
    // is done, and queued again below) or sees the new generation (and queues its run again itself).
    const bumped = runId === null ? await tx.update(codeChallenges).set({ generation: sql`${codeChallenges.generation} + 1` }).where(eq(codeChallenges.challengeId, challengeId)).returning({ id: codeChallenges.challengeId }) : [];
    const rows = await tx
      .update(codeRuns)
      .set({ state: "queued", failures: 0, failure: null, testIndex: null, testCount: null, aliveAt: null })
      // A run given up after its judge errors is taken too: the admins rejudge it once the cause is fixed.
      .where(
        and(
          eq(codeRuns.challengeId, challengeId),
          or(eq(codeRuns.state, "done"), and(eq(codeRuns.state, "queued"), gte(codeRuns.failures, GIVEN_UP_AFTER_FAILURES))),
          runId === null ? sql`true` : eq(codeRuns.id, runId),
        ),
      )
      .returning({ id: codeRuns.id, teamId: codeRuns.teamId });
    if (runId !== null && rows.length === 0) throw new CodeError(m.notJudged, { status: 409 });
    const [judging] =
      bumped.length > 0
        ? await tx.select({ count: sql<number>`count(*)::int` }).from(codeRuns).where(and(eq(codeRuns.challengeId, challengeId), sql`${codeRuns.state} in ('compiling', 'running')`))
        : [{ count: 0 }];
    await recordAudit(tx, actor, { kind: "code.rejudged", subjectId: challengeId, after: { runs: rows.length + judging.count, ...(runId === null ? {} : { run: runId }) } });
    return { rows, judging: judging.count };
  });
  await enqueueMany("runs", rows.rows.map((row) => ({ runId: row.id }))).catch(() => undefined);
  for (const teamId of new Set(rows.rows.map((row) => row.teamId))) broadcastRunChanged(teamId, challengeId);
  return rows.rows.length + rows.judging;
}

/** Whether runners take runs now. */
export async function judgingPaused(): Promise<boolean> {
  return getQueue("runs").isPaused();
}

/** Pauses (true) or resumes (false) every runner; recorded in the audit trail. False: it already was so. */
export async function pauseJudging(actor: Actor, paused: boolean): Promise<boolean> {
  const queue = getQueue("runs");
  if ((await queue.isPaused()) === paused) return false;
  if (paused) await queue.pause();
  else await queue.resume();
  await getDb().transaction((tx) => recordAudit(tx, actor, { kind: paused ? "code.paused" : "code.resumed" }));
  return true;
}
