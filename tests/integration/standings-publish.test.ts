/**
 * When the standings job publishes `teams:update`: only when what clients are shown of the team changed since
 * the last committed job (standings.shown), decided in Postgres so that a job rolled back after it had already
 * placed the team in Redis still publishes on its retry. Counted by the process's own emit counter
 * (gatekeeper_live_events_emitted_total): the job runs here, in this process.
 *
 * And where a judge's score is recomputed: in its own request, or, when its team or the board is busy, by a
 * queued job (app/modules/standings/recompute.server.ts, changeTeamThenRecompute).
 */
import { Socket } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { standings, standingsOutbox, submissionScores, teams, userStatistics } from "../../db/schema.ts";
import { prebuilt, rowsOf, sendInOrder } from "../../db/in-order.ts";
import { closeDb, getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getMetrics } from "../../app/infrastructure/metrics.server.ts";
import { within } from "../../app/infrastructure/deadline.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { changeTeamThenRecompute, recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { computeAllStandings, rebuildStandings, toBoard } from "../../app/modules/standings/rebuild.server.ts";
import { lockBoardExclusive } from "../../app/modules/standings/locks.ts";
import { markStandingsStale, markTeamStale, nextStandingsVersion } from "../../app/modules/standings/outbox.server.ts";
import { placeAndRemoveTeams, placeTeam, readSnapshot, removeTeamFromSnapshot, snapshotKeys, StalePlacementError } from "../../app/modules/standings/snapshot.server.ts";
import { updateTeam } from "../../app/modules/teams/teams.server.ts";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";
import { whileTeamsLocked } from "../support/standings.ts";
import { LOCK_CLASS } from "../../db/advisory-locks.ts";

afterAll(() => closeEmitter());

async function teamUpdatesEmitted(): Promise<number> {
  const { values } = await getMetrics().eventsEmitted().get();
  return values.find((value) => value.labels.event === "teams:update")?.value ?? 0;
}

/** A judge, and a team with one unscored submission (a 100-point challenge), on a freshly built board. */
async function teamWithSubmission() {
  await ensureEventSettings();
  const judge = await makeUser("judge");
  const challenge = await makeChallenge({ points: 100 });
  const team = await makeTeam();
  const submission = await makeSubmission(team.id, challenge.id, null);
  await rebuildStandings();
  return { judge, team, submission };
}

describe("the standings job's teams:update", () => {
  it("is not sent when nothing shown changed, and is sent on the retry of a job rolled back after its Redis placement", async () => {
    const { judge, team, submission } = await teamWithSubmission();

    // Nothing changed: no event, the board's version where it was.
    const version = await getRedis().get(snapshotKeys.version());
    let emitted = await teamUpdatesEmitted();
    await getDb().transaction((tx) => markStandingsStale(tx, team.id));
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated" });
    expect(await teamUpdatesEmitted()).toBe(emitted);
    expect(await getRedis().get(snapshotKeys.version())).toBe(version);

    // A score (its team busy: no recompute in the request), and a first attempt of its job that placed the team in
    // Redis and then rolled back: Redis holds the new figures, Postgres the old. The retry finds Redis already as
    // it would write it, and still publishes.
    await whileTeamsLocked([team.id], () => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "70" }));
    // Its version from the sequence, as the rolled-back attempt's was: lower than the retry's.
    const computed = await getDb().transaction((tx) => computeAllStandings(tx));
    const [ahead] = toBoard(computed.standings.filter((row) => row.teamId === team.id), await nextStandingsVersion(getDb()));
    await placeTeam(getRedis(), ahead, 7000);
    emitted = await teamUpdatesEmitted();
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 70 } });
    expect(await teamUpdatesEmitted()).toBe(emitted + 1);
    expect((await readSnapshot(getRedis())).board.find((row) => row.id === team.id)).toMatchObject({ totalScore: 70 });

    // A rename changes what is shown (points unchanged): one event.
    emitted = await teamUpdatesEmitted();
    await updateTeam(testAdmin, team.id, { name: `${team.name}-renamed` });
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { name: `${team.name}-renamed` } });
    expect(await teamUpdatesEmitted()).toBe(emitted + 1);
    const [row] = await getDb().select({ shown: standings.shown }).from(standings).where(eq(standings.teamId, team.id));
    expect(JSON.parse(row.shown!)).toMatchObject({ id: team.id, name: `${team.name}-renamed`, totalScore: 70 });
  });
});

