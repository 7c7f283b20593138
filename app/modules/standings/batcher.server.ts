/**
 * Teams' standings recomputed together by this process, as a database groups commits: the first team asked for
 * starts a batch at once; the teams asked for while it runs wait for it and go together in the next one, which
 * begins `gapMs` after it began at the earliest (docs/domain.md "Scoring and standings"). A flag solve asks here
 * (app/modules/flags/guess.server.ts): under a burst, the solves of the moment cost one recompute's round trips and
 * one `teams:batch`, where each used to cost a recompute of its own. The team's outbox row is committed before it is asked for, so a batch that fails, a
 * process that dies with teams waiting, or a Redis that is away leave each team to the queue and the outbox sweep.
 */
import { getLogger } from "../../infrastructure/logger.server.ts";
import { getMetrics } from "../../infrastructure/metrics.server.ts";
import { getRedis } from "../../infrastructure/redis.server.ts";
import { within } from "../../infrastructure/deadline.ts";
import { requestStandingsRecompute } from "./outbox.server.ts";
import { recomputeTeamsInBatch } from "./recompute.server.ts";

/** Teams at most in one batch (one statement reads them all). */
const MAX_BATCH = 250;
/**
 * `withinMs`: a batch's lock waits (its users' locks; rows its writes need: the outbox's, a team's row an admin's
 * edit holds) and its Redis placements, at most this each, then it rolls back and the queue takes its teams.
 * `allMs`: the whole batch, at most this; then its teams are handed to the queue and the next batch begins; the late
 * one's statements each end within it too (`statement_timeout`), so it cannot hold a connection and locks for long.
 * `gapMs`: a batch begins this long after the one before it began, at the earliest. Each batch is one event to every
 * socket of every web process, and those writes are the largest share of a web process's CPU under a burst of
 * solves (decision 049): the solves of the gap go in one batch and one event. A solve after a quiet moment waits
 * for nothing.
 * A test may change them (each test file has its own module).
 */
export const BATCH_LIMITS = { withinMs: 2000, allMs: 5000, gapMs: 250 };

/** The teams waiting for this process's next batch (tests). */
export function teamsWaitingForBatch(): number {
  return waiting.size;
}

/** The teams asked for since the running batch began, each with its askers' callbacks. */
const waiting = new Map<number, Array<() => void>>();
let running = false;
/** When this process's last batch began (performance.now()); the next begins `gapMs` after it at the earliest. */
let lastBegan = -Infinity;

/**
 * Asks for the team's standing to be recomputed with the others asked for meanwhile; resolves once the batch that
 * took it has committed and published (or failed and handed it to the queue), or after `atMostMs`, whichever comes
 * first (0: at once, the batch to come). Never rejects. Redis away: nothing to place the team in, so it resolves at
 * once and the outbox sweep takes it.
 */
export function recomputeWithOthers(teamId: number, { atMostMs }: { atMostMs: number }): Promise<void> {
  if (getRedis().status !== "ready") {
    getMetrics().scoreStandings().inc({ path: "not_queued" });
    return Promise.resolve();
  }
  if (atMostMs <= 0) {
    ask(teamId, () => undefined);
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, atMostMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    ask(teamId, done);
  });
}

/** Puts the team in the next batch, with what to call once it is done; starts the batches if none runs. */
function ask(teamId: number, done: () => void) {
  const askers = waiting.get(teamId);
  if (askers) askers.push(done);
  else waiting.set(teamId, [done]);
  if (running) return;
  running = true;
  // Not before the answers that arrived with this one have asked too.
  setImmediate(() =>
    runBatches().catch((error: unknown) => {
      getLogger().error({ err: error }, "the standings batches stopped; the outbox sweep takes their teams");
    }),
  );
}

async function runBatches() {
  try {
    while (waiting.size > 0) {
      // Batches `gapMs` apart at least: under a burst the solves of the gap share one batch and one event.
      const wait = lastBegan + BATCH_LIMITS.gapMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastBegan = performance.now();
      const batch = [...waiting.entries()].slice(0, MAX_BATCH);
      for (const [teamId] of batch) waiting.delete(teamId);
      // In id order, as the batch's results come.
      const teamIds = batch.map(([teamId]) => teamId).sort((a, b) => a - b);
      getMetrics().standingsBatch().observe(teamIds.length);
      try {
        // Its teams' locks are only tried: a team whose recompute runs elsewhere (a dynamic challenge's round, a job)
        // or a board held by a rebuild or a freeze is the queue's, and no verdict waits for them.
        let busy = teamIds;
        try {
          // Redis lost the board: no rebuild in a web process's batch (the queue's job does it).
          const recomputed = recomputeTeamsInBatch(teamIds, null, { withinMs: BATCH_LIMITS.withinMs, statementMs: BATCH_LIMITS.allMs, tryLocks: true, rebuildIfLost: false });
          const results = await within(recomputed, BATCH_LIMITS.allMs, `the batch: not done within ${BATCH_LIMITS.allMs} ms`);
          busy = teamIds.filter((_, index) => results[index].status === "busy");
        } catch (error) {
          getLogger().warn({ err: error, teams: teamIds.length, teamId: teamIds[0] }, "standings not recomputed in the process's batch; handed to the queue");
        }
        getMetrics().scoreStandings().inc({ path: "batch" }, teamIds.length - busy.length);
        if (busy.length > 0) getMetrics().scoreStandings().inc({ path: (await requestStandingsRecompute(busy)) ? "queued" : "not_queued" }, busy.length);
      } finally {
        for (const [, askers] of batch) for (const done of askers) done();
      }
    }
  } finally {
    running = false;
  }
}
