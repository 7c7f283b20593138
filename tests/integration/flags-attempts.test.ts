/**
 * Dashboard → Attempts (docs/domain.md "Flag challenges"): what the admins read of the teams' flag answers and
 * what they do about them, through the routes as Remix calls them, against real Postgres.
 */
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, flagAttempts, standings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { getToast } from "../../app/glue/toast.server.ts";
import { sendFlag, type FlagError } from "../../app/modules/flags/guess.server.ts";
import { perTeamFlag } from "../../app/modules/flags/matching.server.ts";
import { ATTEMPTS_PAGE_SIZE, attemptsCsv, attemptFilterChoices } from "../../app/modules/flags/attempts.server.ts";
import { translateMessage } from "../../app/modules/i18n/server-messages.ts";
import { messages } from "../../app/modules/messages.ts";
import { action as attemptsAction, loader as attemptsLoader } from "../../app/routes/dashboard.attempts.tsx";
import { loader as attemptsCsvLoader } from "../../app/routes/dashboard.exports.attempts[.csv].tsx";
import { action as teamFlagsAction } from "../../app/routes/dashboard.exports.team-flags[.csv].tsx";
import { loader as ctftimeLoader } from "../../app/routes/dashboard.exports.ctftime[.json].tsx";
import { ensureEventSettings, ensureTwoOpenGates, makeChallenge, makePlayer, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";

let admin: string;
let judge: string;
let participant: string;

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  admin = await sessionCookie((await makeUser("admin")).id);
  judge = await sessionCookie((await makeUser("judge")).id);
  participant = await sessionCookie((await makeUser("participant", (await makeTeam()).id)).id);
});

const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string | number>) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])),
  });

async function page(query: string, cookie = admin) {
  return (await attemptsLoader({ request: get(`/dashboard/attempts${query}`, cookie), params: {}, context: {} })) as Exclude<Awaited<ReturnType<typeof attemptsLoader>>, Response>;
}

/** What a route threw: its status. */
async function thrownStatus(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error.status;
    const init = (error as { init?: { status?: number } }).init;
    if (init?.status) return init.status;
    throw error;
  }
  throw new Error("not refused");
}

describe("the Attempts page", () => {
  it("lists a team's attempts newest first: a right one as answer n, a wrong one as typed; filters by team, challenge and verdict", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{one}" }, { kind: "exact_ci", value: "GK{two}" }]);
    const other = await makeFlagChallenge([{ kind: "exact", value: "GK{else}" }]);
    const { team, user, actor } = await makePlayer("Falcons \u202eevil");
    const t0 = Date.now() - 60_000;
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "<b>gk{\u202e}</b>", now: new Date(t0) });
    await sendFlag({ actor, teamId: team.id, challengeId: other.id, answer: "nope", now: new Date(t0 + 1000) });
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "gk{TWO}", now: new Date(t0 + 2000) });

    const all = await page(`?team=${team.id}`);
    expect(all.view).toBe("attempts");
    expect(all.attempts.map((row) => [row.challengeId, row.verdict, row.matched, row.answer])).toEqual([
      [challenge.id, "correct", 2, null],
      [other.id, "incorrect", null, "nope"],
      [challenge.id, "incorrect", null, "<b>gk{\u202e}</b>"],
    ]);
    expect(all.attempts[0]).toMatchObject({ team: team.name, user: user.name, challenge: challenge.title });
    // No flag anywhere in what the page is given.
    expect(JSON.stringify(all)).not.toContain("GK{two}");
    expect(JSON.stringify(all)).not.toContain("GK{one}");

    expect((await page(`?team=${team.id}&challenge=${challenge.id}`)).attempts.map((row) => row.verdict)).toEqual(["correct", "incorrect"]);
    expect((await page(`?team=${team.id}&verdict=incorrect`)).attempts.map((row) => row.answer)).toEqual(["nope", "<b>gk{\u202e}</b>"]);
    expect((await page(`?team=${team.id}&verdict=correct`)).attempts).toHaveLength(1);
    // Unknown or hostile filters are ignored, never a failure.
    expect((await page(`?team=${team.id}&verdict=maybe&challenge=abc&page=-3`)).attempts).toHaveLength(3);
    // The counted wrong answers, per team and challenge, ready to reset.
    expect(all.resettable.map((row) => [row.challengeId, row.wrong]).sort()).toEqual([
      [challenge.id, 1],
      [other.id, 1],
    ].sort());
    // The filters' choices: the flag challenges only.
    expect(all.choices.challenges.map((c) => c.id)).toEqual(expect.arrayContaining([challenge.id, other.id]));
  });

  it("pages a long list: 50 a page, the filters kept, a page past the last is the last", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{paged}" }], { wrongPerMinute: 1000 });
    const { team } = await makePlayer();
    const base = Date.now() - 3_600_000;
    await getDb()
      .insert(flagAttempts)
      .values(
        Array.from({ length: ATTEMPTS_PAGE_SIZE + 7 }, (_, i) => ({ teamId: team.id, challengeId: challenge.id, at: new Date(base + i * 1000), verdict: "incorrect" as const, answer: `try ${i}` })),
      );
    const first = await page(`?team=${team.id}`);
    expect(first.pages).toMatchObject({ page: 1, pages: 2, total: ATTEMPTS_PAGE_SIZE + 7, from: 1, to: ATTEMPTS_PAGE_SIZE });
    expect(first.attempts[0].answer).toBe(`try ${ATTEMPTS_PAGE_SIZE + 6}`);
    const second = await page(`?team=${team.id}&page=2`);
    expect(second.attempts.map((row) => row.answer)).toEqual(Array.from({ length: 7 }, (_, i) => `try ${6 - i}`));
    expect(second.query).toMatchObject({ team: team.id, page: 2 });
    expect((await page(`?team=${team.id}&page=99`)).pages.page).toBe(2);
  });

  it("is for admins only: a judge and a participant are refused", async () => {
    expect(await thrownStatus(page("", judge))).toBe(403);
    expect(await thrownStatus(page("", participant))).toBe(403);
  });
});