describe("a team's placement in Redis", () => {
  /** The team's standing as a recompute would place it, at a version of our choosing. */
  async function standingAt(teamId: number, version: number) {
    const computed = await getDb().transaction((tx) => computeAllStandings(tx));
    const [standing] = toBoard(computed.standings.filter((each) => each.teamId === teamId), version);
    return standing;
  }
  const onBoard = async (teamId: number) => (await readSnapshot(getRedis())).board.find((each) => each.id === teamId);

  it("goes with the batch's others in one pipeline: a refused one is thrown as alone, and the others land", async () => {
    const first = await teamWithSubmission();
    const second = await teamWithSubmission();
    const third = await teamWithSubmission();
    await whileTeamsLocked([first.team.id, second.team.id], async () => {
      await scoreSubmission({ submissionId: first.submission.id, judge: actorFor(first.judge.id), score: "70" });
      await scoreSubmission({ submissionId: second.submission.id, judge: actorFor(second.judge.id), score: "40" });
    });
    const [earlier, later, secondAt, removal] = [
      await nextStandingsVersion(getDb()),
      await nextStandingsVersion(getDb()),
      await nextStandingsVersion(getDb()),
      await nextStandingsVersion(getDb()),
    ];
    await placeTeam(getRedis(), await standingAt(first.team.id, later), 7000);
    expect(await onBoard(third.team.id)).toBeDefined();
    // The stale placement second, between a placement and a removal that both land.
    const batch = [
      { team: await standingAt(second.team.id, secondAt), totalCenti: 4000, own: null },
      { team: { ...(await standingAt(first.team.id, earlier)), totalScore: 0 }, totalCenti: 0, own: null },
    ];
    const refused = placeAndRemoveTeams(getRedis(), batch, [{ teamId: third.team.id, version: removal }]);
    await expect(refused).rejects.toBeInstanceOf(StalePlacementError);
    await expect(refused).rejects.toThrow(`team ${first.team.id} `);
    expect(await onBoard(first.team.id)).toMatchObject({ totalScore: 70, version: later });
    expect(await onBoard(second.team.id)).toMatchObject({ totalScore: 40, version: secondAt });
    expect(await onBoard(third.team.id)).toBeUndefined();
  });

  it("is refused, writing nothing, when a later version was placed or removed for the team (a rolled-back recompute's command arriving late)", async () => {
    const { judge, team, submission } = await teamWithSubmission();
    await whileTeamsLocked([team.id], () => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "70" }));
    // Versions in the order the sequence gave them out.
    const versions: number[] = [];
    for (let i = 0; i < 6; i++) versions.push(await nextStandingsVersion(getDb()));
    const [earlier, later, between, latest, beforeRemoval, removal] = versions;
    const newer = await standingAt(team.id, later);
    await placeTeam(getRedis(), newer, 7000);
    const version = await getRedis().get(snapshotKeys.version());

    // An older placement of other figures: refused; the board and its version as they were.
    const stale = { ...(await standingAt(team.id, earlier)), name: `${team.name} as it was`, totalScore: 0, categories: { AI: 0, CS: 0, PS: 0, GD: 0 } };
    await expect(placeTeam(getRedis(), stale, 0)).rejects.toBeInstanceOf(StalePlacementError);
    expect(await onBoard(team.id)).toMatchObject({ name: team.name, totalScore: 70, version: later });
    expect(await getRedis().get(snapshotKeys.version())).toBe(version);
    // The same version again (a retry of the same placement) is taken.
    await placeTeam(getRedis(), newer, 7000);

    // Placed again unchanged at a later version: its stored JSON keeps `later`, and still nothing older than `latest`
    // lands after it.
    await placeTeam(getRedis(), { ...newer, version: latest }, 7000);
    expect(await onBoard(team.id)).toMatchObject({ version: later });
    await expect(placeTeam(getRedis(), { ...stale, version: between }, 0)).rejects.toBeInstanceOf(StalePlacementError);
    expect(await onBoard(team.id)).toMatchObject({ name: team.name, totalScore: 70 });

    // Removed (a deleted team): a placement from before the removal does not bring it back.
    await removeTeamFromSnapshot(getRedis(), team.id, removal);
    await expect(placeTeam(getRedis(), { ...newer, version: beforeRemoval }, 7000)).rejects.toBeInstanceOf(StalePlacementError);
    expect(await onBoard(team.id)).toBeUndefined();

    // A rebuild marks every team at its version, and a team it did not place (deleted) at it too.
    await rebuildStandings();
    expect(await onBoard(team.id)).toMatchObject({ totalScore: 70 });
    await expect(placeTeam(getRedis(), { ...newer, id: team.id + 1_000_000, version: latest }, 7000)).rejects.toBeInstanceOf(StalePlacementError);
    // A removal from before the rebuild arriving late takes nothing off.
    await removeTeamFromSnapshot(getRedis(), team.id, removal);
    expect(await onBoard(team.id)).toMatchObject({ totalScore: 70 });

    // The team's own recompute after all this takes a version later than any: placed, not refused.
    await getDb().transaction((tx) => markStandingsStale(tx, team.id));
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 70 } });
  });

  it("gets versions from a sequence that caches none, so versions grow in the order they are taken, whichever connection takes them", async () => {
    const [row] = await getDb().execute<{ cache: string }>(sql`select cache_size::text as cache from pg_sequences where sequencename = 'standings_outbox_version_seq'`);
    expect(row.cache).toBe("1");
  });

  it("that is waited for and found older than Redis's (the sequence went back: a restore) rebuilds the board, then places the team", async () => {
    const { judge, team, submission } = await teamWithSubmission();
    await whileTeamsLocked([team.id], () => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "70" }));
    // Redis marked at a version the sequence has not reached.
    await placeTeam(getRedis(), { ...(await standingAt(team.id, 1_000_000_000_000)), totalScore: 0 }, 0);
    expect(await onBoard(team.id)).toMatchObject({ totalScore: 0 });

    // The rebuild put the team right (and took its outbox row): the recompute after it has nothing left to do.
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "skipped" });
    const placed = await onBoard(team.id);
    expect(placed).toMatchObject({ totalScore: 70 });
    expect(placed!.version).toBeLessThan(1_000_000_000_000);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });
});

