/**
 * A participant page is one Postgres statement for the viewer's own data: the root layout's, the
 * participant layout's and the page's loaders run together on one request (one load context), and the
 * page's own rows (the team's results on a gate, a challenge with the team's submission, its awards, its
 * threads) ride in the badges statement (app/glue/viewer-badges.server.ts). What each viewer sees is their
 * own team's, and a page whose rows were not read so reads them itself.
 */
import { eq, sql } from "drizzle-orm";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { announcements, awards, requests, submissions } from "../../db/schema.ts";
import { getDb, getDbHandle, poolStats } from "../../app/infrastructure/db.server.ts";
import { pageReadFor, pageRowsOf } from "../../app/glue/viewer-badges.server.ts";
import { viewerBadges } from "../../app/modules/participant/badges.server.ts";
import { CALLERS_CHANGED_CHANNEL, isHearingChanges, watchCallerChanges } from "../../app/modules/auth/caller-changes.server.ts";
import * as rootRoute from "../../app/root.tsx";
import * as layoutRoute from "../../app/routes/_app.tsx";
import * as gatesRoute from "../../app/routes/_app.gates.tsx";
import * as gateRoute from "../../app/routes/_app.gate.$wave.tsx";
import * as challengeRoute from "../../app/routes/_app.submition.$id.tsx";
import * as statusRoute from "../../app/routes/_app.status.tsx";
import * as homeRoute from "../../app/routes/_app.home.tsx";
import { ensureEventSettings, openAllGates, makeChallenge, makeTeam, makeUser, makeSubmission, sessionCookie } from "../support/fixtures.ts";
import { ORIGIN } from "../support/api.ts";

type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;

interface Viewer {
  id: number;
  teamId: number;
  cookie: string;
}

let teamA: Viewer;
let teamB: Viewer;
let challengeId: number;

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
  const viewer = async (): Promise<Viewer> => {
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    return { id: user.id, teamId: team.id, cookie: await sessionCookie(user.id) };
  };
  [teamA, teamB] = [await viewer(), await viewer()];
  const challenge = await makeChallenge({ points: 100, wave: 1 });
  challengeId = challenge.id;
  // Team A: a full-score submission (solved), an award, a thread. Team B: nothing.
  const submission = await makeSubmission(teamA.teamId, challengeId, teamA.id);
  await getDb().update(submissions).set({ scoreCenti: 10_000, text: "team A's answer" }).where(eq(submissions.id, submission.id));
  await getDb().insert(awards).values({ teamId: teamA.teamId, pointsCenti: 250, reason: "Best demo of team A", givenBy: null });
  await getDb().insert(requests).values({ kind: "needs", message: "Team A needs a cable", teamId: teamA.teamId, userId: teamA.id });
});

/** The three loaders of one request, as Remix runs them: at once, each with its own Request, one load context. */
async function loadPage(viewer: { cookie: string }, path: string, page: Loader, params: Record<string, string> = {}) {
  const context = {};
  const call = (loader: Loader) => loader({ request: new Request(`${ORIGIN}${path}`, { headers: { Cookie: viewer.cookie } }), params, context });
  const before = poolStats().sent;
  const [root, layout, data] = await Promise.all([call(rootRoute.loader as Loader), call(layoutRoute.loader as Loader), call(page)]);
  return { statements: poolStats().sent - before, root, layout, data: data as Record<string, unknown> };
}

/**
 * Until the process has heard the notice of every change made so far to callers. A user or session just
 * created (a viewer made by the test) is announced at its commit, and the notice may come in after the
 * page was loaded once: the process then forgets the session it remembered, and the next load reads it
 * again. Notices arrive in commit order, so once a marker sent now is heard, every earlier one has been.
 */
async function everyCallerChangeHeard() {
  await watchCallerChanges();
  await expect.poll(() => isHearingChanges()).toBe(true);
  const marker = `marker:${process.pid}:${Math.random().toString(36).slice(2)}`;
  let heard = false;
  const listener = await getDbHandle().sql.listen(CALLERS_CHANGED_CHANNEL, (payload) => {
    if (payload === marker) heard = true;
  });
  try {
    await getDb().execute(sql`select pg_notify(${CALLERS_CHANGED_CHANNEL}, ${marker})`);
    await expect.poll(() => heard).toBe(true);
  } finally {
    await listener.unlisten();
  }
}