describe("the attempts CSV", () => {
  it("exports the filtered attempts, every cell defused against spreadsheet formulas", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{csv}" }]);
    const { team, actor } = await makePlayer('=HYPERLINK("http://evil.example","x")');
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "=1+2", now: new Date(Date.now() - 5000) });
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{csv}" });
    const response = await attemptsCsvLoader({ request: get(`/dashboard/exports/attempts.csv?team=${team.id}`, admin), params: {}, context: {} });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const csv = await response.text();
    const lines = csv.replace("\uFEFF", "").trim().split("\r\n");
    expect(lines[0]).toMatch(/^Attempt,Time \(UTC\),Time \(.+\),Team id,Team,User id,User,Challenge id,Challenge,Verdict,Answer,Counted$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(",correct,answer 1,");
    expect(lines[2]).toContain(",incorrect,'=1+2,yes");
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv).not.toMatch(/,=/);
    expect(csv).not.toContain("GK{csv}");
    const wrongOnly = await (await attemptsCsvLoader({ request: get(`/dashboard/exports/attempts.csv?team=${team.id}&verdict=incorrect`, admin), params: {}, context: {} })).text();
    expect(wrongOnly.trim().split("\r\n")).toHaveLength(2);
    expect(await thrownStatus(attemptsCsvLoader({ request: get("/dashboard/exports/attempts.csv", judge), params: {}, context: {} }))).toBe(403);
  });

  it("reads in chunks without losing or repeating a row, at instants tied to the microsecond", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{chunks}" }]);
    const { team } = await makePlayer();
    // One statement: every row has the same now(), to the microsecond; the id breaks the tie.
    const rows = await getDb()
      .insert(flagAttempts)
      .values(Array.from({ length: 5 }, (_, i) => ({ teamId: team.id, challengeId: challenge.id, verdict: "incorrect" as const, answer: `w${i}` })))
      .returning({ id: flagAttempts.id });
    let csv = "";
    for await (const chunk of attemptsCsv({ teamId: team.id }, "UTC", 2)) csv += chunk;
    const ids = csv.replace("\uFEFF", "").trim().split("\r\n").slice(1).map((line) => Number(line.split(",")[0]));
    expect(ids).toEqual(rows.map((row) => row.id).sort((x, y) => y - x));
  });
});

