/**
 * Prediction challenges end to end through the module and the worker's scoring (docs/domain.md "Prediction
 * challenges"), on real Postgres, Redis and S3: labels checked at their upload, files scored with their faults, the
 * daily limit, the private score kept from the team until the reveal, the chosen file, and the standings.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, challenges, eventSettings, predictionChoiceHistory, predictionSubmissions, standings, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter, emitThroughLocalServer, type Broadcast, type EventsMap } from "../../app/infrastructure/emitter.server.ts";
import { deleteChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { pointsCentiOf } from "../../app/modules/predictions/metrics.ts";
import {
  choosePredictions,
  getPredictionChallenge,
  leaderboard,
  ownSubmissions,
  PredictionError,
  predictionsPage,
  revealDueChallenges,
  revealPredictions,
  savePredictionSettings,
  sendPredictions,
} from "../../app/modules/predictions/predictions.server.ts";
import { checkLabels, scoreSubmission } from "../../app/modules/predictions/scoring.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { predictionsPost } from "../../app/glue/predictions.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { actorFor, callerOf, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makePlayer, makeUser } from "../support/fixtures.ts";
import { metricChallenge, predictionsOff, store } from "../support/predictions.ts";

afterAll(() => closeEmitter());

async function totalOf(teamId: number) {
  await recomputeTeamStanding(teamId);
  const [row] = await getDb().select({ total: standings.totalCenti }).from(standings).where(eq(standings.teamId, teamId));
  return row?.total ?? 0;
}

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

describe("prediction challenges", () => {
  it("score a file on its public rows for the standings, and keep the private score from the team until the reveal", async () => {
    const { challenge, actor } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    const id = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)));
    expect(await scoreSubmission(id)).toBe("scored");
    // MAE 1 everywhere: (1 − 4) / (0 − 4) = 0.75 of 100 points.
    expect(await totalOf(team.id)).toBe(7500);
    const settings = (await getPredictionChallenge(challenge.id))!;
    const before = await ownSubmissions(team.id, settings, false);
    expect(before[0]).toMatchObject({ status: "scored", publicScore: 1, publicCenti: 7500, privateScore: null, privateCenti: null, counts: true });
    expect(JSON.stringify(before)).not.toContain("privateScore\":1");

    expect(await revealPredictions(actor, challenge.id)).toBe(true);
    expect(await revealPredictions(actor, challenge.id)).toBe(false);
    // The admin's settings, labels and reveal are each one audit record (a reveal that changed nothing, none).
    const recorded = await getDb().select({ kind: auditLog.kind }).from(auditLog).where(eq(auditLog.subjectId, challenge.id));
    for (const kind of ["predictions.settings", "predictions.labels", "predictions.revealed"]) expect(recorded.filter((row) => row.kind === kind), kind).toHaveLength(1);
    const after = await ownSubmissions(team.id, (await getPredictionChallenge(challenge.id))!, true);
    expect(after[0]).toMatchObject({ privateScore: 1, privateCenti: 7500 });
    // Revealed: no more files, no other choice.
    await expect(sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(0)))).rejects.toBeInstanceOf(PredictionError);
    await expect(choosePredictions({ teamId: team.id }, challenge.id, id)).rejects.toMatchObject({ status: 403 });
  });

  it("count the private rows after the reveal, for the file the team chose", async () => {
    const { challenge, actor } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    // A file right on the public rows and far off on the private ones, then a plain one.
    const settings = (await getPredictionChallenge(challenge.id))!;
    const { publicRows } = await import("../../app/modules/predictions/split.server.ts");
    const marks = publicRows(10, 30, settings.seed);
    const skewed = `id,y\n${Array.from({ length: 10 }, (_, i) => `${i + 1},${marks[i] ? i : i + 4}`).join("\n")}\n`;
    const first = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(skewed));
    await scoreSubmission(first);
    const second = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(2)));
    await scoreSubmission(second);
    // The latest counts by default: MAE 2 → 50 points.
    expect(await totalOf(team.id)).toBe(5000);
    await choosePredictions({ teamId: team.id }, challenge.id, first);
    // Public MAE 0 → 100 points.
    expect(await totalOf(team.id)).toBe(10_000);
    await revealPredictions(actor, challenge.id);
    // Private MAE 4 → 0 points.
    expect(await totalOf(team.id)).toBe(0);
    const board = await leaderboard((await getPredictionChallenge(challenge.id))!, { revealed: true, frozenAt: null, ownTeamId: null });
    expect(board.find((row) => row.teamId === team.id)).toMatchObject({ score: 4, centi: 0, files: 2 });
  });

  it("show a participant, while the board is frozen, each other team's file as chosen at the freeze", async () => {
    const { challenge } = await metricChallenge(100);
    const viewer = await makePlayer();
    const other = await makePlayer();
    const caller = { id: other.user.id, teamId: other.team.id };
    const first = await sendPredictions(caller, challenge.id, await store(predictionsOff(1)));
    const second = await sendPredictions(caller, challenge.id, await store(predictionsOff(2)));
    for (const id of [first, second]) expect(await scoreSubmission(id)).toBe("scored");
    const historyNow = () => getDb().select().from(predictionChoiceHistory).where(eq(predictionChoiceHistory.challengeId, challenge.id)).orderBy(predictionChoiceHistory.id);
    // Chosen again and again while the board is live: only the newest choice is kept.
    for (const id of [second, null, second, first]) await choosePredictions({ teamId: other.team.id }, challenge.id, id);
    expect((await historyNow()).map((row) => row.submissionId)).toEqual([first]);
    // The board froze between the two choices.
    const [before] = await getDb().select({ frozen: eventSettings.scoreboardFrozen, frozenAt: eventSettings.frozenAt }).from(eventSettings);
    await getDb().update(eventSettings).set({ scoreboardFrozen: true, frozenAt: sql`clock_timestamp()` });
    try {
      await choosePredictions({ teamId: other.team.id }, challenge.id, second);
      // Dated apart: both files scored and the first choice made three and two minutes ago, the second one a minute ago.
      const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      await getDb().update(predictionSubmissions).set({ scoredAt: ago(3) }).where(eq(predictionSubmissions.challengeId, challenge.id));
      const history = await historyNow();
      expect(history.map((row) => row.submissionId)).toEqual([first, second]);
      await getDb().update(predictionChoiceHistory).set({ chosenAt: ago(2) }).where(eq(predictionChoiceHistory.id, history[0].id));
      await getDb().update(predictionChoiceHistory).set({ chosenAt: ago(1) }).where(eq(predictionChoiceHistory.id, history[1].id));
      const settings = (await getPredictionChallenge(challenge.id))!;
      const scoreOf = async (frozenAt: Date | null, ownTeamId: number) =>
        (await leaderboard(settings, { revealed: false, frozenAt, ownTeamId })).find((row) => row.teamId === other.team.id)?.score;
      const frozenAt = new Date(Date.now() - 90_000);
      await getDb().update(eventSettings).set({ frozenAt });
      // Live, and for the team itself: its choice now (MAE 2). Frozen, for another team: its choice at the freeze (MAE 1).
      expect(await scoreOf(null, viewer.team.id)).toBe(2);
      expect(await scoreOf(frozenAt, other.team.id)).toBe(2);
      expect(await scoreOf(frozenAt, viewer.team.id)).toBe(1);
      // Back to "the latest" after the freeze: still the file chosen at the freeze (kept, with the newest choice).
      await choosePredictions({ teamId: other.team.id }, challenge.id, null);
      expect(await scoreOf(frozenAt, viewer.team.id)).toBe(1);
      expect((await historyNow()).map((row) => row.submissionId)).toEqual([first, null]);
      // No choice by the freeze at all: the latest file scored by then, whatever was chosen since.
      await getDb().delete(predictionChoiceHistory).where(eq(predictionChoiceHistory.id, history[0].id));
      expect(await scoreOf(frozenAt, viewer.team.id)).toBe(2);
    } finally {
      await getDb().update(eventSettings).set({ scoreboardFrozen: before?.frozen ?? false, frozenAt: before?.frozenAt ?? null });
    }
  });

  it("refuse a file with faults, naming its first lines, and count nothing for it", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    const id = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store("id,y\n1,0\n1,0\n99,1\n3,abc\n"));
    expect(await scoreSubmission(id)).toBe("failed");
    const [row] = await getDb().select().from(predictionSubmissions).where(eq(predictionSubmissions.id, id));
    expect(row.faults).toMatchObject({
      count: 3,
      first: [
        { code: "duplicateId", line: 3, other: 2 },
        { code: "unknownId", line: 4, value: "99" },
        { code: "badNumber", line: 5, value: "abc" },
      ],
    });
    expect(await totalOf(team.id)).toBe(0);
    // A failed file cannot be chosen.
    await expect(choosePredictions({ teamId: team.id }, challenge.id, id)).rejects.toMatchObject({ status: 409 });
  });

  it("hold a team to its daily limit, in the event's days", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    for (let i = 0; i < 3; i++) await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)));
    await expect(sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)))).rejects.toMatchObject({ status: 429 });
    // Another team is not held by this one's files.
    const other = await makePlayer();
    await expect(sendPredictions({ id: other.user.id, teamId: other.team.id }, challenge.id, await store(predictionsOff(1)))).resolves.toBeGreaterThan(0);
    // The sender's own files count in any team: a member who moves to a team of their own gets no new day's files.
    const hop = await makePlayer();
    await getDb().update(users).set({ teamId: hop.team.id }).where(eq(users.id, user.id));
    await expect(sendPredictions({ id: user.id, teamId: hop.team.id }, challenge.id, await store(predictionsOff(1)))).rejects.toMatchObject({ status: 429 });
  });

  it("refuse a team at its daily limit before reading its file: the upload's body is never read, nothing stored", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    for (let i = 0; i < 3; i++) await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)));
    const [{ before }] = await getDb().execute<{ before: number }>(sql`select count(*)::int as before from prediction_submissions where challenge_id = ${challenge.id}`);
    // A multipart body that notes when the server first reads it.
    let read = false;
    const boundary = "limit-boundary";
    const parts = [`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\n${predictionsOff(1)}\r\n--${boundary}--\r\n`];
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read = true;
          const part = parts.shift();
          if (part === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(part));
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://localhost/predictions/${challenge.id}`, { method: "POST", body, duplex: "half", headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } } as RequestInit);
    const reply = await predictionsPost(request, callerOf({ id: user.id, name: user.name, role: "participant", teamId: team.id }), challenge.id, new Date());
    expect(reply).toMatchObject({ ok: false, status: 429, message: messages.predictions.dailyLimit(3) });
    expect(read).toBe(false);
    const [{ after }] = await getDb().execute<{ after: number }>(sql`select count(*)::int as after from prediction_submissions where challenge_id = ${challenge.id}`);
    expect(after).toBe(before);
  });

  it("tell a scored or refused file only to whom it concerns, with no score in it: the team, the admins, the live board's viewers", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    const heard: Array<{ rooms: string[]; except: string[]; event: string; payload: unknown }> = [];
    const broadcast = (rooms: string[], except: string[]): Broadcast<EventsMap> => ({
      to: (room) => broadcast([...rooms, ...[room].flat()], except),
      except: (room) => broadcast(rooms, [...except, ...[room].flat()]),
      emit: (event, ...args) => heard.push({ rooms: [...rooms].sort(), except, event, payload: args[0] }) > 0,
    });
    emitThroughLocalServer({ to: (room) => broadcast([room].flat(), []) });
    await getDb().update(eventSettings).set({ scoreboardFrozen: false });
    try {
      const scored = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)));
      const refused = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store("id,y\n1,0\n"));
      const whileFrozen = await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(2)));
      expect(await scoreSubmission(scored)).toBe("scored");
      expect(await scoreSubmission(refused)).toBe("failed");
      await getDb().update(eventSettings).set({ scoreboardFrozen: true });
      try {
        expect(await scoreSubmission(whileFrozen)).toBe("scored");
      } finally {
        await getDb().update(eventSettings).set({ scoreboardFrozen: false });
      }
    } finally {
      emitThroughLocalServer(null);
    }
    const changes = heard.filter((one) => one.event === "predictions:changed");
    const own = `team:${team.id}`;
    expect(changes.map((one) => one.rooms)).toEqual([
      // Scored while live: every role sees the leaderboard move, and the team its result.
      ["admins", "judges", "mentors", "participants", own].sort(),
      // Refused: its team and the admins only.
      ["admins", own].sort(),
      // Scored while frozen: no other participant (their leaderboard keeps to the freeze).
      ["admins", "judges", own].sort(),
    ]);
    for (const change of changes) expect(change.payload).toEqual({ challengeId: challenge.id });
  });

  it("keep a challenge with teams' files from being deleted", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(predictionsOff(1)));
    const admin = await makeUser("admin");
    await expect(deleteChallenge(actorFor(admin.id, admin.name, "admin"), challenge.id)).rejects.toMatchObject({ status: 409 });
    expect(await getDb().select({ id: challenges.id }).from(challenges).where(eq(challenges.id, challenge.id))).toHaveLength(1);
  });

  it("refuse labels whose ROC AUC split lacks a class, and a target on the wrong side of the baseline", async () => {
    const admin = await makeUser("admin");
    const actor = actorFor(admin.id, admin.name, "admin");
    const challenge = await makeChallenge({ points: 10, wave: 1 });
    await getDb().update(challenges).set({ checking: "metric" }).where(eq(challenges.id, challenge.id));
    await expect(savePredictionSettings(actor, challenge.id, { metric: "rmse", publicPercent: 30, baseline: 1, target: 2, dailyLimit: 5 })).rejects.toMatchObject({ status: 400 });
    await savePredictionSettings(actor, challenge.id, { metric: "roc_auc", publicPercent: 50, baseline: 0.5, target: 1, dailyLimit: 5 });
    const settings = (await getPredictionChallenge(challenge.id))!;
    // One positive among ten rows: one half of the split has none.
    const labels = await checkLabels(await store(`id,y\n${Array.from({ length: 10 }, (_, i) => `${i},${i === 0 ? 1 : 0}`).join("\n")}\n`, "labels"), settings);
    expect(labels).toMatchObject({ ok: false, faults: { first: [{ code: "oneClassSplit" }] } });
  });

  it("make the same points in the standings' SQL as in TypeScript, to the hundredth", async () => {
    const cases = [
      { points: 7, baseline: 0, target: 3, score: 1 },
      { points: 1, baseline: 0, target: 8, score: 1 },
      { points: 333, baseline: 0.5, target: 0.95, score: 0.8123456789 },
      { points: 100, baseline: 10, target: 2, score: 3.3333333 },
      { points: 50, baseline: 0.1, target: 0.7, score: 0.3 },
      { points: 1_000_000, baseline: 0, target: 1, score: 0.123456789 },
    ];
    for (const c of cases) {
      const [row] = await getDb().execute<{ centi: number }>(
        sql`select coalesce(floor((${c.points}::int * 100)::float8 * least(1::float8, greatest(0::float8, (${c.score}::float8 - ${c.baseline}::float8) / (${c.target}::float8 - ${c.baseline}::float8))) + 0.5)::integer, 0) as centi`,
      );
      expect(Number(row.centi)).toBe(pointsCentiOf(c.score, c));
    }
  });

  it("reveal at the latest at the event's final instant: nothing private before it; then the worker's sweep, once, dated at that instant, and the private rows count", async () => {
    const { challenge } = await metricChallenge(100);
    const { team, user } = await makePlayer();
    // Right on the public rows, 4 off on the private ones: 100 points before the reveal, 0 after.
    const settings = (await getPredictionChallenge(challenge.id))!;
    const { publicRows } = await import("../../app/modules/predictions/split.server.ts");
    const marks = publicRows(10, 30, settings.seed);
    const skewed = `id,y\n${Array.from({ length: 10 }, (_, i) => `${i + 1},${marks[i] ? i : i + 4}`).join("\n")}\n`;
    await scoreSubmission(await sendPredictions({ id: user.id, teamId: team.id }, challenge.id, await store(skewed)));
    expect(await totalOf(team.id)).toBe(10_000);
    const [kept] = await getDb().select({ finalAt: eventSettings.finalAt }).from(eventSettings).where(eq(eventSettings.id, 1));
    const setFinal = (at: Date) => getDb().update(eventSettings).set({ finalAt: at }).where(eq(eventSettings.id, 1));
    const viewer = { role: "participant" as const, teamId: team.id };
    try {
      // A minute before the final instant: the sweep reveals nothing, and the team's page holds no private score.
      const final = new Date(Date.now() + 60_000);
      await setFinal(final);
      expect(await revealDueChallenges()).toBe(0);
      const before = (await predictionsPage(challenge.id, viewer, "en", new Date(final.getTime() - 1000)))!;
      expect(before.revealed).toBe(false);
      expect(before.own[0]).toMatchObject({ publicScore: 0, privateScore: null, privateCenti: null });
      expect(before.board.find((line) => line.teamId === team.id)).toMatchObject({ score: 0, centi: 10_000 });
      expect(await totalOf(team.id)).toBe(10_000);

      // The final instant passed: the page reads the private rows at once; the sweep reveals the challenge, dated at
      // the final instant, and the standings count the private score (MAE 4: 0 points).
      const passed = new Date(Date.now() - 1000);
      await setFinal(passed);
      const at = (await predictionsPage(challenge.id, viewer, "en"))!;
      expect(at.revealed).toBe(true);
      expect(at.own[0]).toMatchObject({ privateScore: 4, privateCenti: 0 });
      expect(await revealDueChallenges()).toBeGreaterThanOrEqual(1);
      expect((await getPredictionChallenge(challenge.id))!.revealedAt).toEqual(passed);
      expect(await totalOf(team.id)).toBe(0);
      // Once: a later sweep finds nothing left to reveal.
      expect(await revealDueChallenges()).toBe(0);
    } finally {
      await setFinal(kept.finalAt!);
    }
  });
});