describe("a judge's score", () => {
  /** How many scores reached their standings by `path` in this process (gatekeeper_score_standings_total). */
  async function scoresBy(path: "request" | "queued"): Promise<number> {
    const { values } = await getMetrics().scoreStandings().get();
    return values.find((value) => value.labels.path === path)?.value ?? 0;
  }

  /** `work`, failed if it takes over `ms`: a request that waited for a lock it should not wait for. */
  const soonerThan = <T>(ms: number, work: Promise<T>) => within(work, ms, `still waiting after ${ms} ms`);

  /** The standings jobs waiting in the queue for this team (no worker runs in this file). */
  async function jobsFor(teamId: number): Promise<number> {
    const jobs = await getQueue("standings").getJobs(["waiting", "active", "delayed"]);
    return jobs.filter((job) => (job.data as { teamId: number }).teamId === teamId).length;
  }

  it("moves the board in its own request: the team's standing, its place in Redis and its event, no job", async () => {
    const { judge, team, submission } = await teamWithSubmission();
    const emitted = await teamUpdatesEmitted();
    const inRequest = await scoresBy("request");

    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "64.5" });
    expect(await scoresBy("request")).toBe(inRequest + 1);

    // Nothing left to do once the request is over: no outbox row, no job, the board and the event already there.
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
    expect(await jobsFor(team.id)).toBe(0);
    const [row] = await getDb().select({ totalCenti: standings.totalCenti }).from(standings).where(eq(standings.teamId, team.id));
    expect(row.totalCenti).toBe(6450);
    expect((await readSnapshot(getRedis())).board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 64.5 });
    expect(await teamUpdatesEmitted()).toBe(emitted + 1);
  });

  it("writes to Postgres six times: its last statements go out with its COMMIT and the recompute's BEGIN and first statements", async () => {
    const { judge } = await teamWithSubmission();
    const challenge = await makeChallenge({ points: 100 });
    const port = Number(new URL(process.env.DATABASE_URL!).port || 5432);
    const writesToPostgres = async (work: () => Promise<unknown>) => {
      let writes = 0;
      const write = Socket.prototype.write;
      Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
        if (this.remotePort === port) writes++;
        return write.apply(this, args);
      } as Socket["write"];
      try {
        await work();
      } finally {
        Socket.prototype.write = write;
      }
      return writes;
    };
    const score = async () => {
      const team = await makeTeam();
      const submission = await makeSubmission(team.id, challenge.id, null);
      return writesToPostgres(() => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "40" }));
    };
    // Every connection of the pool this file has opened prepares the statements on its first score (their
    // first run takes round trips of its own); the pool takes its open connections in turn.
    for (let warm = 0; warm < 12; warm++) await score();
    // BEGIN, a round trip of its own (postgres.js as published, docs/decisions/037); the lock, the rubric and the
    // judge's score; its last writes with the outbox mark, the COMMIT, the recompute's BEGIN, locks and reads; the
    // recompute's writes (with Redis's placement); its COMMIT, sent once Redis has answered (behind the writes, as
    // a rule, before their answer); the transaction's own COMMIT, of an empty one, after the publish.
    expect(await score()).toBe(6);
  });

  it("keeps nothing when its last statements fail, and leaves no lock held and no job", async () => {
    const { judge, team, submission } = await teamWithSubmission();
    // The audit record of this judge's score is refused (as a failing statement would be).
    await getDb().execute(sql`create or replace function gk_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`);
    await getDb().execute(sql.raw(`create trigger gk_test_refuse before insert on audit_log for each row when (new.actor_id = ${Number(judge.id)}) execute function gk_test_refuse()`));
    try {
      await expect(scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "55" })).rejects.toThrow();
    } finally {
      await getDb().execute(sql`drop trigger gk_test_refuse on audit_log`);
    }
    expect(await getDb().select().from(submissionScores).where(eq(submissionScores.submissionId, submission.id))).toEqual([]);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
    expect(await jobsFor(team.id)).toBe(0);
    // The recompute's transaction, opened with the COMMIT that Postgres ran as a ROLLBACK, was rolled back: its locks are free.
    const [free] = await getDb().execute<{ team: boolean }>(sql`select pg_try_advisory_xact_lock(${LOCK_CLASS.team}, ${team.id}) as team`);
    expect(free.team).toBe(true);
    expect((await readSnapshot(getRedis())).board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 0 });
    // And the judge can score it now.
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "55" });
    expect((await readSnapshot(getRedis())).board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 55 });
  });

  it("keeps nothing when Postgres has forgotten a prepared statement of its last ones (postgres.js would send it again past the COMMIT)", async () => {
    const { team } = await teamWithSubmission();
    const rename = prebuilt(["id", "name"], ({ id, name }) => sql`update teams set name = ${name} where id = ${id}::int`);
    const forgotten = [rename({ id: team.id, name: team.name }), markTeamStale({ teamId: team.id })];
    try {
      const change = changeTeamThenRecompute(async (tx) => {
        // Both of its last statements prepared on this connection, then forgotten by Postgres (as after a
        // DEALLOCATE, or a pooler in between). Unpatched, postgres.js sends each again behind everything already
        // sent: past the COMMIT (run as a ROLLBACK) and the BEGIN, into the recompute's transaction, or never
        // answered behind a statement described first (without the patch and commitOf, this test hangs).
        for (const result of await sendInOrder(tx, forgotten)) rowsOf(result);
        for (const statement of forgotten) {
          const [{ name }] = await tx.execute<{ name: string }>(sql`select name from pg_prepared_statements where statement = ${statement.query.sql}`);
          await tx.execute(sql.raw(`deallocate "${name}"`));
        }
        return { value: "renamed", teamId: team.id, finish: [rename({ id: team.id, name: `${team.name}-renamed` })] };
      });
      await expect(change).rejects.toThrow();
      const [row] = await getDb().select({ name: teams.name }).from(teams).where(eq(teams.id, team.id));
      expect(row.name).toBe(team.name);
      expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
      expect(await jobsFor(team.id)).toBe(0);
      const [free] = await getDb().execute<{ team: boolean }>(sql`select pg_try_advisory_xact_lock(${LOCK_CLASS.team}, ${team.id}) as team`);
      expect(free.team).toBe(true);
    } finally {
      // The pool's connection that forgot them: not left to the tests after this one.
      await closeDb();
    }
  });

  it("leaves its team to the queue when the team's recompute is running elsewhere, and the job still gets it right", async () => {
    const { judge, team, submission } = await teamWithSubmission();

    // The request does not wait for the lock: it returns with the team still marked and a job queued.
    const queued = await scoresBy("queued");
    await whileTeamsLocked([team.id], async () => {
      await soonerThan(5_000, scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "30" }));
      expect(await scoresBy("queued")).toBe(queued + 1);
      expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);
      expect(await jobsFor(team.id)).toBe(1);
    });
    // The job, as a worker runs it once the lock is free.
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 30 } });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
    expect((await readSnapshot(getRedis())).board.find((entry) => entry.id === team.id)).toMatchObject({ totalScore: 30 });
  });

  it("leaves its team to the queue while a rebuild holds the board, without waiting for it", async () => {
    const { judge, team, submission } = await teamWithSubmission();

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const rebuild = getDb().transaction(async (tx) => {
      await lockBoardExclusive(tx);
      held();
      await released;
    });
    await isHeld;
    try {
      await soonerThan(5_000, scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "12" }));
      expect(await jobsFor(team.id)).toBe(1);
    } finally {
      release();
      await rebuild;
    }
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 12 } });
  });

  it("leaves its team to the queue when a row it writes stays locked, after half a second, not for as long as the lock", async () => {
    await ensureEventSettings();
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100 });
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const submission = await makeSubmission(team.id, challenge.id, member.id);
    await rebuildStandings();
    // Another transaction holds the member's statistics row, which the team's recompute rewrites.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const other = getDb().transaction(async (tx) => {
      const rows = await tx.select().from(userStatistics).where(eq(userStatistics.userId, member.id)).for("update");
      expect(rows).toHaveLength(1);
      held();
      await released;
    });
    await isHeld;
    const queued = await scoresBy("queued");
    try {
      await soonerThan(5_000, scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "21" }));
      expect(await scoresBy("queued")).toBe(queued + 1);
      expect(await jobsFor(team.id)).toBe(1);
      expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toHaveLength(1);
    } finally {
      release();
      await other;
    }
    expect(await recomputeTeamStanding(team.id)).toMatchObject({ status: "updated", team: { totalScore: 21 } });
  });
});