describe("resetting a team's wrong answers", () => {
  it("lets the team answer again at once, audited with how many, and says so", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{again}" }], { maxAttempts: 2 });
    const { team, actor } = await makePlayer();
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "no 1" });
    await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "no 2" });
    await expect(sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{again}" })).rejects.toMatchObject({ code: "noAttemptsLeft" } satisfies Partial<FlagError>);

    const fields = { intent: "reset", teamId: team.id, challengeId: challenge.id };
    // Judges and participants are refused; nothing changes.
    expect(await thrownStatus(attemptsAction({ request: post("/dashboard/attempts", judge, fields), params: {}, context: {} }))).toBe(403);
    expect(await thrownStatus(attemptsAction({ request: post("/dashboard/attempts", participant, fields), params: {}, context: {} }))).toBe(403);
    expect((await page(`?team=${team.id}`)).resettable).toEqual([expect.objectContaining({ challengeId: challenge.id, wrong: 2, maxAttempts: 2 })]);

    const response = (await attemptsAction({ request: post(`/dashboard/attempts?team=${team.id}`, admin, fields), params: {}, context: {} })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/dashboard/attempts?team=${team.id}`);
    const toast = await getToast(new Request("http://localhost/", { headers: { Cookie: response.headers.get("Set-Cookie")!.split(";")[0] } }));
    expect(toast.toast).toMatchObject({ type: "success", title: messages.flagAttempts.reset(team.name, challenge.title, 2) });
    expect(translateMessage(toast.toast!.title, "ar")).toContain("إجابتان خاطئتان");

    const [record] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "flag.attempts-reset"), eq(auditLog.teamId, team.id)));
    expect(record).toMatchObject({ subjectId: challenge.id, before: { challenge: challenge.id, wrongAnswersCounted: 2 }, after: { challenge: challenge.id, wrongAnswersCounted: 0 } });

    // The wrong answers stay listed, marked not counted; the team answers again.
    const after = await page(`?team=${team.id}`);
    expect(after.resettable).toEqual([]);
    expect(after.attempts.map((row) => row.counted)).toEqual([false, false]);
    // A second reset with nothing counted says so (a toast, nothing recorded).
    const again = (await attemptsAction({ request: post("/dashboard/attempts", admin, fields), params: {}, context: {} })) as Response;
    const refused = await getToast(new Request("http://localhost/", { headers: { Cookie: again.headers.get("Set-Cookie")!.split(";")[0] } }));
    expect(refused.toast).toMatchObject({ type: "error", title: messages.dashboard.warn(messages.flagAttempts.nothingToReset) });
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "flag.attempts-reset"), eq(auditLog.teamId, team.id)))).toHaveLength(1);
    expect(await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "no 3" })).toMatchObject({ verdict: "incorrect", attemptsLeft: 1 });
    expect((await sendFlag({ actor, teamId: team.id, challengeId: challenge.id, answer: "GK{again}" })).verdict).toBe("correct");

  });

  it("refuses a tampered form with a 400, and a judged challenge with a message", async () => {
    expect(await thrownStatus(attemptsAction({ request: post("/dashboard/attempts", admin, { intent: "reset", teamId: "x", challengeId: 1 }), params: {}, context: {} }))).toBe(400);
    expect(await thrownStatus(attemptsAction({ request: post("/dashboard/attempts", admin, { intent: "other" }), params: {}, context: {} }))).toBe(400);
    const judged = await makeChallenge({ wave: 1 });
    const { team } = await makePlayer();
    const response = (await attemptsAction({ request: post("/dashboard/attempts", admin, { intent: "reset", teamId: team.id, challengeId: judged.id }), params: {}, context: {} })) as Response;
    const toast = await getToast(new Request("http://localhost/", { headers: { Cookie: response.headers.get("Set-Cookie")!.split(";")[0] } }));
    expect(toast.toast?.title).toBe(messages.dashboard.warn(messages.flagAttempts.notFlag));
  });
});

describe("an admin's test of an answer", () => {
  it("says which answer it matches, as a team for a per-team one, and records nothing", async () => {
    const challenge = await makeFlagChallenge([
      { kind: "exact", value: "GK{tested}" },
      { kind: "per_team", value: "GK{<hmac>}" },
    ]);
    const { team } = await makePlayer();
    const flagOfTeam = perTeamFlag(challenge.flagSecret!, team.id, "GK{<hmac>}");
    type Tried = { data: { tried: { ok: boolean; matched: number | null; message: string; values: { answer: string } } }; init: { status: number } };
    const tryIt = async (fields: Record<string, string | number>, cookie = admin) =>
      (await attemptsAction({ request: post("/dashboard/attempts", cookie, { intent: "try", ...fields }), params: {}, context: {} })) as unknown as Tried;
    const exact = await tryIt({ challengeId: challenge.id, answer: "  GK{tested}  " });
    expect(exact.init.status).toBe(200);
    expect(exact.data.tried).toMatchObject({ ok: true, matched: 1, message: messages.flags.matchedAnswer(1) });
    expect((await tryIt({ challengeId: challenge.id, teamId: team.id, answer: flagOfTeam })).data.tried).toMatchObject({ ok: true, matched: 2 });
    // Without the team, a team's flag matches nothing; what was typed comes back.
    const none = await tryIt({ challengeId: challenge.id, teamId: "", answer: flagOfTeam });
    expect(none.data.tried).toMatchObject({ ok: true, matched: null, message: messages.flags.matchedNothing, values: { answer: flagOfTeam } });
    // An answer the check refuses says why (400), the typed text kept.
    const long = await tryIt({ challengeId: challenge.id, answer: "x".repeat(1025) });
    expect(long.init.status).toBe(413);
    expect(long.data.tried).toMatchObject({ ok: false, message: messages.flags.tooLong });
    expect((await tryIt({ challengeId: "nope", answer: "x" })).init.status).toBe(400);
    // Nothing recorded: no attempt, no solve, no standing; judges and participants may not try.
    expect(await getDb().select().from(flagAttempts).where(eq(flagAttempts.challengeId, challenge.id))).toEqual([]);
    expect(await thrownStatus(tryIt({ challengeId: challenge.id, answer: "GK{tested}" }, judge))).toBe(403);
    expect(await thrownStatus(tryIt({ challengeId: challenge.id, answer: "GK{tested}" }, participant))).toBe(403);
  });
});

describe("sharing signals and per-team flags", () => {
  it("lists who sent another team's flag, for admins only; the team filter matches either side", async () => {
    const challenge = await makeFlagChallenge([{ kind: "per_team", value: "GK{<hmac>}" }]);
    const a = await makePlayer();
    const b = await makePlayer();
    const flagOfB = perTeamFlag(challenge.flagSecret!, b.team.id, "GK{<hmac>}");
    await sendFlag({ actor: a.actor, teamId: a.team.id, challengeId: challenge.id, answer: flagOfB });

    const sharing = await page(`?view=sharing&challenge=${challenge.id}`);
    expect(sharing.view).toBe("sharing");
    expect(sharing.sharing).toEqual([
      expect.objectContaining({ teamId: a.team.id, team: a.team.name, ownerTeamId: b.team.id, ownerTeam: b.team.name, userId: a.user.id, challengeId: challenge.id }),
    ]);
    expect((await page(`?view=sharing&team=${b.team.id}`)).sharing).toHaveLength(1);
    expect((await page(`?view=sharing&team=${a.team.id}`)).sharing).toHaveLength(1);
    expect(sharing.sharingTotal).toBeGreaterThanOrEqual(1);
    // The wrong answer is listed, the flag it was not kept.
    const attempts = await page(`?team=${a.team.id}`);
    expect(attempts.attempts).toEqual([expect.objectContaining({ verdict: "incorrect", answer: null })]);
    expect(JSON.stringify(attempts)).not.toContain(flagOfB.slice(3, 35));
    expect(await thrownStatus(page("?view=sharing", participant))).toBe(403);
    expect(await thrownStatus(page("?view=sharing", judge))).toBe(403);
  });

  it("downloads every team's flag as perTeamFlag derives it, audited, to admins only", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{static}" }, { kind: "per_team", value: " GK{<hmac>} " }]);
    const teamsMade = [await makeTeam("=cmd|' /C calc'!A0"), await makeTeam("Owls")];
    // The page offers it, and only the challenges with a per-team answer.
    const judgedFlag = await makeFlagChallenge([{ kind: "exact", value: "GK{only}" }]);
    const choices = (await attemptFilterChoices()).challenges;
    expect(choices.find((choice) => choice.id === challenge.id)?.perTeam).toBe(true);
    expect(choices.find((choice) => choice.id === judgedFlag.id)?.perTeam).toBe(false);
    const response = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: challenge.id }), params: {}, context: {} });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const lines = (await response.text()).replace("\uFEFF", "").trim().split("\r\n");
    expect(lines[0]).toBe("Team id,Team,Flag");
    for (const team of teamsMade) {
      const flag = perTeamFlag(challenge.flagSecret!, team.id, "GK{<hmac>}");
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${team.id},.*,${flag.replace(/[{}]/g, "\\$&")}$`)));
    }
    expect(lines.join("\n")).toContain(`${teamsMade[0].id},'=cmd|' /C calc'!A0,`);
    const [record] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "flag.export"), eq(auditLog.subjectId, challenge.id)));
    expect(record.after).toMatchObject({ challenge: challenge.id });
    expect(JSON.stringify(record)).not.toContain("GK{");

    // The key, for organisers' own services: the documented derivation from it gives every team's flag above.
    const keyed = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: challenge.id, what: "key" }), params: {}, context: {} });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(keyed.headers.get("Cache-Control")).toBe("no-store");
    expect(keyed.headers.get("Content-Disposition")).toBe(`attachment; filename="team-flags-key-${challenge.id}.txt"`);
    const text = await keyed.text();
    const key = /^Key \(hex, 32 bytes\): ([0-9a-f]{64})$/m.exec(text)?.[1];
    expect(key).toBeDefined();
    expect(text).toContain("Answer text: GK{<hmac>}");
    for (const team of teamsMade) {
      // Written from the text's words, not with perTeamFlag: HMAC-SHA256 over the id in decimal, 32 hex digits.
      const digits = createHmac("sha256", Buffer.from(key!, "hex")).update(String(team.id), "utf8").digest("hex").slice(0, 32);
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${team.id},.*,GK\\{${digits}\\}$`)));
    }
    const keyRecords = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "flag.export"), eq(auditLog.subjectId, challenge.id)));
    expect(keyRecords.map((row) => row.after)).toContainEqual(expect.objectContaining({ challenge: challenge.id, key: true }));
    expect(JSON.stringify(keyRecords)).not.toContain(key!);

    for (const cookie of [judge, participant]) {
      expect(await thrownStatus(teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", cookie, { challenge: challenge.id }), params: {}, context: {} }))).toBe(403);
      expect(await thrownStatus(teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", cookie, { challenge: challenge.id, what: "key" }), params: {}, context: {} }))).toBe(403);
      // The path as the router still matches it to this route: in capitals, percent-encoded.
      for (const path of ["/DASHBOARD/exports/team-flags.csv", "/%64ashboard/Exports/team-flags.csv"]) {
        expect(await thrownStatus(teamFlagsAction({ request: post(path, cookie, { challenge: challenge.id, what: "key" }), params: {}, context: {} })), path).toBe(403);
      }
    }
    // A challenge without per-team flags, or none at all: a 4xx sentence.
    const plain = await makeFlagChallenge([{ kind: "exact", value: "GK{x}" }]);
    const refused = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: plain.id }), params: {}, context: {} });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toBe(messages.flagAttempts.notPerTeam);
    const missing = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: "abc" }), params: {}, context: {} });
    expect(missing.status).toBe(400);
    const plainKey = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: plain.id, what: "key" }), params: {}, context: {} });
    expect(plainKey.status).toBe(409);
    const unknownWhat = await teamFlagsAction({ request: post("/dashboard/exports/team-flags.csv", admin, { challenge: challenge.id, what: "everything" }), params: {}, context: {} });
    expect(unknownWhat.status).toBe(400);
    expect(await unknownWhat.text()).toBe(messages.errors.badRequest);
  });
});

describe("the CTFtime scoreboard", () => {
  it("gives the live standings in the ranking order, scores as numbers with at most 2 decimals", async () => {
    const [a, b, c] = [await makeTeam("Alpha"), await makeTeam("Beta \"quoted\""), await makeTeam("Gamma")];
    const tied = new Date(Date.now() - 60_000);
    await getDb()
      .insert(standings)
      .values([
        { teamId: a.id, totalCenti: 123_457, totalReachedAt: new Date(tied.getTime() + 1) },
        { teamId: b.id, totalCenti: 123_457, totalReachedAt: tied },
        { teamId: c.id, totalCenti: 2050, totalReachedAt: tied },
      ])
      .onConflictDoNothing();
    const response = await ctftimeLoader({ request: get("/dashboard/exports/ctftime.json", admin), params: {}, context: {} });
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as { standings: Array<{ pos: number; team: string; score: number }> };
    expect(Object.keys(body)).toEqual(["standings"]);
    expect(body.standings.map((row) => row.pos)).toEqual(body.standings.map((_, index) => index + 1));
    const mine = body.standings.filter((row) => [a.name, b.name, c.name].includes(row.team));
    // A tie goes to the team that reached it first.
    expect(mine.map((row) => [row.team, row.score])).toEqual([
      ['Beta "quoted"', 1234.57],
      ["Alpha", 1234.57],
      ["Gamma", 20.5],
    ]);
    for (const row of body.standings) expect(Object.keys(row)).toEqual(["pos", "team", "score"]);
    expect(await thrownStatus(ctftimeLoader({ request: get("/dashboard/exports/ctftime.json", judge), params: {}, context: {} }))).toBe(403);
  });
});
