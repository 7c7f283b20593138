/**
 * Recomputes that meet. A user credited on two teams (a member who moved after submitting) has statistics
 * written by the recompute of each team, and the two hold different team locks. Without more, the recompute
 * that read first could write last, putting older figures over newer ones until the next change. The user
 * locks (lockUsersSql, app/modules/standings/locks.ts) make the second wait for the first's commit. And a
 * recompute's reads go out with its locks but run after them (app/modules/standings/recompute.server.ts).
 */
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { submissions, userStatistics } from "../../db/schema.ts";
import { markStandingsStale } from "../../app/modules/standings/outbox.server.ts";
import { lockTeam } from "../../app/modules/standings/locks.ts";
import { recomputeTeamStanding, recomputeTeamsTogether } from "../../app/modules/standings/recompute.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getEnv } from "../../app/infrastructure/env.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser } from "../support/fixtures.ts";

afterAll(() => closeEmitter());

async function scored(teamId: number, challengeId: number, userId: number, scoreCenti: number) {
  const submission = await makeSubmission(teamId, challengeId, userId);
  await getDb().update(submissions).set({ scoreCenti, status: "reviewed", scoredAt: new Date() }).where(eq(submissions.id, submission.id));
}

async function statisticsOf(userId: number) {
  const [row] = await getDb().select().from(userStatistics).where(eq(userStatistics.userId, userId));
  return row?.totalCenti ?? null;
}

/** Until `done` settles or a backend of this database waits on a lock of `kind` ("advisory", "transactionid"). */
async function settledOrWaiting(done: Promise<unknown>, kind: string) {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  const deadline = Date.now() + 10_000;
  while (!settled && Date.now() < deadline) {
    const [row] = await getDb().execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = ${kind}`,
    );
    if (Number(row?.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!settled) throw new Error(`neither settled nor waiting on a ${kind} lock within 10 s`);
}

describe("a user credited on two teams", () => {
  it("keeps the newest statistics when both teams are recomputed at once", async () => {
    await ensureEventSettings();
    const [first, second] = [await makeTeam(), await makeTeam()];
    // The first team's member, made first (the lower id: its row is written before the mover's).
    const stays = await makeUser("participant", first.id);
    const moved = await makeUser("participant", second.id);
    const [one, two] = [await makeChallenge({ points: 100 }), await makeChallenge({ points: 100 })];
    await scored(first.id, one.id, stays.id, 1000);
    // The mover's submission from when they were on the first team.
    await scored(first.id, two.id, moved.id, 2000);
    for (const team of [first, second]) {
      await markStandingsStale(getDb(), team.id);
      await recomputeTeamStanding(team.id);
    }
    expect(await statisticsOf(moved.id)).toBe(2000);

    // Another connection holds the staying member's statistics row: the first team's recompute reads, then
    // stops at its write of that row, the row before the mover's.
    const holder = postgres(getEnv().DATABASE_URL, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    try {
      const holding = holder.begin(async (tx) => {
        await tx`select 1 from user_statistics where user_id = ${stays.id} for update`;
        await released;
      });
      await markStandingsStale(getDb(), first.id);
      const firstTeam = recomputeTeamStanding(first.id);
      await settledOrWaiting(firstTeam, "transactionid");

      // Now the mover scores on their new team, and that team is recomputed: with the user lock it waits for
      // the first team's commit; without it, it would write 3,000 now and be overwritten with 2,000.
      await scored(second.id, one.id, moved.id, 1000);
      await markStandingsStale(getDb(), second.id);
      const secondTeam = recomputeTeamStanding(second.id);
      await settledOrWaiting(secondTeam, "advisory");

      release();
      await holding;
      await Promise.all([firstTeam, secondTeam]);
    } finally {
      release();
      await holder.end({ timeout: 1 });
    }
    expect(await statisticsOf(moved.id)).toBe(3000);
    expect(await statisticsOf(stays.id)).toBe(1000);
  });
});

describe("a user credited on two teams, in one batch or apart", () => {
  it("counts both teams' answers, whether the other team is in the batch or not", async () => {
    await ensureEventSettings();
    const [first, second, third] = [await makeTeam(), await makeTeam(), await makeTeam()];
    const moved = await makeUser("participant", second.id);
    const [one, two] = [await makeChallenge({ points: 100 }), await makeChallenge({ points: 100 })];
    // The mover's answer from when they were on the first team, and their answer on the new one.
    await scored(first.id, one.id, moved.id, 2000);
    await scored(second.id, two.id, moved.id, 3000);
    // The two teams in one batch: the mover's answer on the first team is among the batch's answers.
    for (const team of [first, second, third]) await markStandingsStale(getDb(), team.id);
    await recomputeTeamsTogether([first.id, second.id, third.id]);
    expect(await statisticsOf(moved.id)).toBe(5000);
    // The new team alone: the answer on the first team is read as one outside the batch.
    await scored(second.id, one.id, moved.id, 1000);
    await markStandingsStale(getDb(), second.id);
    await recomputeTeamsTogether([second.id, third.id]);
    expect(await statisticsOf(moved.id)).toBe(6000);
  });
});

describe("a recompute that waits for its team's lock", () => {
  it("reads once the lock is held: its standing's version is newer than anything taken while it waited", async () => {
    await ensureEventSettings();
    const team = await makeTeam();
    const challenge = await makeChallenge({ points: 100 });
    await scored(team.id, challenge.id, (await makeUser("participant", team.id)).id, 1000);
    await markStandingsStale(getDb(), team.id);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let takenWhileWaiting = 0;
    let recompute: ReturnType<typeof recomputeTeamStanding> | undefined;
    await getDb().transaction(async (tx) => {
      await lockTeam(tx, team.id);
      recompute = recomputeTeamStanding(team.id);
      await settledOrWaiting(recompute, "advisory");
      // A version taken (as another recompute of the team would) while this one waits for the lock.
      const [row] = await tx.execute<{ version: string }>(sql`select nextval('standings_outbox_version_seq')::text as version`);
      takenWhileWaiting = Number(row.version);
      release();
      await released;
    });
    const result = await recompute!;
    expect(result.status).toBe("updated");
    // Read before the lock was held, it would be older, and clients, which keep a team's newest version, would drop it.
    expect(result.status === "updated" && result.team.version).toBeGreaterThan(takenWhileWaiting);
  });
});