/**
 * Counted once warm, as on event day: the session remembered (once the process has heard every change to
 * callers: what it looked up before a notice is forgotten then), the event data read per version.
 */
async function warmPage(viewer: { cookie: string }, path: string, page: Loader, params: Record<string, string> = {}) {
  await everyCallerChangeHeard();
  await loadPage(viewer, path, page, params);
  await loadPage(viewer, path, page, params);
  return loadPage(viewer, path, page, params);
}

describe("a participant page's own data", () => {
  it("is one statement with the badges on /gate/:n, /submition/:id, /status and /home, and each team sees its own", async () => {
    const gateA = await warmPage(teamA, "/gate/1", gateRoute.loader as Loader, { wave: "1" });
    const gateB = await warmPage(teamB, "/gate/1", gateRoute.loader as Loader, { wave: "1" });
    const solved = (page: typeof gateA) =>
      ((page.data.board as { challenges: { id: number; solved: boolean }[] }).challenges.find((card) => card.id === challengeId) ?? { solved: null }).solved;
    expect([gateA.statements, solved(gateA)]).toEqual([1, true]);
    expect([gateB.statements, solved(gateB)]).toEqual([1, false]);

    const params = { id: String(challengeId) };
    const challengeA = await warmPage(teamA, `/submition/${challengeId}`, challengeRoute.loader as Loader, params);
    const challengeB = await warmPage(teamB, `/submition/${challengeId}`, challengeRoute.loader as Loader, params);
    const answer = (page: typeof challengeA) => (page.data.submission as { text: string | null } | null)?.text ?? null;
    expect([challengeA.statements, answer(challengeA)]).toEqual([1, "team A's answer"]);
    expect([challengeB.statements, answer(challengeB)]).toEqual([1, null]);
    expect((challengeB.data.challenge as { id: number }).id).toBe(challengeId);

    const statusA = await warmPage(teamA, "/status", statusRoute.loader as Loader);
    const statusB = await warmPage(teamB, "/status", statusRoute.loader as Loader);
    const reasons = (page: typeof statusA) => (page.data.awards as { reason: string; points: number }[]).map((award) => `${award.reason}: ${award.points}`);
    expect([statusA.statements, reasons(statusA)]).toEqual([1, ["Best demo of team A: 2.5"]]);
    expect([statusB.statements, reasons(statusB)]).toEqual([1, []]);

    const homeA = await warmPage(teamA, "/home", homeRoute.loader as Loader);
    const homeB = await warmPage(teamB, "/home", homeRoute.loader as Loader);
    const threads = (page: typeof homeA) => (page.data.threads as { message: string }[]).map((thread) => thread.message);
    expect([homeA.statements, threads(homeA)]).toEqual([1, ["Team A needs a cable"]]);
    expect([homeB.statements, threads(homeB)]).toEqual([1, []]);
  });

  it("reads the rows in the same statement whatever the path's case, as Remix matches it (/HOME is /home)", async () => {
    const home = await warmPage(teamA, "/HOME", homeRoute.loader as Loader);
    expect([home.statements, (home.data.threads as { message: string }[]).map((thread) => thread.message)]).toEqual([1, ["Team A needs a cable"]]);
    const gate = await warmPage(teamA, "/Gate/1/", gateRoute.loader as Loader, { wave: "1" });
    expect(gate.statements).toBe(1);
    expect(pageRowsOf(new Request(`${ORIGIN}/SUBMITION/${challengeId}`))).toEqual({ kind: "challenge", key: challengeId });
    expect(pageRowsOf(new Request(`${ORIGIN}/Status`))).toEqual({ kind: "teamAwards", key: 0 });
  });

  it("shows a change on the next load (nothing of the page's own rows is kept between requests)", async () => {
    const [award] = await getDb().insert(awards).values({ teamId: teamB.teamId, pointsCenti: -100, reason: "Late for team B", givenBy: null }).returning();
    const status = await loadPage(teamB, "/status", statusRoute.loader as Loader);
    expect((status.data.awards as { reason: string }[]).map((row) => row.reason)).toEqual(["Late for team B"]);
    await getDb().update(awards).set({ revokedAt: new Date() }).where(eq(awards.id, award.id));
    const after = await loadPage(teamB, "/status", statusRoute.loader as Loader);
    expect(after.data.awards).toEqual([]);
  });

  it("a page takes the rows only for what it asks: another kind or key reads on its own, with the same answer", async () => {
    const request = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { Cookie: teamA.cookie } });
    const viewer = { id: teamA.id, teamId: teamA.teamId };
    // The path read wave 2's results: a loader asking for wave 1's gets none of them.
    const context = {};
    expect((await pageReadFor(context, viewer, request("/gate/2"), "gateResults", 2)).rows).toEqual([]);
    expect((await pageReadFor(context, viewer, request("/gate/2"), "gateResults", 1)).rows).toBeUndefined();
    expect((await pageReadFor({}, viewer, request("/gate/2"), "teamAwards", 0)).rows).toBeUndefined();
    expect((await pageReadFor({}, viewer, request("/scoreboard"), "teamAwards", 0)).rows).toBeUndefined();
    // Read for another team (the caller changed team between two loaders of one request): not taken.
    expect((await pageReadFor(context, { ...viewer, teamId: teamB.teamId }, request("/gate/2"), "gateResults", 2)).rows).toBeUndefined();
    // A path that reads wave 2's rows while the loader shows wave 1 (as a stale path table would): the page
    // reads its own, with the statement that reads them alone, and shows the same board.
    const mismatched = await loadPage(teamA, "/gate/2", gateRoute.loader as Loader, { wave: "1" });
    const shared = await loadPage(teamA, "/gate/1", gateRoute.loader as Loader, { wave: "1" });
    expect(mismatched.statements).toBe(2);
    expect(mismatched.data.board).toEqual(shared.data.board);
  });

  it("a viewer without a team (a judge) reads nobody's rows, in one statement", async () => {
    const judge = await makeUser("judge");
    const viewer = { cookie: await sessionCookie(judge.id) };
    const gate = await warmPage(viewer, "/gate/1", gateRoute.loader as Loader, { wave: "1" });
    expect(gate.statements).toBe(1);
    expect((gate.data.board as { challenges: { solved: boolean }[] }).challenges.some((card) => card.solved)).toBe(false);
    const challenge = await warmPage(viewer, `/submition/${challengeId}`, challengeRoute.loader as Loader, { id: String(challengeId) });
    expect([challenge.statements, challenge.data.submission]).toEqual([1, null]);
    expect((await warmPage(viewer, "/home", homeRoute.loader as Loader)).data.threads).toEqual([]);
    expect((await warmPage(viewer, "/status", statusRoute.loader as Loader)).data.awards).toEqual([]);
  });

  it("a challenge id beyond any row's reads the badges alone (nothing out of range is sent): one statement, and the page is a 404", async () => {
    const path = "/submition/99999999999";
    expect(pageRowsOf(new Request(`${ORIGIN}${path}`))).toBeNull();
    await warmPage(teamA, "/gates", gatesRoute.loader as Loader);
    const context = {};
    const call = (loader: Loader) => loader({ request: new Request(`${ORIGIN}${path}`, { headers: { Cookie: teamA.cookie } }), params: { id: "99999999999" }, context });
    const before = poolStats().sent;
    const [root, page] = await Promise.allSettled([call(rootRoute.loader as Loader), call(challengeRoute.loader as Loader)]);
    expect(poolStats().sent - before).toBe(1);
    expect(root.status).toBe("fulfilled");
    expect(page.status === "rejected" && page.reason instanceof Response ? page.reason.status : page.status).toBe(404);
  });

  it("when the statement with the page's rows fails, the badges are read alone (the page then reads its own)", async () => {
    const [announcement] = await getDb().insert(announcements).values({ title: "Unread", content: "x", createdBy: null }).returning();
    try {
      // A key Postgres refuses (beyond integer): the page's part fails, the counts do not.
      const badges = await viewerBadges({ id: teamA.id, teamId: teamA.teamId }, { kind: "challenge", key: 2 ** 40 });
      expect(badges.page).toBeNull();
      expect(badges.unreadAnnouncements).toBeGreaterThan(0);
      expect(badges.versions).not.toBeNull();
    } finally {
      await getDb().delete(announcements).where(eq(announcements.id, announcement.id));
    }
  });
});
