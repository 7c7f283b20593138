/**
 * Drill: Postgres crashes (pg_ctl stop -m immediate: every backend killed, WAL replayed on start) and
 * comes back while participants submit and a judge scores through the real web process (server.ts,
 * production build) and a worker recomputes standings. While it is down every page and form answers
 * a clear 503 at once and /readyz names postgres; afterwards everything works again, every write the
 * server acknowledged is there, and every write it refused went through on retry. The cluster is the
 * drill's own (free port, /tmp): the shared Postgres is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions, submissionScores } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { closeDb } from "../../app/infrastructure/db.server.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";
import { DisposablePostgres } from "../support/disposable-postgres.ts";
import { startWebServer, startWorker, stopAll } from "../support/processes.ts";
import { expectStandingsMatchRebuild, waitForEmptyOutbox } from "../support/standings.ts";
import { countRows, FIXTURE_PASSWORD, seedDrillEvent } from "./support/event.ts";
import { get, leaksInternals, login, postForm, postMultipart, type PageResult } from "./support/http.ts";
import { fullDrills, recordDrill } from "./support/report.ts";
import { SteadyWriter, type Outcome } from "./support/steady-writer.ts";

const OUTAGE_MS = fullDrills ? 12_000 : 3_000;
/** A page must not hang while Postgres is down: the 503 comes at once (bounded connection timeouts). */
const OUTAGE_ANSWER_LIMIT_MS = 3_000;
/** Page loads and readiness probes made while Postgres is down, at least. */
const MIN_PROBES = 5;

let pg: DisposablePostgres;

beforeAll(async () => {
  pg = await DisposablePostgres.start();
  // This file's app code (fixtures, checks) and its child processes use the drill's cluster only.
  process.env.DATABASE_URL = pg.url;
  resetEnvForTests();
});

afterAll(async () => {
  stopAll();
  await closeDb();
  await pg?.destroy();
});

const outcomeOf = (result: PageResult | { status: "network-error"; error: string }, saved: (result: PageResult) => boolean): Outcome => {
  if (result.status === "network-error") return { kind: "unexpected", detail: result.error };
  if (saved(result)) return { kind: "saved" };
  if (result.status === 503) return { kind: "refused", status: 503 };
  return { kind: "unexpected", detail: `HTTP ${result.status}: ${result.body.slice(0, 200)}` };
};

