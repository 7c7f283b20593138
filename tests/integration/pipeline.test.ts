/**
 * The event pipeline end to end on real processes: judge score → Postgres (+ outbox) → the team's
 * recompute (in the score's request, or by a BullMQ worker when its team is busy, and for awards and the
 * rest) → Postgres standings + Redis snapshot → Socket.IO (Redis adapter) → clients.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gates, standings, standingsOutbox, submissionScores } from "../../db/schema.ts";
import { giveAward, revokeAward } from "../../app/modules/awards/awards.server.ts";
import { createAnnouncement } from "../../app/modules/announcements/announcements.server.ts";
import { sendNotification } from "../../app/modules/notifications/notifications.server.ts";
import { createRequest } from "../../app/modules/requests/requests.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { getScoreboard } from "../../app/modules/standings/scoreboard.server.ts";
import { updateDivisions } from "../../app/modules/divisions/divisions.server.ts";
import { setTeamDivision } from "../../app/modules/teams/teams.server.ts";
import { readSnapshot, snapshotKeys } from "../../app/modules/standings/snapshot.server.ts";
import { saveSubmission } from "../../app/modules/submissions/submit.server.ts";
import { lockTeam } from "../../app/modules/standings/locks.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { getQueue } from "../../app/infrastructure/queue.server.ts";
import { getRedis } from "../../app/infrastructure/redis.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie, actorFor, testAdmin } from "../support/fixtures.ts";
import { collect, connectSocket, nextEvent, startRealtimeServer, startWorker, stopAll, type TestSocket } from "../support/processes.ts";
import { expectStandingsMatchRebuild, waitForEmptyOutbox } from "../support/standings.ts";


const sockets: TestSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  await closeEmitter();
});

async function socketFor(url: string, userId: number) {
  const socket = await connectSocket(url, await sessionCookie(userId));
  sockets.push(socket);
  return socket;
}

describe("event pipeline", () => {
  let web1: string;
  let web2: string;
  let judge: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    await ensureEventSettings();
    judge = await makeUser("judge");
    admin = await makeUser("admin");
    // Two web processes and two workers sharing this file's Postgres and Redis prefix.
    [{ url: web1 }, { url: web2 }] = await Promise.all([startRealtimeServer(), startRealtimeServer(), startWorker(), startWorker()]);
  }, 60_000);

  it("turns a judge's score into standings in Postgres and Redis and a teams:update on both web processes", async () => {
    const leader = await makeTeam();
    const other = await makeTeam();
    const player = await makeUser("participant", leader.id);
    const rival = await makeUser("participant", other.id);
    const challenge = await makeChallenge({ points: 150, category: "CS" });
    const submission = await makeSubmission(leader.id, challenge.id, player.id);
    await rebuildStandings();

    const onWeb1 = await socketFor(web1, rival.id);
    const onWeb2 = await socketFor(web2, admin.id);
    const update1 = nextEvent(onWeb1, "teams:update", (team) => team.id === leader.id);
    const update2 = nextEvent(onWeb2, "teams:update", (team) => team.id === leader.id);

    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "100.5", comment: "neat" });

    const [[team1], [team2]] = await Promise.all([update1, update2]);
    expect(team1).toEqual(team2);
    expect(team1).toMatchObject({ id: leader.id, name: leader.name, totalScore: 100.5, solvedCount: 1, rank: 1 });
    expect(team1.categories).toEqual({ AI: 0, CS: 100.5, PS: 0, GD: 0 });

    const [row] = await getDb().select().from(standings).where(eq(standings.teamId, leader.id));
    expect(row).toMatchObject({ totalCenti: 10050, csCenti: 10050, solvedCount: 1 });
    const snapshot = await readSnapshot(getRedis());
    expect(snapshot.board[0]).toMatchObject({ id: leader.id, totalScore: 100.5, rank: 1 });
  });

  it("publishes nothing and keeps the board's version when a change leaves the team's standing as it was", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ points: 100, category: "PS", wave: 1 });
    await getDb().insert(gates).values({ number: 1, title: "One", description: "d", opensAt: new Date(Date.now() - 3_600_000) }).onConflictDoNothing();
    await rebuildStandings();
    const watcher = await socketFor(web1, member.id);
    const updates = collect(watcher, "teams:update");
    const versionBefore = await getRedis().get(snapshotKeys.version());

    // A first answer is pending: the team's points, categories and solved count stay where they were.
    const { submissionId } = await saveSubmission({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "our answer", file: null });
    await waitForEmptyOutbox();
    expect(await getRedis().get(snapshotKeys.version())).toBe(versionBefore);

    // A score does change it: its update is the only one this team's watchers ever got.
    const scored = nextEvent(watcher, "teams:update", (standing) => standing.id === team.id);
    await scoreSubmission({ submissionId, judge: actorFor(judge.id), score: "60" });
    const [[update]] = await Promise.all([scored]);
    expect(update).toMatchObject({ id: team.id, totalScore: 60 });
    expect(updates.filter(([standing]) => standing.id === team.id)).toHaveLength(1);
    expect(await getRedis().get(snapshotKeys.version())).not.toBe(versionBefore);
    await expectStandingsMatchRebuild();
  });

  it("carries an award and its revoke through the same job to teams:update, total and category", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    await rebuildStandings();
    const memberSocket = await socketFor(web1, member.id);
    const adminSocket = await socketFor(web2, admin.id);
    const actor = actorFor(admin.id, admin.name, "admin");

    const given = Promise.all([
      nextEvent(memberSocket, "teams:update", (standing) => standing.id === team.id),
      nextEvent(adminSocket, "teams:update", (standing) => standing.id === team.id),
    ]);
    const award = await giveAward(actor, { teamId: team.id, points: "42.5", category: "GD", reason: "Best poster" });
    const [[mine], [admins]] = await given;
    expect(mine).toEqual(admins);
    expect(mine).toMatchObject({ totalScore: 42.5, solvedCount: 0, reachedAt: award.createdAt.toISOString() });
    expect(mine.categories).toEqual({ AI: 0, CS: 0, PS: 0, GD: 42.5 });

    const revoked = nextEvent(memberSocket, "teams:update", (standing) => standing.id === team.id);
    await revokeAward(actor, award.id);
    const [[back]] = await Promise.all([revoked]);
    expect(back).toMatchObject({ totalScore: 0, categories: { AI: 0, CS: 0, PS: 0, GD: 0 } });
    await waitForEmptyOutbox();
    await expectStandingsMatchRebuild();
  });

  it("carries a team's division in its teams:update: a move between divisions and a score on a division's team reach the boards live", async () => {
    const actor = actorFor(admin.id, admin.name, "admin");
    await updateDivisions(actor, ["Student", "Open"]);
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ points: 100, category: "AI" });
    const submission = await makeSubmission(team.id, challenge.id, member.id);
    const onlooker = await makeUser("participant", (await makeTeam()).id);
    await rebuildStandings();
    const watcher = await socketFor(web1, onlooker.id);

    const moved = nextEvent(watcher, "teams:update", (standing) => standing.id === team.id && standing.division === "Student");
    await setTeamDivision(actor, team.id, "student");
    const [[inStudent]] = await Promise.all([moved]);
    expect(inStudent).toMatchObject({ id: team.id, division: "Student", totalScore: 0 });

    const scored = nextEvent(watcher, "teams:update", (standing) => standing.id === team.id && standing.totalScore === 80);
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "80" });
    const [[after]] = await Promise.all([scored]);
    expect(after).toMatchObject({ division: "Student", version: expect.any(Number) });
    expect(after.version).toBeGreaterThan(inStudent.version);

    const left = nextEvent(watcher, "teams:update", (standing) => standing.id === team.id && standing.division === null);
    await setTeamDivision(actor, team.id, null);
    await left;
    await waitForEmptyOutbox();
    await expectStandingsMatchRebuild();
    // The Student board no longer lists it.
    expect((await getScoreboard({ id: admin.id, role: "admin", teamId: null }, "Student")).teams.map((row) => row.id)).not.toContain(team.id);
  });

  it("averages two judges and replaces a judge's own earlier score", async () => {
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ points: 100 });
    const submission = await makeSubmission(team.id, challenge.id, player.id);
    const judge2 = await makeUser("judge");
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "50" });
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge2.id), score: "90" });
    const result = await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "60" });
    expect(result).toMatchObject({ scoreCenti: 7500, status: "reviewed" });
    await waitForEmptyOutbox();
    const [row] = await getDb().select().from(standings).where(eq(standings.teamId, team.id));
    expect(row.totalCenti).toBe(7500);
    expect(row.solvedCount).toBe(1);
  });

  it("refuses an out-of-range or non-numeric score and stores nothing", async () => {
    const team = await makeTeam();
    const challenge = await makeChallenge({ points: 100 });
    const submission = await makeSubmission(team.id, challenge.id, null);
    await expect(scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "100.01" })).rejects.toThrow("The score must be between 0 and 100");
    await expect(scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "lots" })).rejects.toThrow("The score must be a number");
    await expect(scoreSubmission({ submissionId: 999_999, judge: actorFor(judge.id), score: "1" })).rejects.toThrow("This submission no longer exists");
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
    // A score typed as a number is stored with the lock, then checked against the challenge: refused, rolled back.
    expect(await getDb().select().from(submissionScores).where(eq(submissionScores.submissionId, submission.id))).toEqual([]);
  });

  it("delivers announcements and notifications to clients on both web processes; requests to admins only", async () => {
    const team = await makeTeam();
    const player = await makeUser("participant", team.id);
    const playerSocket = await socketFor(web1, player.id);
    const adminSocket = await socketFor(web2, admin.id);
    const playerRequests = collect(playerSocket, "request:new");

    const announced = Promise.all([nextEvent(playerSocket, "new_announcement"), nextEvent(adminSocket, "new_announcement"), nextEvent(playerSocket, "announcement")]);
    await createAnnouncement(actorFor(admin.id, admin.name, "admin"), { title: "Gate 4 opens early", content: "Be ready at 17:00." });
    const [[a1], [a2]] = await announced;
    expect(a1).toMatchObject({ title: "Gate 4 opens early", content: "Be ready at 17:00." });
    expect(a2).toEqual(a1);

    const notified = Promise.all([nextEvent(playerSocket, "notification"), nextEvent(adminSocket, "notification")]);
    await sendNotification(actorFor(admin.id, admin.name, "admin"), "Dinner is served");
    const [[n1], [n2]] = await notified;
    expect(n1.message).toBe("Dinner is served");
    expect(new Date(n1.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(n2).toEqual(n1);

    const requested = nextEvent(adminSocket, "request:new");
    await createRequest("mentor", "We are stuck on the cipher", { userId: player.id, userName: player.name, teamId: team.id, teamName: team.name });
    const [request] = await requested;
    expect(request).toMatchObject({ kind: "mentor", message: "We are stuck on the cipher", team: team.name, user: player.name });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(playerRequests).toEqual([]);
  });

  it("keeps a frozen board for participants: no live updates of other teams, own points live", async () => {
    const mine = await makeTeam();
    const theirs = await makeTeam();
    const me = await makeUser("participant", mine.id);
    const challengeA = await makeChallenge({ points: 100 });
    const challengeB = await makeChallenge({ points: 100 });
    const mySubmission = await makeSubmission(mine.id, challengeA.id, me.id);
    const theirSubmission = await makeSubmission(theirs.id, challengeB.id, null);
    await rebuildStandings();
    await setScoreboardFrozen(testAdmin, true);

    const meSocket = await socketFor(web1, me.id);
    const adminSocket = await socketFor(web2, admin.id);
    const mine1 = collect(meSocket, "teams:update");

    const adminSees = nextEvent(adminSocket, "teams:update", (team) => team.id === theirs.id);
    await scoreSubmission({ submissionId: theirSubmission.id, judge: actorFor(judge.id), score: "99" });
    const [[live]] = await Promise.all([adminSees]);
    expect(live.totalScore).toBe(99);

    const iSeeMine = nextEvent(meSocket, "teams:update", (team) => team.id === mine.id);
    await scoreSubmission({ submissionId: mySubmission.id, judge: actorFor(judge.id), score: "10" });
    const [own] = await iSeeMine;
    expect(own.totalScore).toBe(10);
    expect(mine1.filter(([team]) => team.id === theirs.id)).toEqual([]);

    const board = await getScoreboard({ id: me.id, role: "participant", teamId: mine.id });
    expect(board.frozen).toBe(true);
    expect(board.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(0);
    expect(board.teams.find((team) => team.id === mine.id)?.totalScore).toBe(10);
    const adminBoard = await getScoreboard({ id: admin.id, role: "admin", teamId: null });
    expect(adminBoard.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(99);

    const refreshed = nextEvent(meSocket, "standings:refresh");
    await setScoreboardFrozen(testAdmin, false);
    await refreshed;
    const after = await getScoreboard({ id: me.id, role: "participant", teamId: mine.id });
    expect(after.frozen).toBe(false);
    expect(after.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(99);
  });

  it("ends with exact standings when a worker is killed (-9) while it holds jobs", async () => {
    const doomed = await startWorker({ WORKER_NAME: "doomed", WORKER_CONCURRENCY: "4" });
    // Three workers of 4 slots each: 12 teams whose jobs all park inside the workers (we hold their locks).
    const teamList = await Promise.all(Array.from({ length: 12 }, () => makeTeam()));
    const challenge = await makeChallenge({ points: 100, category: "AI" });
    const submissionList = await Promise.all(teamList.map((team) => makeSubmission(team.id, challenge.id, null)));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const locked = new Promise<void>((resolve) => {
      void getDb().transaction(async (tx) => {
        for (const team of teamList) await lockTeam(tx, team.id);
        resolve();
        await released;
      });
    });
    await locked;
    await Promise.all(submissionList.map((submission, index) => scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: String(10 + index) })));

    const queue = getQueue("standings");
    const deadline = Date.now() + 15_000;
    let held: string[] = [];
    while (held.length === 0 && Date.now() < deadline) {
      held = (await queue.getActive()).filter((job) => job.processedBy === "doomed").map((job) => String(job.id));
      if (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(held.length).toBeGreaterThan(0);
    doomed.kill("SIGKILL");
    release();

    // The doomed worker's jobs never finish; the outbox rows they left are swept to the live workers.
    await waitForEmptyOutbox(30_000);
    await expectStandingsMatchRebuild();
    const totals = await getDb().select({ teamId: standings.teamId, totalCenti: standings.totalCenti }).from(standings);
    for (const [index, team] of teamList.entries()) {
      expect(totals.find((row) => row.teamId === team.id)?.totalCenti).toBe((10 + index) * 100);
    }
  });
});
