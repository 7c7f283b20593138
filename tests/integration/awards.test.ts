/**
 * Manual awards (docs/domain.md "Scoring and standings", Awards): one transaction writes the award, the
 * outbox mark and the audit record; the standings job and the full rebuild count it in the team's total
 * and its category (never in a user's statistics or a solved count); the chart gets a step; revoking
 * takes the points back; the freeze treats an award like a score.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { auditLog, awards, standings, standingsHistory, standingsOutbox, userStatistics } from "../../db/schema.ts";
import { AwardError, giveAward, listAwards, revokeAward, teamAwards } from "../../app/modules/awards/awards.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getStatus } from "../../app/modules/participant/status.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { getScoreChart } from "../../app/modules/standings/history.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { getScoreboard } from "../../app/modules/standings/scoreboard.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { action as awardsAction } from "../../app/routes/dashboard.awards.tsx";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { answerOf, callRoute } from "../support/route-manifest.ts";
import { send } from "../support/api.ts";
import * as teamAwardsApi from "../../app/routes/api.v1.teams.$id.awards.tsx";
import { expectStandingsMatchRebuild } from "../support/standings.ts";

afterAll(() => closeEmitter());

const m = messages.awards;

async function adminActor() {
  const admin = await makeUser("admin");
  return { admin, actor: actorFor(admin.id, admin.name, "admin") };
}

async function standingOf(teamId: number) {
  const [row] = await getDb().select().from(standings).where(eq(standings.teamId, teamId));
  return row;
}

async function auditOf(subjectId: number) {
  return getDb().select().from(auditLog).where(and(eq(auditLog.subjectId, subjectId)));
}

describe("awards in the standings", () => {
  it("move the board (total and category), exactly as a rebuild says; revoking brings it back", async () => {
    await ensureEventSettings();
    const { actor } = await adminActor();
    const judge = await makeUser("judge");
    const [scorer, awarded] = [await makeTeam(), await makeTeam()];
    const challenge = await makeChallenge({ points: 100, category: "AI" });
    const submission = await makeSubmission(scorer.id, challenge.id, null);
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "70" });
    await rebuildStandings();
    expect(await standingOf(scorer.id)).toMatchObject({ totalCenti: 7000, aiCenti: 7000, solvedCount: 1 });

    // +80.25 in CS: the awarded team passes the scorer.
    const given = await giveAward(actor, { teamId: awarded.id, points: "80.25", category: "CS", reason: "Best demo" });
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, awarded.id))).toHaveLength(1);
    await recomputeTeamStanding(awarded.id);
    expect(await standingOf(awarded.id)).toMatchObject({ totalCenti: 8025, csCenti: 8025, aiCenti: 0, solvedCount: 0 });
    expect((await standingOf(awarded.id)).totalReachedAt.getTime()).toBe(given.createdAt.getTime());
    let board = (await expectStandingsMatchRebuild()).filter((row) => row.teamId === scorer.id || row.teamId === awarded.id);
    expect(board.map((row) => row.teamId)).toEqual([awarded.id, scorer.id]);

    // -20.5 without a category: the scorer's total only; its AI points and solved count stay.
    const penalty = await giveAward(actor, { teamId: scorer.id, points: "-20.5", reason: "Late to the stand-up" });
    await recomputeTeamStanding(scorer.id);
    expect(await standingOf(scorer.id)).toMatchObject({ totalCenti: 4950, aiCenti: 7000, csCenti: 0, psCenti: 0, gdCenti: 0, solvedCount: 1 });
    await expectStandingsMatchRebuild();

    // Revoking: the points leave, the reached-at time is the revoke's.
    const revoked = await revokeAward(actor, given.id);
    await recomputeTeamStanding(awarded.id);
    expect(await standingOf(awarded.id)).toMatchObject({ totalCenti: 0, csCenti: 0 });
    expect((await standingOf(awarded.id)).totalReachedAt.getTime()).toBe(revoked.revokedAt.getTime());
    board = (await expectStandingsMatchRebuild()).filter((row) => row.teamId === scorer.id || row.teamId === awarded.id);
    expect(board.map((row) => row.teamId)).toEqual([scorer.id, awarded.id]);

    await revokeAward(actor, penalty.id);
    await recomputeTeamStanding(scorer.id);
    expect(await standingOf(scorer.id)).toMatchObject({ totalCenti: 7000, aiCenti: 7000 });
    await expectStandingsMatchRebuild();
  });

  it("is a tie-break change: of two teams on the same total, the one awarded last is behind", async () => {
    const { actor } = await adminActor();
    const [first, second] = [await makeTeam(), await makeTeam()];
    await giveAward(actor, { teamId: second.id, points: "5", reason: "Helped another team" });
    await giveAward(actor, { teamId: first.id, points: "5", reason: "Helped another team" });
    await recomputeTeamStanding(second.id);
    await recomputeTeamStanding(first.id);
    const board = (await expectStandingsMatchRebuild()).filter((row) => row.teamId === first.id || row.teamId === second.id);
    // The lower id (first) would win a tie on the creation time; the earlier award wins instead.
    expect(board.map((row) => row.teamId)).toEqual([second.id, first.id]);
  });

  it("leave the Users Rank statistics alone", async () => {
    const { actor } = await adminActor();
    const judge = await makeUser("judge");
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ points: 100, category: "PS" });
    const submission = await makeSubmission(team.id, challenge.id, member.id);
    await scoreSubmission({ submissionId: submission.id, judge: actorFor(judge.id), score: "90" });
    await recomputeTeamStanding(team.id);
    const statsOf = async () => (await getDb().select().from(userStatistics).where(eq(userStatistics.userId, member.id))).map(({ updatedAt: _u, ...row }) => row);
    const before = await statsOf();
    expect(before).toMatchObject([{ totalCenti: 9000, psCenti: 9000, psSolved: 1 }]);

    const award = await giveAward(actor, { teamId: team.id, points: "1000", category: "PS", reason: "Judges' favourite" });
    await recomputeTeamStanding(team.id);
    expect(await standingOf(team.id)).toMatchObject({ totalCenti: 109000, psCenti: 109000, solvedCount: 1 });
    expect(await statsOf()).toEqual(before);
    await revokeAward(actor, award.id);
    await recomputeTeamStanding(team.id);
    expect(await statsOf()).toEqual(before);
    await expectStandingsMatchRebuild();
  });

  it("draw a step on the chart at the moment of the award and of its revoke", async () => {
    await ensureEventSettings();
    const { actor } = await adminActor();
    const team = await makeTeam();
    await getDb().transaction(async (tx) => {
      const { markStandingsStale } = await import("../../app/modules/standings/outbox.server.ts");
      await markStandingsStale(tx, team.id);
    });
    await recomputeTeamStanding(team.id);
    const given = await giveAward(actor, { teamId: team.id, points: "12.5", reason: "Clean code" });
    await recomputeTeamStanding(team.id);
    const revoked = await revokeAward(actor, given.id);
    await recomputeTeamStanding(team.id);

    const history = await getDb().select().from(standingsHistory).where(eq(standingsHistory.teamId, team.id));
    expect(history.map((row) => [row.totalCenti, row.at.getTime()])).toEqual([
      [0, team.createdAt.getTime()],
      [1250, given.createdAt.getTime()],
      [0, revoked.revokedAt.getTime()],
    ]);
    const { chart } = await getScoreChart({ teams: [{ id: team.id, name: team.name }], frozenFor: null });
    expect(chart.series[0].points).toEqual([
      [team.createdAt.getTime(), 0],
      [given.createdAt.getTime(), 12.5],
      [revoked.revokedAt.getTime(), 0],
    ]);
  });

  it("move the frozen board like a score: participants see it as frozen, the team its own points live", async () => {
    await ensureEventSettings();
    const { actor } = await adminActor();
    const [mine, theirs] = [await makeTeam(), await makeTeam()];
    const me = await makeUser("participant", mine.id);
    await rebuildStandings();
    await setScoreboardFrozen(testAdmin, true);
    try {
      await giveAward(actor, { teamId: theirs.id, points: "40", category: "GD", reason: "Poster" });
      await giveAward(actor, { teamId: mine.id, points: "15", category: "AI", reason: "Bug report" });
      await recomputeTeamStanding(theirs.id);
      await recomputeTeamStanding(mine.id);

      const board = await getScoreboard({ id: me.id, role: "participant", teamId: mine.id });
      expect(board.frozen).toBe(true);
      expect(board.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(0);
      expect(board.teams.find((team) => team.id === mine.id)).toMatchObject({ totalScore: 15, categories: { AI: 15, CS: 0, PS: 0, GD: 0 } });
      const adminBoard = await getScoreboard({ id: 1, role: "admin", teamId: null });
      expect(adminBoard.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(40);

      const status = await getStatus({ id: me.id, role: "participant", teamId: mine.id });
      const statusBoard = JSON.parse(status.board.teamsJson) as Array<{ id: number; totalScore: number }>;
      expect(status.board).toMatchObject({ frozen: true, live: false, ownTeamId: mine.id });
      expect(statusBoard.find((team) => team.id === mine.id)?.totalScore).toBe(15);
      expect(statusBoard.find((team) => team.id === theirs.id)?.totalScore).toBe(0);
      expect(status.awards.map((award) => [award.points, award.category, award.reason])).toEqual([[15, "AI", "Bug report"]]);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
    const after = await getScoreboard({ id: me.id, role: "participant", teamId: mine.id });
    expect(after.teams.find((team) => team.id === theirs.id)?.totalScore).toBe(40);
  });
});

describe("giving and revoking", () => {
  it("leaves exactly one audit record per give and per revoke, written in the change's transaction", async () => {
    const { admin, actor } = await adminActor();
    const team = await makeTeam();
    const award = await giveAward(actor, { teamId: team.id, points: "-3.75", category: "PS", reason: "Noise after curfew" });
    let records = await auditOf(award.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: "award.given",
      actorId: admin.id,
      actorRole: "admin",
      teamId: team.id,
      after: { points: -3.75, category: "PS", reason: "Noise after curfew" },
    });
    // Written by the transaction that wrote the award (Postgres's own transaction id on both rows).
    expect(await writerOf("audit_log", records[0].id)).toBe(await writerOf("awards", award.id));

    const revoked = await revokeAward(actor, award.id);
    records = await auditOf(award.id);
    expect(records).toHaveLength(2);
    const revokeRecord = records.find((record) => record.kind === "award.revoked")!;
    expect(revokeRecord).toMatchObject({
      teamId: team.id,
      before: { points: -3.75, category: "PS", reason: "Noise after curfew", revokedAt: null },
      after: { points: -3.75, category: "PS", reason: "Noise after curfew", revokedAt: revoked.revokedAt.toISOString() },
    });
    expect(await writerOf("audit_log", revokeRecord.id)).toBe(await writerOf("awards", award.id));

    // A second revoke is refused (409) and writes nothing.
    const again = await revokeAward(actor, award.id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(AwardError);
    expect(again).toMatchObject({ status: 409, message: m.alreadyRevoked });
    expect(await auditOf(award.id)).toHaveLength(2);
    const [row] = await getDb().select().from(awards).where(eq(awards.id, award.id));
    expect(row).toMatchObject({ revokedBy: admin.id, givenBy: admin.id, pointsCenti: -375 });
  });

  it("refuses bad input and an unknown team or award, and leaves no award, record or outbox mark", async () => {
    const { actor } = await adminActor();
    const team = await makeTeam();
    const refusals: Array<[Parameters<typeof giveAward>[1], string, number, string | undefined]> = [
      [{ teamId: 999_999, points: "10", reason: "Ghost" }, m.teamNotFound, 404, "teamId"],
      [{ teamId: team.id, points: "0", reason: "Nothing" }, m.pointsZero, 400, "points"],
      [{ teamId: team.id, points: "-0.00", reason: "Nothing" }, m.pointsZero, 400, "points"],
      [{ teamId: team.id, points: "ten", reason: "Words" }, m.pointsNotANumber, 400, "points"],
      [{ teamId: team.id, points: "1e3", reason: "Exponent" }, m.pointsNotANumber, 400, "points"],
      [{ teamId: team.id, points: "1.234", reason: "Too precise" }, m.decimals, 400, "points"],
      [{ teamId: team.id, points: "100000.01", reason: "Too many" }, m.pointsRange("100,000"), 400, "points"],
      [{ teamId: team.id, points: "-100001", reason: "Too few" }, m.pointsRange("100,000"), 400, "points"],
      [{ teamId: team.id, points: "", reason: "Empty" }, m.pointsRequired, 400, "points"],
      [{ teamId: team.id, points: "5", reason: "   " }, m.reasonRequired, 400, "reason"],
      [{ teamId: team.id, points: "5", reason: "x".repeat(501) }, m.reasonTooLong(500), 400, "reason"],
      [{ teamId: team.id, points: "5", reason: "Category", category: "XX" as never }, m.categoryInvalid, 400, "category"],
    ];
    for (const [input, message, status, field] of refusals) {
      const error = await giveAward(actor, input).catch((thrown: unknown) => thrown);
      expect(error, JSON.stringify(input)).toBeInstanceOf(AwardError);
      expect(error).toMatchObject({ message, status, field });
    }
    const unknown = await revokeAward(actor, 999_999).catch((thrown: unknown) => thrown);
    expect(unknown).toMatchObject({ status: 404, message: m.notFound });
    expect(await getDb().select().from(awards).where(eq(awards.teamId, team.id))).toEqual([]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.teamId, team.id))).toEqual([]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.teamId, 999_999))).toEqual([]);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });

  it("lists every award newest first for admins, and a team's active ones for its members", async () => {
    const { admin, actor } = await adminActor();
    const [team, other] = [await makeTeam(), await makeTeam()];
    const member = await makeUser("participant", team.id);
    const loner = await makeUser("participant", null);
    const old = await giveAward(actor, { teamId: team.id, points: "+7", reason: "First" });
    const kept = await giveAward(actor, { teamId: team.id, points: "-2.5", category: "GD", reason: "Second" });
    await giveAward(actor, { teamId: other.id, points: "9", reason: "Someone else's" });
    await revokeAward(actor, old.id);

    const listed = (await listAwards()).filter((award) => award.teamId === team.id);
    expect(listed.map((award) => [award.id, award.points, award.category, award.reason, award.givenBy, award.revokedBy, award.revokedAt !== null])).toEqual([
      [kept.id, -2.5, "GD", "Second", admin.name, null, false],
      [old.id, 7, null, "First", admin.name, admin.name, true],
    ]);
    expect((await teamAwards(team.id)).map((award) => [award.id, award.points])).toEqual([[kept.id, -2.5]]);
    expect((await getStatus({ id: member.id, role: "participant", teamId: team.id })).awards.map((award) => award.reason)).toEqual(["Second"]);
    expect((await getStatus({ id: loner.id, role: "participant", teamId: null })).awards).toEqual([]);
  });
});

describe("the awards page's action (a plain form post, no JavaScript)", () => {
  const post = async (cookie: string, fields: Record<string, string>) =>
    answerOf(
      await callRoute({ action: awardsAction as never }, "action", {
        request: new Request("http://localhost/dashboard/awards", {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        }),
        params: {},
        context: {},
      }),
    );

  it("answers a bad field beside it with what was typed kept, gives a good award and revokes it once", async () => {
    const { admin } = await adminActor();
    const cookie = await sessionCookie(admin.id);
    const team = await makeTeam();

    const refused = await post(cookie, { intent: "give", teamId: String(team.id), points: "1.234", category: "CS", reason: "Typed reason" });
    expect(refused.status).toBe(400);
    const reply = refused.body as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.error.points).toEqual([m.decimals]);
    expect(reply.initialValue).toMatchObject({ teamId: String(team.id), points: "1.234", category: "CS", reason: "Typed reason" });

    const gone = await post(cookie, { intent: "give", teamId: "999999", points: "3", reason: "Ghost team" });
    expect(gone.status).toBe(404);
    expect((gone.body as { error: Record<string, string[]> }).error.teamId).toEqual([messages.dashboard.warn(m.teamNotFound)]);

    const given = await post(cookie, { intent: "give", teamId: String(team.id), points: "-4", reason: "Penalty" });
    expect(given).toMatchObject({ status: 302, location: "/dashboard/awards" });
    const [award] = await getDb().select().from(awards).where(eq(awards.teamId, team.id));
    expect(award).toMatchObject({ pointsCenti: -400, category: null, reason: "Penalty", givenBy: admin.id });

    expect(await post(cookie, { intent: "revoke", id: String(award.id) })).toMatchObject({ status: 302, location: "/dashboard/awards" });
    // The second revoke goes back to the page with an error toast; the award keeps its one revoke.
    expect(await post(cookie, { intent: "revoke", id: String(award.id) })).toMatchObject({ status: 302, location: "/dashboard/awards" });
    expect((await auditOf(award.id)).map((record) => record.kind).sort()).toEqual(["award.given", "award.revoked"]);
  });
});

describe("GET /api/v1/teams/{id}/awards", () => {
  it("lists a team's awards that count, to its own members and to staff; another team's members are refused", async () => {
    const { actor } = await adminActor();
    const [team, other] = [await makeTeam(), await makeTeam()];
    const member = await makeUser("participant", team.id);
    const outsider = await makeUser("participant", other.id);
    const revoked = await giveAward(actor, { teamId: team.id, points: "3", reason: "Gone" });
    await revokeAward(actor, revoked.id);
    const kept = await giveAward(actor, { teamId: team.id, points: "-1.5", category: "AI", reason: "Kept" });
    const path = `/teams/${team.id}/awards`;
    const params = { id: String(team.id) };

    const own = await send(teamAwardsApi, "GET", path, { cookie: await sessionCookie(member.id) }, params);
    expect(own.status).toBe(200);
    expect(own.body).toEqual([{ id: kept.id, points: -1.5, category: "AI", reason: "Kept", createdAt: kept.createdAt.toISOString() }]);
    expect((await send(teamAwardsApi, "GET", path, { cookie: await sessionCookie(outsider.id) }, params)).status).toBe(403);
    expect((await send(teamAwardsApi, "GET", path, { cookie: await sessionCookie(actor.id) }, params)).status).toBe(200);
    expect((await send(teamAwardsApi, "GET", "/teams/999999/awards", { cookie: await sessionCookie(actor.id) }, { id: "999999" })).status).toBe(404);
  });
});

/** The Postgres transaction that last wrote a row (its xmin). */
async function writerOf(table: string, id: number): Promise<string> {
  const [row] = await getDb().execute<{ xmin: string }>(sql`select xmin::text as xmin from ${sql.identifier(table)} where id = ${id}`);
  return row.xmin;
}
