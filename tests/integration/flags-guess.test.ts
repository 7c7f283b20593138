/** Flag challenges' answers, checked by the platform (docs/domain.md "Flag challenges"), against real Postgres. */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, challengePrerequisites, challenges, flagAttempts, flagSharing, flagSolves, flagTries, standingsOutbox } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getMetrics } from "../../app/infrastructure/metrics.server.ts";
import { FlagError, sendFlag, teamFlagState, tryFlag, type FlagVerdict } from "../../app/modules/flags/guess.server.ts";
import { challengeValue } from "../../app/modules/flags/decay.ts";
import { perTeamFlag } from "../../app/modules/flags/matching.server.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

const flagChallenge = makeFlagChallenge;

async function player() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, user, actor: actorFor(user.id, user.name, "participant") };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; status: number; retryAfter?: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FlagError) return { code: error.code, status: error.status, retryAfter: error.retryAfterSeconds };
    throw error;
  }
  throw new Error("not refused");
}

/** A group's statements, the answers they carried and the answers sent again alone, so far (its metrics). */
async function batchFigures(kind: "wrong" | "solve") {
  const metrics = getMetrics();
  const { values } = await (kind === "wrong" ? metrics.flagWrongBatch() : metrics.flagSolveBatch()).get();
  const of = (suffix: string) => values.find((value) => value.metricName === `gatekeeper_flag_${kind}_batch_answers_${suffix}`)?.value ?? 0;
  const alone = await (kind === "wrong" ? metrics.flagWrongAlone() : metrics.flagSolveAlone()).get();
  return { statements: of("count"), answers: of("sum"), alone: alone.values[0]?.value ?? 0 };
}

