/**
 * Where the live path's time goes, from BullMQ's own timestamps of the standings jobs (kept for the
 * last 1,000 completed): when each job was added (the judge's request, after its transaction), when
 * a worker took it, when it finished (Redis snapshot written, event published just after).
 */
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { summarise } from "./env.ts";

export interface Stage {
  /** Judge's POST sent → job added (the action up to its enqueue). */
  requestToEnqueueMs: number;
  /** Job added → a worker starts it. */
  queueWaitMs: number;
  /** The job body. */
  jobMs: number;
}

/** The p50 of each stage over the jobs of teams scored since `since` (absolute ms). */
export async function jobTimeline(sentAt: ReadonlyMap<number, number>, since: number): Promise<Stage & { jobs: number; jobEndAt: Map<number, number> }> {
  const jobs = await getQueue("standings").getJobs(["completed"], 0, 999);
  const byTeam = new Map<number, { added: number; started: number; finished: number }>();
  for (const job of jobs) {
    const teamId = (job.data as { teamId: number }).teamId;
    if (!sentAt.has(teamId) || job.timestamp < since || !job.processedOn || !job.finishedOn) continue;
    // A team's surplus jobs (none expected: one score per team) would end at once; keep the first.
    const known = byTeam.get(teamId);
    if (!known || job.timestamp < known.added) byTeam.set(teamId, { added: job.timestamp, started: job.processedOn, finished: job.finishedOn });
  }
  const entries = [...byTeam.entries()];
  return {
    jobs: entries.length,
    requestToEnqueueMs: summarise(entries.map(([team, job]) => job.added - sentAt.get(team)!)).p50,
    queueWaitMs: summarise(entries.map(([, job]) => job.started - job.added)).p50,
    jobMs: summarise(entries.map(([, job]) => job.finished - job.started)).p50,
    jobEndAt: new Map(entries.map(([team, job]) => [team, job.finished])),
  };
}
