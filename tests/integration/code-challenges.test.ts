/**
 * Code challenges' forms and rules without a runner (docs/domain.md "Code challenges"), on real Postgres, Redis
 * and S3: the challenge form takes checking by tests; an admin's languages, limits and hidden tests (the archive
 * checked at its upload, a refusal a sentence, nothing typed lost); a team's program, pasted or as a file, held to
 * the challenge's languages and the team's limits; a judged upload refused; the audit records.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, challenges, codeRuns, runnerLanguages, teamAnswers } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { enqueue, getQueue } from "../../app/infrastructure/queue.server.ts";
import { objectExists } from "../../app/infrastructure/s3.server.ts";
import { adminCodePost, codePost } from "../../app/glue/code.server.ts";
import { ChallengeApiSchema, ChallengeFormSchema } from "../../app/modules/challenges/schema.ts";
import { judgingPaused } from "../../app/modules/code/rejudge.server.ts";
import { forgetReportedLanguageVersions, NONE_REPORTED_TTL_MS, reportedLanguageVersions, REPORTED_VERSIONS_TTL_MS, reportLanguageVersions } from "../../app/modules/code/runner-languages.server.ts";
import { adminCodePage, codePage, judgeErrorAlert, QUEUED_PER_TEAM, requeueStaleRuns, STAFF_RUNS_PAGE_SIZE } from "../../app/modules/code/runs.server.ts";
import { readRunListQuery } from "../../app/modules/code/schema.ts";
import { GIVEN_UP_AFTER_FAILURES } from "../../app/modules/code/settings.server.ts";
import { teamChallengeScore } from "../../app/modules/code/scoring.ts";
import { getCodeChallenge } from "../../app/modules/code/settings.server.ts";
import { assertCanSubmit } from "../../app/modules/submissions/submit.server.ts";
import { archiveForm, codeChallenge, post, programForm, settingsForm, SUMS, tarGz } from "../support/code.ts";
import { callerOf, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makePlayer, makeUser, testAdmin } from "../support/fixtures.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { markStandingsStale } from "../../app/modules/standings/outbox.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { getScoreboard } from "../../app/modules/standings/scoreboard.server.ts";

afterAll(() => closeEmitter());
beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

describe("code challenges: the admin's side", () => {
  it("the challenge form takes checking by tests, with no flag answers", () => {
    const base = { title: "Sums", description: "Add two numbers", points: "100", category: "PS", wave: "1" };
    expect(ChallengeFormSchema.safeParse({ ...base, checking: "tests" }).success).toBe(true);
    const withAnswers = ChallengeFormSchema.safeParse({ ...base, checking: "tests", answers: "flag{x}" });
    expect(withAnswers.success).toBe(false);
    // The API's input likewise (its languages, limits and tests are the dashboard page's).
    const api = ChallengeApiSchema.safeParse({ title: "Sums", description: "Add two numbers", points: "100", category: "PS", wave: 1, checking: "tests" });
    expect(api.error?.issues ?? []).toEqual([]);
  });

  it("refuses bad settings with a sentence, giving back what was typed", async () => {
    const admin = await makeUser("admin");
    const challenge = await makeChallenge({ category: "PS" });
    await getDb().update(challenges).set({ checking: "tests" }).where(eq(challenges.id, challenge.id));
    const path = `/dashboard/code/${challenge.id}`;
    const slow = await adminCodePost(post(path, settingsForm({ timeLimitMs: "99999" })), callerOf(admin), challenge.id);
    expect(slow).toMatchObject({ ok: false, status: 400, message: "Time limit: a whole number of milliseconds from 100 to 20,000.", fields: { timeLimitMs: "99999", memoryLimitMb: "128" } });
    const none = await adminCodePost(post(path, settingsForm({ languages: [] })), callerOf(admin), challenge.id);
    expect(none).toMatchObject({ ok: false, status: 400, message: "Choose at least one language." });
    const unknown = await adminCodePost(post(path, settingsForm({ languages: ["cobol"] })), callerOf(admin), challenge.id);
    expect(unknown).toMatchObject({ ok: false, status: 400, message: "Choose a language this platform runs." });
    // Tests before settings: told to save the settings first.
    const early = await adminCodePost(post(path, archiveForm(await tarGz(SUMS))), callerOf(admin), challenge.id);
    expect(early).toMatchObject({ ok: false, status: 409, message: "Save the challenge's languages and limits first, then upload its tests." });
    // A judged challenge has no code settings.
    const judged = await makeChallenge();
    expect(await adminCodePost(post(`/dashboard/code/${judged.id}`, settingsForm()), callerOf(admin), judged.id)).toMatchObject({ ok: false, status: 409 });
    expect(await getCodeChallenge(challenge.id)).toBeNull();
  });

  it("outdates the judgements in progress when the limits, languages or comparison change, not when saved unchanged", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const generation = async () => (await getCodeChallenge(challenge.id))!.generation;
    const first = await generation();
    expect(await adminCodePost(post(path, settingsForm()), caller, challenge.id)).toMatchObject({ ok: true });
    expect(await generation()).toBe(first);
    for (const [change, over] of [
      ["time", { timeLimitMs: "1500" }],
      ["memory", { timeLimitMs: "1500", memoryLimitMb: "64" }],
      ["comparison", { timeLimitMs: "1500", memoryLimitMb: "64", comparator: "numeric" }],
      ["languages", { timeLimitMs: "1500", memoryLimitMb: "64", comparator: "numeric", languages: ["python3"] }],
    ] as [string, Record<string, string | string[]>][]) {
      const before = await generation();
      expect(await adminCodePost(post(path, settingsForm(over)), caller, challenge.id), change).toMatchObject({ ok: true });
      expect(await generation(), change).toBe(before + 1);
    }
  });

  it("keeps a checked archive's subtasks, refuses a hostile one by name and deletes it, and records both changes", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const saved = (await getCodeChallenge(challenge.id))!;
    expect(saved).toMatchObject({ languages: ["python3", "c"], timeLimitMs: 1000, memoryLimitMb: 128, comparator: "exact", totalShare: 100, testsName: "tests.tar.gz" });
    expect(saved.subtasks).toEqual([
      { name: "large", share: 70, tests: 1 },
      { name: "small", share: 30, tests: 2 },
    ]);
    const hostile = await adminCodePost(post(path, archiveForm(await tarGz({ "small/../../etc/passwd.in": "x" }))), caller, challenge.id);
    expect(hostile).toMatchObject({ ok: false, status: 400 });
    expect((hostile as { message: string }).message).toMatch(/^The tests archive was refused, nothing was changed: .*climbs out of the archive/);
    const notGzip = await adminCodePost(post(path, archiveForm(Buffer.from("not an archive"))), caller, challenge.id);
    expect(notGzip).toMatchObject({ ok: false, status: 400 });
    // The refused archives changed nothing; the kept one is still in storage.
    expect((await getCodeChallenge(challenge.id))!.testsKey).toBe(saved.testsKey);
    expect(await objectExists(saved.testsKey!)).toBe(true);
    const recorded = await getDb().select({ kind: auditLog.kind }).from(auditLog).where(eq(auditLog.subjectId, challenge.id));
    for (const kind of ["code.settings", "code.tests"]) expect(recorded.filter((row) => row.kind === kind), kind).toHaveLength(1);
  });
});

describe("code challenges: a team's programs", () => {
  it("takes a pasted program or a file, in the challenge's languages only, and shows it queued with nothing of the tests", async () => {
    const { challenge } = await codeChallenge();
    const { team, user } = await makePlayer();
    const caller = callerOf(user);
    const path = `/code/${challenge.id}`;
    const begun = new Date();
    expect(await codePost(post(path, programForm("python3", "print(sum(map(int, input().split())))")), caller, challenge.id, begun)).toMatchObject({ ok: true });
    expect(await codePost(post(path, programForm("python3", "print(3)", true)), caller, challenge.id, begun)).toMatchObject({ ok: true });
    const java = await codePost(post(path, programForm("java", "class Main {}")), caller, challenge.id, begun);
    expect(java).toMatchObject({ ok: false, status: 400, message: "This challenge does not take programs in that language.", fields: { language: "java", source: "class Main {}" } });
    const empty = await codePost(post(path, programForm("python3", "   ")), caller, challenge.id, begun);
    expect(empty).toMatchObject({ ok: false, status: 400, message: "Paste your program or choose its file." });
    const huge = await codePost(post(path, programForm("python3", "#".repeat(70 * 1024), true)), caller, challenge.id, begun);
    expect(huge).toMatchObject({ ok: false, status: 413, message: "A program has at most 64 KB." });
    const rows = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id));
    expect(rows.map((row) => [row.language, row.state, row.userId])).toEqual([
      ["python3", "queued", user.id],
      ["python3", "queued", user.id],
    ]);
    const page = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(page.runs).toHaveLength(2);
    expect(page.challenge.subtasks.map((subtask) => [subtask.name, subtask.share, subtask.tests])).toEqual([
      ["large", 70, 1],
      ["small", 30, 2],
    ]);
    expect(JSON.stringify(page)).not.toContain("4000000000");
  });

  it("shows each language's version as the runners reported it (none before), whatever the web's machine has", async () => {
    const { challenge } = await codeChallenge();
    const { team } = await makePlayer();
    forgetReportedLanguageVersions();
    const before = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(before.challenge.languages).toEqual([
      { id: "python3", name: expect.any(String), version: null },
      { id: "c", name: expect.any(String), version: null },
    ]);
    // A runner's report as it starts (workers/runner.ts): read within 5 s while none had been.
    await reportLanguageVersions(new Map([["python3", "python3.11-minimal 3.11.2-6"], ["c", "gcc-12 12.2.0-14"]]));
    const soon = Date.now() + NONE_REPORTED_TTL_MS + 1;
    expect(Object.fromEntries(await reportedLanguageVersions(soon))).toEqual({ python3: "python3.11-minimal 3.11.2-6", c: "gcc-12 12.2.0-14" });
    // Another runner's later report replaces a language's; a web process reads again at most once a minute.
    await reportLanguageVersions(new Map([["c", "gcc-12 12.2.0-14+deb12u1"]]));
    expect((await reportedLanguageVersions(soon + 1_000)).get("c")).toBe("gcc-12 12.2.0-14");
    expect((await reportedLanguageVersions(soon + REPORTED_VERSIONS_TTL_MS)).get("c")).toBe("gcc-12 12.2.0-14+deb12u1");
    forgetReportedLanguageVersions();
    const after = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(after.challenge.languages.map((language) => [language.id, language.version])).toEqual([
      ["python3", "python3.11-minimal 3.11.2-6"],
      ["c", "gcc-12 12.2.0-14+deb12u1"],
    ]);
    const admin = (await adminCodePage(challenge.id, { role: "admin" }))!;
    expect(admin.available.find((language) => language.id === "c")?.version).toBe("gcc-12 12.2.0-14+deb12u1");
    expect(admin.available.find((language) => language.id === "java")?.version).toBeNull();
    expect((await getDb().select().from(runnerLanguages)).map((row) => row.language).sort()).toEqual(["c", "python3"]);
  });

  it("holds a team to its queued runs and to its runs a minute, with a sentence; another team is not held", async () => {
    const { challenge } = await codeChallenge();
    const { team, user } = await makePlayer();
    const path = `/code/${challenge.id}`;
    for (let i = 0; i < QUEUED_PER_TEAM; i++) expect(await codePost(post(path, programForm("c", `int main(){return ${i};}`)), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
    const more = await codePost(post(path, programForm("c", "int main(){}")), callerOf(user), challenge.id, new Date());
    expect(more).toMatchObject({ ok: false, status: 429, message: "Your team already has 3 programs waiting to be judged: wait for a verdict before sending another." });
    // Judged runs no longer wait, but the minute still counts them.
    await getDb().update(codeRuns).set({ state: "done", verdict: "wrong-answer" }).where(eq(codeRuns.teamId, team.id));
    for (let i = 0; i < 3; i++) expect(await codePost(post(path, programForm("c", "int main(){}")), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
    await getDb().update(codeRuns).set({ state: "done", verdict: "wrong-answer" }).where(eq(codeRuns.teamId, team.id));
    const fast = await codePost(post(path, programForm("c", "int main(){}")), callerOf(user), challenge.id, new Date());
    expect(fast).toMatchObject({ ok: false, status: 429, message: "Your team has sent 6 programs in the last minute: wait a minute before sending another." });
    const other = await makePlayer();
    expect(await codePost(post(path, programForm("c", "int main(){}")), callerOf(other.user), challenge.id, new Date())).toMatchObject({ ok: true });
  });

  it("lets a team send while its judged runs are judged again, or while runs the platform gave up on wait for the admins", async () => {
    const { challenge } = await codeChallenge();
    const { team, user } = await makePlayer();
    const path = `/code/${challenge.id}`;
    const long = new Date(Date.now() - 5 * 60_000);
    // Three runs judged once and queued again by a rejudge (their verdict kept, finished), one given up on.
    const judgedOnce = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "c", source: "int main(){}", createdAt: long, finishedAt: long, verdict: "wrong-answer" as const };
    await getDb().insert(codeRuns).values([{ ...judgedOnce, state: "queued" }, { ...judgedOnce, state: "queued" }, { ...judgedOnce, state: "running" }]);
    await getDb().insert(codeRuns).values({ ...judgedOnce, finishedAt: null, verdict: null, state: "queued", failures: GIVEN_UP_AFTER_FAILURES });
    expect(await codePost(post(path, programForm("c", "int main(){return 1;}")), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
  });

  it("shows the team the points of all its runs, though it lists the newest 100", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const subtask = (await getCodeChallenge(challenge.id))!.subtasks[0]!;
    const base = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "print(1)", state: "done" as const, verdict: "wrong-answer" as const };
    await getDb().insert(codeRuns).values({ ...base, passedSubtasks: [subtask.name], createdAt: new Date(Date.now() - 60 * 60_000) });
    await getDb().insert(codeRuns).values(Array.from({ length: 100 }, () => ({ ...base, passedSubtasks: [] })));
    const page = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(page.runs).toHaveLength(100);
    const [answer] = await getDb().select().from(teamAnswers).where(and(eq(teamAnswers.teamId, team.id), eq(teamAnswers.challengeId, challenge.id)));
    expect(answer.scoreCenti).toBeGreaterThan(0);
    expect(page.pointsCenti).toBe(answer.scoreCenti);
  });

  it("lists every run to the staff a page at a time, each with its tests, and on asking only those failing on the platform's side, which the admins' alert names", async () => {
    const { challenge } = await codeChallenge(100);
    const { team, user } = await makePlayer();
    const tests = [{ subtask: "small", test: "1", verdict: "accepted", timeMs: 5, memoryBytes: 1 }];
    const base = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "print(1)" };
    // 30 judged runs, then one waiting after a judge error, one judged after one (no longer failing), and one given up on.
    const judged = await getDb()
      .insert(codeRuns)
      .values(Array.from({ length: 30 }, () => ({ ...base, state: "done" as const, verdict: "accepted" as const, tests })))
      .returning({ id: codeRuns.id });
    const [failing, recovered, givenUp] = await getDb()
      .insert(codeRuns)
      .values([
        { ...base, state: "queued" as const, failures: 2, failure: "tests unreadable: gone" },
        { ...base, state: "done" as const, verdict: "accepted" as const, failures: 1, failure: "run sandbox failed", tests },
        { ...base, state: "queued" as const, failures: GIVEN_UP_AFTER_FAILURES, failure: "run sandbox failed" },
      ])
      .returning({ id: codeRuns.id });
    const staff = { role: "judge" as const };
    const first = (await adminCodePage(challenge.id, staff))!;
    expect(first.pages).toMatchObject({ page: 1, pages: 2, total: 33, from: 1, to: STAFF_RUNS_PAGE_SIZE });
    expect(first.runs[0].id).toBe(givenUp.id);
    // Every run of every page with its tests: the oldest too.
    const second = (await adminCodePage(challenge.id, staff, readRunListQuery(new URLSearchParams("page=2"))))!;
    expect(second.pages).toMatchObject({ page: 2, pages: 2, from: 26, to: 33 });
    expect(second.runs.at(-1)!.id).toBe(judged[0].id);
    expect(second.runs.every((run) => run.tests.length === 1)).toBe(true);
    // A page past the last is the last; a page not a number, the first.
    expect((await adminCodePage(challenge.id, staff, readRunListQuery(new URLSearchParams("page=99"))))!.pages.page).toBe(2);
    expect((await adminCodePage(challenge.id, staff, readRunListQuery(new URLSearchParams("page=x&failing=yes"))))!.pages).toMatchObject({ page: 1, total: 33 });
    const onlyFailing = (await adminCodePage(challenge.id, staff, readRunListQuery(new URLSearchParams("failing=1"))))!;
    expect(onlyFailing.failing).toBe(true);
    expect(onlyFailing.runs.map((run) => [run.id, run.failures, run.failure])).toEqual([
      [givenUp.id, GIVEN_UP_AFTER_FAILURES, "run sandbox failed"],
      [failing.id, 2, "tests unreadable: gone"],
    ]);
    expect(onlyFailing.runs.map((run) => run.id)).not.toContain(recovered.id);
    // The admins' alert: this challenge (this file's other tests' may be listed too), its two failing runs, titled in the reader's language.
    await getDb().update(challenges).set({ titleAr: "مجاميع معطلة" }).where(eq(challenges.id, challenge.id));
    const alert = await judgeErrorAlert("en", 1000);
    expect(alert.challenges.find((row) => row.id === challenge.id)).toEqual({ id: challenge.id, title: challenge.title, runs: 2 });
    expect((await judgeErrorAlert("ar", 1000)).challenges.find((row) => row.id === challenge.id)?.title).toBe("مجاميع معطلة");
    // Judged at last: the challenge leaves the alert.
    await getDb().update(codeRuns).set({ state: "done", verdict: "accepted" }).where(eq(codeRuns.challengeId, challenge.id));
    expect((await judgeErrorAlert("en", 1000)).challenges.map((row) => row.id)).not.toContain(challenge.id);
  });

  it("queues again only the runs whose runner went silent, never a slow run still being judged, nor one given up on", async () => {
    const { challenge } = await codeChallenge();
    const { team, user } = await makePlayer();
    const base = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "print(1)", createdAt: new Date(Date.now() - 30 * 60_000) };
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const rows = await getDb()
      .insert(codeRuns)
      .values([
        // Sent half an hour ago and still judged: its runner wrote a sign of life a moment ago.
        { ...base, state: "running", aliveAt: minutesAgo(0.1) },
        // Its runner silent for five minutes: gone.
        { ...base, state: "compiling", aliveAt: minutesAgo(5) },
        // Given up on after its judge errors: left for the admins.
        { ...base, state: "queued", failures: GIVEN_UP_AFTER_FAILURES },
      ])
      .returning({ id: codeRuns.id });
    expect(await requeueStaleRuns()).toBeGreaterThanOrEqual(1);
    const jobs = await getQueue("runs").getJobs(["waiting", "delayed", "prioritized"]);
    const queuedIds = new Set(jobs.map((job) => (job.data as { runId: number }).runId));
    expect(rows.map((row) => queuedIds.has(row.id))).toEqual([false, true, false]);
  });

  it("queues again a run left queued only when no job for it waits: a backlog or paused judging adds no second job", async () => {
    const { challenge } = await codeChallenge();
    const { team, user } = await makePlayer();
    const base = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "print(1)", state: "queued" as const, createdAt: new Date(Date.now() - 5 * 60_000) };
    const [waiting, lost] = await getDb().insert(codeRuns).values([base, base]).returning({ id: codeRuns.id });
    // The first still has its job in the queue (a runner has not come to it yet); the second's job was lost.
    await enqueue("runs", { runId: waiting.id });
    await requeueStaleRuns();
    await requeueStaleRuns();
    const jobs = await getQueue("runs").getJobs(["waiting", "delayed", "prioritized"]);
    const jobsOf = (id: number) => jobs.filter((job) => (job.data as { runId?: number }).runId === id).length;
    expect([jobsOf(waiting.id), jobsOf(lost.id)]).toEqual([1, 1]);
  });

  it("refuses a program before the tests are uploaded, and a judged upload to a challenge checked by tests", async () => {
    const admin = await makeUser("admin");
    const challenge = await makeChallenge({ category: "PS" });
    await getDb().update(challenges).set({ checking: "tests" }).where(eq(challenges.id, challenge.id));
    await adminCodePost(post(`/dashboard/code/${challenge.id}`, settingsForm()), callerOf(admin), challenge.id);
    const { team, user } = await makePlayer();
    const early = await codePost(post(`/code/${challenge.id}`, programForm("python3", "print(1)")), callerOf(user), challenge.id, new Date());
    expect(early).toMatchObject({ ok: false, status: 409, message: "This challenge's tests are not uploaded yet: programs cannot be judged before they are." });
    await expect(assertCanSubmit({ teamId: team.id, challengeId: challenge.id })).rejects.toMatchObject({ status: 409, message: "This challenge runs your program against hidden tests: send it on the challenge's code page." });
  });

  it("rejudges a judged run, which keeps its verdict and points until the new ones; a run not judged cannot be", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const { team, user } = await makePlayer();
    await codePost(post(`/code/${challenge.id}`, programForm("python3", "print(3)")), callerOf(user), challenge.id, new Date());
    const [run] = await getDb().select().from(codeRuns).where(eq(codeRuns.teamId, team.id));
    const notYet = await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge", run: String(run.id) })), caller, challenge.id);
    expect(notYet).toMatchObject({ ok: false, status: 409, message: "This run is not judged yet: it cannot be judged again before." });
    await getDb().update(codeRuns).set({ state: "done", verdict: "wrong-answer", passedSubtasks: ["small"], pointsCenti: 3000 }).where(eq(codeRuns.id, run.id));
    for (const run of ["x", "2147483648", "9999999999"]) {
      const bad = await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge", run })), caller, challenge.id);
      expect(bad, `run ${run}`).toMatchObject({ ok: false, status: 400 });
    }
    const again = await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge" })), caller, challenge.id);
    expect(again).toMatchObject({ ok: true, message: "Runs queued to be judged again: 1. Each keeps its last verdict until the new one." });
    const [queued] = await getDb().select().from(codeRuns).where(eq(codeRuns.id, run.id));
    expect(queued).toMatchObject({ state: "queued", verdict: "wrong-answer", passedSubtasks: ["small"], createdAt: run.createdAt });
    // Its points still count while it waits.
    const page = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(page.pointsCenti).toBe(3000);
    const recorded = await getDb().select({ after: auditLog.after }).from(auditLog).where(eq(auditLog.kind, "code.rejudged"));
    expect(recorded.some((row) => JSON.stringify(row.after) === JSON.stringify({ runs: 1 }))).toBe(true);
  });

  it("rejudges a run the platform gave up on after its judge errors, one by one or with every run", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const { team, user } = await makePlayer();
    const givenUp = { teamId: team.id, challengeId: challenge.id, userId: user.id, language: "c", source: "int main(){}", state: "queued" as const, failures: GIVEN_UP_AFTER_FAILURES, failure: "the checker failed" };
    const [one, all] = await getDb().insert(codeRuns).values([givenUp, givenUp]).returning();
    const rejudged = await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge", run: String(one!.id) })), caller, challenge.id);
    expect(rejudged).toMatchObject({ ok: true, message: "Runs queued to be judged again: 1. Each keeps its last verdict until the new one." });
    expect((await getDb().select().from(codeRuns).where(eq(codeRuns.id, one!.id)))[0]).toMatchObject({ state: "queued", failures: 0, failure: null });
    const every = await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge" })), caller, challenge.id);
    expect(every).toMatchObject({ ok: true });
    expect((await getDb().select().from(codeRuns).where(eq(codeRuns.id, all!.id)))[0]).toMatchObject({ state: "queued", failures: 0 });
  });

  it("pauses and resumes every runner, each once, recorded", async () => {
    const { challenge, caller, path } = await codeChallenge();
    const pause = () => adminCodePost(post(path, new URLSearchParams({ intent: "pause" })), caller, challenge.id);
    const resume = () => adminCodePost(post(path, new URLSearchParams({ intent: "resume" })), caller, challenge.id);
    try {
      expect(await pause()).toMatchObject({ ok: true, message: "Judging paused: programs are still taken and queued, no runner starts one." });
      expect(await judgingPaused()).toBe(true);
      expect(await pause()).toMatchObject({ ok: false, status: 409, message: "Judging was already paused." });
      // Programs are still taken while paused.
      const { user } = await makePlayer();
      expect(await codePost(post(`/code/${challenge.id}`, programForm("c", "int main(){}")), callerOf(user), challenge.id, new Date())).toMatchObject({ ok: true });
      expect(await resume()).toMatchObject({ ok: true, message: "Judging resumed: runners take the queued programs." });
      expect(await judgingPaused()).toBe(false);
      expect(await resume()).toMatchObject({ ok: false, status: 409 });
    } finally {
      await resume();
    }
    const kinds = (await getDb().select({ kind: auditLog.kind }).from(auditLog).where(eq(auditLog.actorId, caller.id))).map((row) => row.kind);
    expect(kinds.filter((kind) => kind === "code.paused")).toHaveLength(1);
    expect(kinds.filter((kind) => kind === "code.resumed")).toHaveLength(1);
  });

  it("counts the best of each subtask over the team's runs in team_answers, as scoring.ts does, to the hundredth and the instant", async () => {
    // 70 points over shares 1, 1, 1 (thirds round), and samples worth nothing (passing them dates nothing) — and
    // the view agrees with its TypeScript twin on random runs.
    const files = { "subtasks.json": JSON.stringify({ a: 1, b: 1, c: 1, samples: 0 }), "a/1.in": "1", "a/1.out": "1", "b/1.in": "1", "b/1.out": "1", "c/1.in": "1", "c/1.out": "1", "samples/1.in": "1", "samples/1.out": "1" };
    const { challenge } = await codeChallenge(70, files);
    const subtasks = (await getCodeChallenge(challenge.id))!.subtasks;
    const { team, user } = await makePlayer();
    const base = Date.UTC(2030, 0, 1);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const runs: Array<{ id: number; createdAt: Date; passedSubtasks: string[] }> = [];
    let partial = false;
    for (let i = 0; i < 8; i++) {
      const passedSubtasks = ["a", "b", "c", "samples"].filter(() => random() < 0.3);
      const createdAt = new Date(base + Math.floor(random() * 1000) * 1000);
      const [row] = await getDb()
        .insert(codeRuns)
        .values({ teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "x", state: "done", verdict: "wrong-answer", passedSubtasks, createdAt })
        .returning({ id: codeRuns.id });
      runs.push({ id: row.id, createdAt, passedSubtasks });
      const expected = teamChallengeScore(challenge.points, subtasks, runs);
      const [answer] = await getDb().select().from(teamAnswers).where(and(eq(teamAnswers.teamId, team.id), eq(teamAnswers.challengeId, challenge.id)));
      expect(answer?.scoreCenti ?? 0, `after ${i + 1} runs`).toBe(expected.pointsCenti);
      expect(answer?.scoredAt ?? null).toEqual(expected.reachedAt);
      partial ||= expected.pointsCenti % 100 !== 0;
    }
    // The draw went through partial scores (thirds: the rounding was at stake).
    expect(partial).toBe(true);
  });

  it("shows judges every run and lets them rejudge, while the settings, the tests and pausing stay the admins'", async () => {
    const { challenge, path } = await codeChallenge();
    const judge = callerOf(await makeUser("judge"));
    const { team, user } = await makePlayer();
    await codePost(post(`/code/${challenge.id}`, programForm("python3", "print(3)")), callerOf(user), challenge.id, new Date());
    await getDb().update(codeRuns).set({ state: "done", verdict: "accepted", tests: [{ subtask: "small", test: "1", verdict: "accepted", timeMs: 5, memoryBytes: 1 }] }).where(eq(codeRuns.teamId, team.id));
    const page = (await adminCodePage(challenge.id, judge))!;
    expect(page.admin).toBe(false);
    expect(page.runs.map((run) => [run.teamName, run.verdict])).toEqual([[team.name, "accepted"]]);
    const adminOnly = "Only an admin changes a code challenge's settings and tests, or pauses judging; judges may rejudge.";
    expect(await adminCodePost(post(path, settingsForm({ timeLimitMs: "5000" })), judge, challenge.id)).toMatchObject({ ok: false, status: 403, message: adminOnly });
    expect(await adminCodePost(post(path, archiveForm(await tarGz(SUMS))), judge, challenge.id)).toMatchObject({ ok: false, status: 403, message: adminOnly });
    expect(await adminCodePost(post(path, new URLSearchParams({ intent: "pause" })), judge, challenge.id)).toMatchObject({ ok: false, status: 403 });
    expect((await getCodeChallenge(challenge.id))!.timeLimitMs).toBe(1000);
    expect(await adminCodePost(post(path, new URLSearchParams({ intent: "rejudge" })), judge, challenge.id)).toMatchObject({ ok: true });
    // A team's page shows a test by its position only; the staff's, by its name.
    const teamPage = (await codePage(challenge.id, { role: "participant", teamId: team.id }, "en"))!;
    expect(teamPage.runs[0].tests).toEqual([{ subtask: "small", test: "1", verdict: "accepted", timeMs: 5, memoryBytes: 1 }]);
  });

  it("moves the frozen board like a score: participants see other teams' code points as frozen, the team its own live", async () => {
    const { challenge } = await codeChallenge(100);
    const [mine, theirs] = [await makePlayer(), await makePlayer()];
    await rebuildStandings();
    await setScoreboardFrozen(testAdmin, true);
    try {
      // Judged while frozen, as the runner saves a verdict: the run, its team marked stale, then recomputed.
      for (const [{ team, user }, passed, points] of [[mine, ["small"], 3000], [theirs, ["small", "large"], 10_000]] as const) {
        await getDb().transaction(async (tx) => {
          await tx.insert(codeRuns).values({ teamId: team.id, challengeId: challenge.id, userId: user.id, language: "python3", source: "print(1)", state: "done", verdict: passed.length === 2 ? "accepted" : "wrong-answer", passedSubtasks: [...passed], pointsCenti: points, finishedAt: new Date() });
          await markStandingsStale(tx, team.id);
        });
        await recomputeTeamStanding(team.id);
      }
      const viewer = await makeUser("participant", mine.team.id);
      const board = await getScoreboard({ id: viewer.id, role: "participant", teamId: mine.team.id });
      expect(board.frozen).toBe(true);
      expect(board.teams.find((team) => team.id === theirs.team.id)?.totalScore).toBe(0);
      expect(board.teams.find((team) => team.id === mine.team.id)).toMatchObject({ totalScore: 30, categories: { PS: 30 } });
      const adminBoard = await getScoreboard({ id: 1, role: "admin", teamId: null });
      expect(adminBoard.teams.find((team) => team.id === theirs.team.id)?.totalScore).toBe(100);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
    const viewer = await makeUser("participant", mine.team.id);
    expect((await getScoreboard({ id: viewer.id, role: "participant", teamId: mine.team.id })).teams.find((team) => team.id === theirs.team.id)?.totalScore).toBe(100);
  });
});