/** Another transaction holding a team's row of a challenge (`flag_tries`), as an admin's change or another process's answer would, until released. */
async function holdTeamRow(teamId: number, challengeId: number) {
  let release = () => {};
  let holding = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder = getDb().transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${flagTries} where team_id = ${teamId} and challenge_id = ${challengeId} for update`);
    holding();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await held;
  return { release: () => release(), holder };
}

describe("a flag answer", () => {
  it("is correct once: the solve counts the challenge's whole points, the attempt names the answer, never the flag", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{first}" }, { kind: "exact_ci", value: "gk{Second}" }], { points: 250 });
    const { team, user, actor } = await player();
    const wrong = await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{nope}" });
    expect(wrong).toMatchObject({ verdict: "incorrect", attemptsLeft: null, waitSeconds: 0, message: "Incorrect answer." });
    const right = await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "  GK{SECOND}\t" });
    expect(right).toMatchObject({ verdict: "correct", points: 250 });
    const attempts = await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, team.id));
    expect(attempts.map((a) => [a.verdict, a.matched, a.answer])).toEqual(
      expect.arrayContaining([
        ["incorrect", null, "GK{nope}"],
        ["correct", 2, null],
      ]),
    );
    const [audit] = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "flag.solved"), eq(auditLog.teamId, team.id)));
    expect(JSON.stringify(audit.after)).toContain("answer 2");
    expect(JSON.stringify(audit.after)).not.toContain("Second");
    expect(await refusal(sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{first}" }))).toMatchObject({ code: "alreadySolved", status: 409 });
    const board = await computeAllStandings(getDb());
    const row = board.standings.find((standing) => standing.teamId === team.id);
    expect(row).toMatchObject({ totalCenti: 25_000, csCenti: 25_000, solvedCount: 1 });
    expect(user.id).toBeGreaterThan(0);
  });

  it("matches a whole pattern with RE2: a catastrophic pattern answers at once", async () => {
    const challenge = await flagChallenge([{ kind: "regex", value: "(a+)+b" }]);
    const { team, actor } = await player();
    const started = Date.now();
    const verdict = await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: `${"a".repeat(1000)}!` });
    expect(verdict.verdict).toBe("incorrect");
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "aaab" })).verdict).toBe("correct");
  });

  it("makes one solve of two members' right answers at the same instant, and tells each the truth", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{race}" }]);
    const { team, actor } = await player();
    const other = await makeUser("participant", team.id);
    const results = await Promise.allSettled([
      sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{race}" }),
      sendFlag({ actor: actorFor(other.id, other.name, "participant"), teamId: team.id, challengeId: challenge.id, answer: "GK{race}" }),
    ]);
    const fulfilled = results.filter((r): r is PromiseFulfilledResult<FlagVerdict> => r.status === "fulfilled");
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled.map((r) => r.value.verdict)).toEqual(["correct"]);
    expect(rejected.map((r) => (r.reason as FlagError).code)).toEqual(["alreadySolved"]);
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.challengeId, challenge.id))).toHaveLength(1);
  });

  it("limits wrong answers: a window, then a wait that grows; a maximum of attempts", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{x}" }], { wrongPerMinute: 3 });
    const { team, actor } = await player();
    const at = new Date();
    for (let i = 0; i < 2; i++) expect(await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: `w${i}`, now: at })).toMatchObject({ waitSeconds: 0 });
    expect(await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "w3", now: at })).toMatchObject({ verdict: "incorrect", waitSeconds: 60 });
    expect(await refusal(sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{x}", now: new Date(at.getTime() + 30_000) }))).toEqual({
      code: "wait",
      status: 429,
      retryAfter: 30,
    });
    expect((await teamFlagState(team.id, challenge.id, new Date(at.getTime() + 30_000)))?.waitSeconds).toBe(30);

    const limited = await flagChallenge([{ kind: "exact", value: "GK{y}" }], { maxAttempts: 2 });
    expect(await sendFlag({ actor, teamId: team.id, challengeId: limited.id, answer: "no" })).toMatchObject({ attemptsLeft: 1 });
    expect(await sendFlag({ actor, teamId: team.id, challengeId: limited.id, answer: "no" })).toMatchObject({ attemptsLeft: 0 });
    expect(await refusal(sendFlag({ actor, teamId: team.id, challengeId: limited.id, answer: "GK{y}" }))).toMatchObject({ code: "noAttemptsLeft", status: 403 });
  });

  it("derives a per-team flag; another team's flag is wrong, not kept, and signalled to admins", async () => {
    const challenge = await flagChallenge([{ kind: "per_team", value: "GK{<hmac>}" }]);
    const a = await player();
    const b = await player();
    const flagOfB = perTeamFlag(challenge.flagSecret!, b.team.id, "GK{<hmac>}");
    expect(flagOfB).toMatch(/^GK\{[0-9a-f]{32}\}$/);
    expect((await sendFlag({ actor: a.actor, teamId: a.team.id, challengeId: challenge.id, answer: flagOfB })).verdict).toBe("incorrect");
    const [attempt] = await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, a.team.id));
    expect(attempt.answer).toBeNull();
    expect(await getDb().select().from(flagSharing).where(eq(flagSharing.challengeId, challenge.id))).toEqual([
      expect.objectContaining({ teamId: a.team.id, ownerTeamId: b.team.id }),
    ]);
    expect((await sendFlag({ actor: b.actor, teamId: b.team.id, challengeId: challenge.id, answer: flagOfB })).verdict).toBe("correct");
    expect((await tryFlag(challenge.id, flagOfB, b.team.id)).matched).toBe(1);
    expect((await tryFlag(challenge.id, flagOfB, a.team.id)).matched).toBeNull();
  });

  it("refuses hostile and out-of-place answers with a 4xx, recording nothing", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{z}" }]);
    const closed = await flagChallenge([{ kind: "exact", value: "GK{z}" }], { wave: 4 });
    const judged = await makeChallenge({ wave: 1 });
    const { team, actor } = await player();
    const send = (answer: string, challengeId = challenge.id) => refusal(sendFlag({ actor, teamId: team.id, challengeId, answer }));
    expect(await send("x".repeat(1_000_000))).toMatchObject({ code: "tooLong", status: 413 });
    expect(await send("GK{\u0000z}")).toMatchObject({ code: "controlCharacters", status: 400 });
    expect(await send("   ")).toMatchObject({ code: "empty", status: 400 });
    expect(await send("GK{z}", closed.id)).toMatchObject({ code: "closed", status: 403 });
    expect(await send("GK{z}", judged.id)).toMatchObject({ code: "notFlag", status: 409 });
    expect(await send("GK{z}", 999_999)).toMatchObject({ code: "notFound", status: 404 });
    expect(await refusal(sendFlag({ actor, teamId: null, challengeId: challenge.id, answer: "GK{z}" }))).toMatchObject({ code: "noTeam", status: 403 });
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, team.id))).toEqual([]);
    // An RTL override is only characters: wrong, kept for the organisers.
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{\u202ez}" })).verdict).toBe("incorrect");
    // A lone surrogate (a JSON body's `\ud800`) is stored as UTF-8 writes it, U+FFFD.
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{\ud800z}" })).verdict).toBe("incorrect");
    expect((await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, team.id))).map((attempt) => attempt.answer).sort()).toEqual(["GK{\u202ez}", "GK{\ufffdz}"]);
    expect(await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id))).toEqual([]);
  });

  it("takes 10,000 parallel wrong guesses of one team in turns: the flood is refused at once, another team is answered meanwhile", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{flood}" }], { wrongPerMinute: 1000 });
    const flooder = await player();
    const other = await player();
    const flood = Array.from({ length: 10_000 }, (_, i) => sendFlag({ actor: flooder.actor, teamId: flooder.team.id, challengeId: challenge.id, answer: `guess ${i}` }).then(
      () => "checked",
      (error: unknown) => (error instanceof FlagError ? error.code : "fault"),
    ));
    const started = Date.now();
    const theirs = await sendFlag({ actor: other.actor, teamId: other.team.id, challengeId: challenge.id, answer: "GK{flood}" });
    const otherMs = Date.now() - started;
    const outcomes = await Promise.all(flood);
    expect(theirs.verdict).toBe("correct");
    expect(otherMs).toBeLessThan(5_000);
    const checked = outcomes.filter((outcome) => outcome === "checked").length;
    expect(outcomes.filter((outcome) => outcome === "busy").length).toBe(10_000 - checked);
    expect(checked).toBeLessThanOrEqual(4);
    const stored = await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, flooder.team.id));
    expect(stored).toHaveLength(checked);
  });
  it("sends many teams' wrong answers together in one statement, each counted, stored and refused as if alone; a fault or a held row of one fails only it", async () => {
    const plain = await flagChallenge([{ kind: "exact", value: "GK{batch}" }], { maxAttempts: 2 });
    const perTeam = await flagChallenge([{ kind: "per_team", value: "GK{<hmac>}" }]);
    const first = await flagChallenge([{ kind: "exact", value: "GK{first}" }]);
    const locked = await flagChallenge([{ kind: "exact", value: "GK{locked}" }]);
    await getDb().insert(challengePrerequisites).values({ challengeId: locked.id, requiresId: first.id });
    const players = await Promise.all(Array.from({ length: 12 }, () => player()));
    const batches = () => batchFigures("wrong");
    const outcome = (promise: Promise<FlagVerdict>) =>
      promise.then(
        (verdict) => (verdict.verdict === "incorrect" ? `incorrect, ${verdict.attemptsLeft ?? "no maximum"} left` : verdict.verdict),
        (error: unknown) => (error instanceof FlagError ? error.code : "fault"),
      );
    // Another transaction holds one team's row (another process's solve, an admin's edit): the batch with that team's
    // answer gives up after WRONG_BATCH_LOCK_WAIT_MS and its answers go again one by one.
    const blocked = await player();
    expect(await outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: plain.id, answer: "GK{one}" }))).toBe("incorrect, 1 left");
    // Its answers to the others first: the process then remembers every challenge (and has the per-team flags), so the
    // answers below reach their batch at once, together.
    expect(await outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: perTeam.id, answer: "GK{one}" }))).toBe("incorrect, no maximum left");
    expect(await outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: first.id, answer: "GK{one}" }))).toBe("incorrect, no maximum left");
    expect(await outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: locked.id, answer: "GK{one}" }))).toBe("locked");
    const { release, holder } = await holdTeamRow(blocked.team.id, plain.id);
    const before = await batches();
    const blockedAnswer = outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: plain.id, answer: "GK{two}" }));
    // A member whose account is gone (deleted after signing in): the attempt's row breaks its foreign key.
    const ghost = { ...players[0].actor, id: 2_000_000_000 };
    const sent = players.map(({ team, actor }, index) => {
      const next = players[(index + 1) % players.length].team.id;
      return Promise.all([
        outcome(sendFlag({ actor, teamId: team.id, challengeId: plain.id, answer: `GK{no ${index}}` })),
        outcome(sendFlag({ actor, teamId: team.id, challengeId: plain.id, answer: `GK{no again ${index}}` })),
        outcome(sendFlag({ actor, teamId: team.id, challengeId: perTeam.id, answer: perTeamFlag(perTeam.flagSecret!, next, "GK{<hmac>}") })),
        outcome(sendFlag({ actor, teamId: team.id, challengeId: locked.id, answer: "GK{guess}" })),
      ]);
    });
    const ghostly = outcome(sendFlag({ actor: ghost, teamId: players[0].team.id, challengeId: first.id, answer: "GK{boo}" }));
    const outcomes = await Promise.all(sent);
    expect(await ghostly).toBe("fault");
    expect(outcomes).toEqual(players.map(() => ["incorrect, 1 left", "incorrect, 0 left", "incorrect, no maximum left", "locked"]));
    const after = await batches();
    // Fewer statements than answers: the answers sent while the first batch waited went together. Sent again alone:
    // the held row's answer, and the ghost's with the others of its batch.
    expect(after.answers - before.answers).toBeGreaterThan(after.statements - before.statements);
    expect(after.alone - before.alone).toBeGreaterThanOrEqual(3);
    // The held row's answer, alone, waited once more, then was refused ("held", 429), nothing recorded; once the row is
    // free the team's next answer is taken.
    expect(await blockedAnswer).toBe("held");
    release();
    await holder;
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.answer, "GK{two}"))).toEqual([]);
    expect(await outcome(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: plain.id, answer: "GK{three}" }))).toBe("incorrect, 0 left");
    const teamIds = players.map(({ team }) => team.id);
    const tries = await getDb().select().from(flagTries);
    for (const teamId of teamIds) {
      expect(tries.filter((row) => row.teamId === teamId).map((row) => [row.challengeId, row.wrong]).sort()).toEqual([[plain.id, 2], [perTeam.id, 1]].sort());
      const attempts = await getDb().select().from(flagAttempts).where(eq(flagAttempts.teamId, teamId));
      expect(attempts.map((attempt) => attempt.challengeId).sort()).toEqual([plain.id, plain.id, perTeam.id].sort());
      expect(attempts.find((attempt) => attempt.challengeId === perTeam.id)?.answer).toBeNull();
    }
    const shared = await getDb().select().from(flagSharing).where(eq(flagSharing.challengeId, perTeam.id));
    expect(shared.map((row) => [row.teamId, row.ownerTeamId]).sort()).toEqual(teamIds.map((teamId, index) => [teamId, teamIds[(index + 1) % teamIds.length]]).sort());
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.answer, "GK{boo}"))).toEqual([]);
  });

  it("sends many teams' right answers together in one statement: each a solve in its place, times in places' order, one first blood; a fault or a held row of one fails only it", async () => {
    const plain = await flagChallenge([{ kind: "exact", value: "GK{plain}" }], { points: 100 });
    const dynamic = await flagChallenge([{ kind: "exact", value: "GK{dynamic}" }], { points: 500 });
    await getDb().update(challenges).set({ scoring: "dynamic", minimumPoints: 100, decay: 4 }).where(eq(challenges.id, dynamic.id));
    const first = await flagChallenge([{ kind: "exact", value: "GK{first}" }]);
    const other = await flagChallenge([{ kind: "exact", value: "GK{other}" }]);
    const locked = await flagChallenge([{ kind: "exact", value: "GK{locked}" }]);
    await getDb().insert(challengePrerequisites).values({ challengeId: locked.id, requiresId: first.id });
    const players = await Promise.all(Array.from({ length: 12 }, () => player()));
    const batches = () => batchFigures("solve");
    const verdictOf = (promise: Promise<FlagVerdict>) => promise.catch((error: unknown) => (error instanceof FlagError ? error.code : "fault"));
    // Every challenge remembered first (a wrong answer each), so that the answers below reach their batches together.
    const blocked = await player();
    for (const challenge of [plain, dynamic, first, other]) expect((await sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: challenge.id, answer: "GK{no}" })).verdict).toBe("incorrect");
    expect(await verdictOf(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: locked.id, answer: "GK{locked}" }))).toBe("locked");

    // 1. A burst, nothing held: the twelve teams' right answers to two challenges, and to a locked one.
    const before = await batches();
    const burst = await Promise.all(
      players.map(({ team, actor }) =>
        Promise.all([plain, dynamic, locked].map((challenge) => verdictOf(sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: `GK{${challenge === plain ? "plain" : challenge === dynamic ? "dynamic" : "locked"}}` })))),
      ),
    );
    const after = await batches();
    // Fewer statements than answers and none failed: batches of several answers committed.
    expect(after.alone - before.alone).toBe(0);
    expect(after.answers - before.answers).toBeGreaterThan(after.statements - before.statements);
    expect(burst.map(([, , lockedVerdict]) => lockedVerdict)).toEqual(players.map(() => "locked"));
    // Each challenge's solves: places 1..n, their times in the places' order, one first blood; the values told and
    // audited are the places' (decay.ts).
    const value = (place: number) => challengeValue({ points: 500, scoring: "dynamic", minimumPoints: 100, decay: 4 }, place);
    for (const [index, challenge] of [plain, dynamic].entries()) {
      const verdicts = burst.map((answers) => answers[index] as FlagVerdict & { verdict: "correct" });
      expect(verdicts.every((verdict) => verdict.verdict === "correct")).toBe(true);
      expect(verdicts.filter((verdict) => verdict.firstBlood)).toHaveLength(1);
      const solves = await getDb().select().from(flagSolves).where(eq(flagSolves.challengeId, challenge.id)).orderBy(flagSolves.solvedAt);
      expect(solves).toHaveLength(players.length);
      const audited = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "flag.solved"), eq(auditLog.subjectId, challenge.id)));
      // Several of them in one statement (its transaction's time, the records' `at`): a batch of this challenge's solves committed.
      expect(new Set(audited.map((record) => record.at.getTime())).size).toBeLessThan(audited.length);
      const pointsOf = new Map(audited.map((record) => [record.teamId, (record.after as { points: number }).points]));
      const told = new Map(players.map(({ team }, at) => [team.id, verdicts[at]]));
      const placeValue = (place: number) => (challenge === dynamic ? value(place) : 100);
      // The solve in place n, by time: the n-th value, told and audited; the first blood the first by time.
      expect(solves.map((solve) => pointsOf.get(solve.teamId))).toEqual(solves.map((_, at) => placeValue(at + 1)));
      expect(solves.map((solve) => told.get(solve.teamId)!.points)).toEqual(solves.map((_, at) => placeValue(at + 1)));
      expect(told.get(solves[0].teamId)!.firstBlood).toBe(true);
      const [count] = await getDb().execute<{ solves: number }>(sql`select solves from flag_solve_counts where challenge_id = ${challenge.id}`);
      expect(count.solves).toBe(players.length);
    }
    for (const { team } of players) {
      const attempts = await getDb().select().from(flagAttempts).where(and(eq(flagAttempts.teamId, team.id), eq(flagAttempts.verdict, "correct")));
      expect(attempts.map((attempt) => [attempt.challengeId, attempt.matched]).sort()).toEqual([[plain.id, 1], [dynamic.id, 1]].sort());
    }
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.challengeId, locked.id))).toEqual([]);

    // 2. A team's row held by another transaction (an admin's change), and a member whose account is gone: their
    // batch fails, its answers go again one by one; the ghost's alone fails, the held one is taken once the row is free.
    const { release, holder } = await holdTeamRow(blocked.team.id, other.id);
    const beforeHeld = await batches();
    const ghost = { ...players[0].actor, id: 2_000_000_000 };
    const blockedAnswer = verdictOf(sendFlag({ actor: blocked.actor, teamId: blocked.team.id, challengeId: other.id, answer: "GK{other}" }));
    const ghostly = verdictOf(sendFlag({ actor: ghost, teamId: players[0].team.id, challengeId: first.id, answer: "GK{first}" }));
    const others = players.slice(1).map(({ team, actor }) => verdictOf(sendFlag({ actor, teamId: team.id, challengeId: other.id, answer: "GK{other}" })));
    await vi.waitFor(async () => expect((await batches()).alone).toBeGreaterThan(beforeHeld.alone), { timeout: 10_000, interval: 20 });
    release();
    await holder;
    expect(await ghostly).toBe("fault");
    expect(await blockedAnswer).toMatchObject({ verdict: "correct", points: 200 });
    for (const verdict of await Promise.all(others)) expect(verdict).toMatchObject({ verdict: "correct", points: 200 });
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.challengeId, first.id))).toEqual([]);
    const [count] = await getDb().execute<{ solves: number }>(sql`select solves from flag_solve_counts where challenge_id = ${other.id}`);
    expect(count.solves).toBe(players.length);
  });

  it("holds a challenge's count only for its statement's last steps: a right answer waiting for its team's row or its mark leaves the count to the other solvers", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{order}" }]);
    const solver = await player();
    expect((await sendFlag({ actor: solver.actor, teamId: solver.team.id, challengeId: challenge.id, answer: "GK{order}" })).verdict).toBe("correct");
    for (const hold of ["the team's row", "the team's standings mark"]) {
      const { team, actor } = await player();
      let release = () => {};
      let holding = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = getDb().transaction(async (tx) => {
        if (hold === "the team's row") await tx.execute(sql`select 1 from teams where id = ${team.id} for update`);
        else await tx.execute(sql`insert into ${standingsOutbox} (team_id) values (${team.id}) on conflict (team_id) do update set requested_at = now()`);
        holding();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await held;
      const answer = sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{order}" });
      // Its statement waits for the held row; meanwhile another solver could take the challenge's count.
      await vi.waitFor(
        async () => {
          const [{ waiting }] = await getDb().execute<{ waiting: number }>(sql`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
          expect(waiting, hold).toBeGreaterThan(0);
        },
        { timeout: 5000, interval: 10 },
      );
      await getDb().transaction(async (tx) => {
        await tx.execute(sql`select 1 from flag_solve_counts where challenge_id = ${challenge.id} for update nowait`);
      });
      release();
      await holder;
      expect(await answer, hold).toMatchObject({ verdict: "correct", firstBlood: false });
    }
  });

  it("refuses a right answer whose team's row another transaction holds past its wait (send it again), recording nothing; takes it once the row is free", async () => {
    const challenge = await flagChallenge([{ kind: "exact", value: "GK{held}" }]);
    const { team, actor } = await player();
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{no}" })).verdict).toBe("incorrect");
    const { release, holder } = await holdTeamRow(team.id, challenge.id);
    expect(await refusal(sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{held}" }))).toMatchObject({ code: "held", status: 429, retryAfter: 1 });
    release();
    await holder;
    expect(await getDb().select().from(flagSolves).where(eq(flagSolves.teamId, team.id))).toEqual([]);
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{held}" })).verdict).toBe("correct");
  });
});