describe("drill: Postgres restart", () => {
  it("answers a clear 503 while Postgres is down, recovers by itself, and loses no row", async () => {
    const event = await seedDrillEvent({ teams: 2, judges: 1, challenges: fullDrills ? 40 : 16, submittedChallenges: 4 });
    const [{ url: web }] = await Promise.all([startWebServer(), startWorker()]);
    const [playerA, playerB, judge] = await Promise.all([
      login(web, event.teams[0].participant.name, FIXTURE_PASSWORD),
      login(web, event.teams[1].participant.name, FIXTURE_PASSWORD),
      login(web, event.judges[0].name, FIXTURE_PASSWORD),
    ]);
    const before = { submissions: await countRows(submissions), scores: await countRows(submissionScores) };

    // New submissions (one row each) to the challenges not yet submitted, and scores of the existing ones.
    const open = event.challenges.slice(4);
    const newSubmissions = [...open.map((challenge) => ({ cookie: playerA, challenge })), ...open.map((challenge) => ({ cookie: playerB, challenge }))];
    const submitter = new SteadyWriter(newSubmissions, async ({ cookie, challenge }) =>
      outcomeOf(await postMultipart(`${web}/submition/${challenge.id}/upload`, cookie, [{ name: "text", value: `answer to ${challenge.id}` }]), (result) => result.status === 200 && JSON.parse(result.body).ok === true),
    100).start();
    const scorer = new SteadyWriter(event.submissions, async (submission) =>
      outcomeOf(await postForm(`${web}/dashboard/submissions`, judge, { submissionId: String(submission.id), score: String(submission.points - 10) }), (result) => result.status === 302),
    250).start();

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const savedBeforeCrash = submitter.saved.length + scorer.saved.length;
    pg.crash();
    const crashedAt = Date.now();

    // What users and probes see while it is down: a participant reloading, a load balancer probing.
    // For the outage's length and at least MIN_PROBES times each, however slow a busy machine answers.
    const whileDown = async (probe: () => Promise<void>) => {
      for (let probes = 0; probes < MIN_PROBES || Date.now() - crashedAt < OUTAGE_MS; probes += 1) {
        await probe();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const pages: PageResult[] = [];
    const readiness: PageResult[] = [];
    await Promise.all([
      whileDown(async () => void pages.push(await get(`${web}/gates`, playerA))),
      whileDown(async () => void readiness.push(await get(`${web}/readyz`))),
    ]);
    const loginWhileDown = await postForm(`${web}/login`, "", { username: event.teams[0].participant.name, password: FIXTURE_PASSWORD });
    const registration = { name: "Outage", lastName: "Tester", email: "outage.tester@example.org", phone: "0500000000", hasTeam: "no", nationalId: "1234567890", skill: "Typing while the database is down", tshirtSize: "M" };
    const registerWhileDown = await postForm(`${web}/register`, "", registration);
    const refusedWhileDown = submitter.refusals.length + scorer.refusals.length;

    await pg.start();
    const backAt = Date.now();
    let readyAfterMs = -1;
    while (readyAfterMs < 0 && Date.now() - backAt < 30_000) {
      if ((await get(`${web}/readyz`)).status === 200) readyAfterMs = Date.now() - backAt;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all([submitter.finish(60_000), scorer.finish(60_000)]);
    const firstWriteAfterMs = Math.min(...[...submitter.savedAt, ...scorer.savedAt].filter((at) => at >= backAt)) - backAt;
    const pageAfter = await get(`${web}/gates`, playerA);
    await waitForEmptyOutbox(30_000);
    await expectStandingsMatchRebuild();
    const after = { submissions: await countRows(submissions), scores: await countRows(submissionScores) };

    recordDrill({
      drill: "postgres-restart",
      faults: 1,
      fault: `Postgres crashed (pg_ctl stop -m immediate) for ${OUTAGE_MS / 1000} s, then restarted`,
      observations: [
        `${pages.length} page loads while down: HTTP ${[...new Set(pages.map((page) => page.status))].join("/")}, slowest ${Math.max(...pages.map((page) => page.ms))} ms, "${messages.errors.unavailable}"`,
        `/readyz while down: HTTP ${readiness[0]?.status}, postgres: "${JSON.parse(readiness[0]?.body ?? "{}").checks?.postgres}"`,
        `sign-in while down: HTTP ${loginWhileDown.status}; registration while down: HTTP ${registerWhileDown.status}, the form kept what was typed`,
        `${refusedWhileDown} writes refused with a 503 while down, all saved on retry; ${savedBeforeCrash} saved before the crash`,
      ],
      items: [
        { what: "submissions (rows)", before: before.submissions, added: submitter.saved.length, after: after.submissions },
        { what: "judge scores (rows)", before: before.scores, added: scorer.saved.length, after: after.scores },
      ],
      timings: [
        { what: "/readyz 200 after Postgres accepts connections", ms: readyAfterMs, limitMs: 5000 },
        { what: "first saved write after Postgres is back", ms: firstWriteAfterMs },
        { what: "slowest page answer while down", ms: Math.max(...pages.map((page) => page.ms)), limitMs: OUTAGE_ANSWER_LIMIT_MS },
      ],
    });

    // While down: a clear page, at once, never a stack trace; readiness names postgres.
    expect(pages.length).toBeGreaterThanOrEqual(MIN_PROBES);
    for (const page of pages) {
      expect(page.status).toBe(503);
      expect(page.body).toContain(messages.errors.unavailable);
      expect(leaksInternals(page.body)).toBe(false);
      expect(page.ms).toBeLessThan(OUTAGE_ANSWER_LIMIT_MS);
    }
    // A visitor registering gets the same 503 and sentence, on the form with what they typed.
    expect(registerWhileDown.status).toBe(503);
    expect(registerWhileDown.body).toContain(messages.errors.unavailable);
    expect(registerWhileDown.body).toContain("Typing while the database is down");
    expect(leaksInternals(registerWhileDown.body)).toBe(false);
    for (const probe of readiness) {
      expect(probe.status).toBe(503);
      expect(JSON.parse(probe.body).checks.postgres).not.toBe("ok");
    }
    expect(loginWhileDown.status).toBe(503);
    expect(leaksInternals(loginWhileDown.body)).toBe(false);
    expect(refusedWhileDown).toBeGreaterThan(0);
    expect([...submitter.unexpected, ...scorer.unexpected]).toEqual([]);

    // After: working again, and every acknowledged write is there.
    expect(readyAfterMs).toBeGreaterThanOrEqual(0);
    expect(readyAfterMs).toBeLessThan(5000);
    expect(pageAfter.status).toBe(200);
    expect(submitter.saved).toHaveLength(newSubmissions.length);
    expect(scorer.saved).toHaveLength(event.submissions.length);
    expect(after.submissions).toBe(before.submissions + submitter.saved.length);
    expect(after.scores).toBe(before.scores + scorer.saved.length);
  });
});
