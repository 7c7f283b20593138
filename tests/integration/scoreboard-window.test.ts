/**
 * The scoreboard at scale: the feed's `limit`/`offset` (a stretch of the board, its own ETag, 400 for a bad
 * value, gzip), and /scoreboard a page at a time above WHOLE_BOARD_MAX teams with the viewer's own team
 * always shown. Stretches and pages are kept per board version and shared between viewers: a change is on
 * the next request, and no viewer gets another's own team.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScoreboardSchema } from "../../app/modules/api/schemas.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { BOARD_PAGE_SIZE, OWN_NEIGHBOURS, WHOLE_BOARD_MAX } from "../../app/modules/standings/scoreboard.server.ts";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";
import { closeEmitter } from "../../app/infrastructure/emitter.server.ts";
import { scoreboardFeedListener } from "../../app/glue/scoreboard-feed.server.ts";
import * as scoreboard from "../../app/routes/api.v1.scoreboard.tsx";
import { loader as scoreboardPage } from "../../app/routes/_app.scoreboard.tsx";
import { loader as statusPage } from "../../app/routes/_app.status.tsx";
import { actorFor, ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { apiRequest, call } from "../support/api.ts";

afterAll(() => closeEmitter());

let judge: Awaited<ReturnType<typeof makeUser>>;
let judgeToken: string;
/** Two participants of two teams near the bottom of the board (no points), each with a token and a cookie. */
const viewers: Array<{ teamId: number; token: string; cookie: string; submission: number }> = [];
let leader: { teamId: number; submission: number };

async function score(submissionId: number, teamId: number, value: string) {
  await scoreSubmission({ submissionId, judge: actorFor(judge.id), score: value });
  await recomputeTeamStanding(teamId);
}

beforeAll(async () => {
  await ensureEventSettings();
  judge = await makeUser("judge");
  judgeToken = (await createApiToken(testAdmin, judge.id, "test")).token;
  const challenge = await makeChallenge({ points: 100 });
  const teams = [];
  for (let i = 0; i < WHOLE_BOARD_MAX + 20; i++) teams.push(await makeTeam());
  leader = { teamId: teams[0].id, submission: (await makeSubmission(teams[0].id, challenge.id, null)).id };
  for (const team of teams.slice(-2)) {
    const user = await makeUser("participant", team.id);
    viewers.push({
      teamId: team.id,
      token: (await createApiToken(testAdmin, user.id, "test")).token,
      cookie: await sessionCookie(user.id),
      submission: (await makeSubmission(team.id, challenge.id, user.id)).id,
    });
  }
  await rebuildStandings();
  await score(leader.submission, leader.teamId, "50");
});

async function feed(query: string, token: string, headers: Record<string, string> = {}) {
  return call(scoreboard, apiRequest("GET", `/scoreboard${query}`, { token, headers }));
}

interface PageData {
  teamsJson: string;
  ownTeamId: number | null;
  window: { page: number; pages: number; offset: number; limit: number; total: number; ownPage: number | null } | null;
  around: TeamStanding[];
  categoryLeaders: Record<string, Array<{ id: number; points: number }>> | null;
}

async function page(cookie: string, query = ""): Promise<PageData & { teams: TeamStanding[] }> {
  const data = (await scoreboardPage({ request: new Request(`http://localhost/scoreboard${query}`, { headers: { Cookie: cookie } }), params: {}, context: {} })) as PageData;
  return { ...data, teams: JSON.parse(data.teamsJson) as TeamStanding[] };
}

describe("GET /api/v1/scoreboard?limit=&offset=", () => {
  it("answers that stretch of the board with the whole board's total, each stretch with its own ETag and 304", async () => {
    const whole = ScoreboardSchema.parse(await (await feed("", judgeToken)).json());
    expect(whole.total).toBeUndefined();
    const top = await feed("?limit=3", judgeToken);
    const topBody = ScoreboardSchema.parse(await top.json());
    expect(topBody.teams).toEqual(whole.teams.slice(0, 3));
    expect([topBody.total, topBody.offset, topBody.limit]).toEqual([whole.teams.length, 0, 3]);
    const next = ScoreboardSchema.parse(await (await feed("?limit=3&offset=3", judgeToken)).json());
    expect(next.teams).toEqual(whole.teams.slice(3, 6));
    const rest = ScoreboardSchema.parse(await (await feed(`?offset=${whole.teams.length - 1}`, judgeToken)).json());
    expect(rest.teams).toEqual(whole.teams.slice(-1));
    expect(rest.limit).toBeNull();
    expect(ScoreboardSchema.parse(await (await feed("?offset=999999&limit=10", judgeToken)).json()).teams).toEqual([]);

    const etag = top.headers.get("ETag")!;
    expect((await feed("?limit=3&offset=3", judgeToken)).headers.get("ETag")).not.toBe(etag);
    expect((await feed("?limit=4", judgeToken)).headers.get("ETag")).not.toBe(etag);
    expect((await feed("?limit=3", judgeToken, { "If-None-Match": etag })).status).toBe(304);
  });

  it("refuses a bad limit or offset with a 400 naming the field", async () => {
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=1001", "limit"],
      ["?limit=abc", "limit"],
      ["?limit=1e2", "limit"],
      ["?limit=", "limit"],
      ["?limit=5&limit=6", "limit"],
      ["?offset=-1", "offset"],
      ["?offset=1.5", "offset"],
      ["?offset=99999999", "offset"],
    ] as const) {
      const answer = await feed(query, judgeToken);
      expect(answer.status, query).toBe(400);
      const body = (await answer.json()) as { code: string; fieldErrors?: Record<string, string[]> };
      expect(body.code, query).toBe("validation_failed");
      expect(Object.keys(body.fieldErrors ?? {}), query).toEqual([field]);
    }
  });

  it("a score moves the stretch at once: the next request has the new board and a new ETag (the kept stretch is per version)", async () => {
    const before = await feed("?limit=2", judgeToken);
    const etag = before.headers.get("ETag")!;
    const mover = viewers[0];
    await score(mover.submission, mover.teamId, "90");
    try {
      const after = await feed("?limit=2", judgeToken, { "If-None-Match": etag });
      expect(after.status).toBe(200);
      expect(ScoreboardSchema.parse(await after.json()).teams[0]).toMatchObject({ id: mover.teamId, totalScore: 90, rank: 1 });
    } finally {
      await score(mover.submission, mover.teamId, "0");
    }
  });

  it("while frozen, two participants reading the same stretch each get their own team's live points, never the other's", async () => {
    await setScoreboardFrozen(testAdmin, true);
    try {
      await score(viewers[0].submission, viewers[0].teamId, "11");
      await score(viewers[1].submission, viewers[1].teamId, "22");
      // The stretch at the bottom of the frozen board holds both teams.
      const { total } = ScoreboardSchema.parse(await (await feed("?limit=1", viewers[0].token)).json());
      const query = `?offset=${total! - 2}&limit=2`;
      for (const [me, other, points] of [
        [viewers[0], viewers[1], 11],
        [viewers[1], viewers[0], 22],
      ] as const) {
        const body = ScoreboardSchema.parse(await (await feed(query, me.token)).json());
        expect(body.ownTeamId).toBe(me.teamId);
        expect(body.teams.find((team) => team.id === me.teamId)?.totalScore).toBe(points);
        expect(body.teams.find((team) => team.id === other.teamId)?.totalScore).toBe(0);
      }
    } finally {
      await setScoreboardFrozen(testAdmin, false);
      await score(viewers[0].submission, viewers[0].teamId, "0");
      await score(viewers[1].submission, viewers[1].teamId, "0");
    }
  });

  it("in front of Remix: gzip of a stretch unpacks to the route's bytes, each viewer their own tail", async () => {
    const listener = scoreboardFeedListener({});
    const server = await new Promise<Server>((resolve) => {
      const listening = createServer((req, res) => void listener(req, res)).listen(0, "127.0.0.1", () => resolve(listening));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/scoreboard?limit=5`;
      for (const token of [judgeToken, viewers[0].token, viewers[1].token]) {
        const zipped = await fetch(url, { headers: { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" } });
        expect(zipped.headers.get("Content-Encoding")).toBe("gzip");
        expect(await zipped.text()).toBe(await (await feed("?limit=5", token)).text());
      }
      const bad = await fetch(`${url}&offset=x`, { headers: { Authorization: `Bearer ${judgeToken}` } });
      expect(bad.status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("/scoreboard above WHOLE_BOARD_MAX teams: a page at a time", () => {
  it("shows the first 100 teams, the board's size and pages, and the viewer's own team with its neighbours apart", async () => {
    const [me] = viewers;
    const data = await page(me.cookie);
    const total = data.window!.total;
    expect(total).toBeGreaterThan(WHOLE_BOARD_MAX);
    expect(data.window).toMatchObject({ page: 1, offset: 0, limit: BOARD_PAGE_SIZE, pages: Math.ceil(total / BOARD_PAGE_SIZE) });
    expect(data.teams).toHaveLength(BOARD_PAGE_SIZE);
    expect(data.teams.map((team) => team.rank)).toEqual(Array.from({ length: BOARD_PAGE_SIZE }, (_, i) => i + 1));
    expect(data.teams[0].id).toBe(leader.teamId);
    const own = data.around.find((team) => team.id === me.teamId);
    expect(own).toBeDefined();
    expect(data.around.length).toBeGreaterThan(1);
    expect(data.around.length).toBeLessThanOrEqual(2 * OWN_NEIGHBOURS + 1);
    expect(data.window!.ownPage).toBe(Math.floor((own!.rank - 1) / BOARD_PAGE_SIZE) + 1);
    // The category top 3 comes ranked from the server (the page does not hold the board).
    expect(data.categoryLeaders?.AI?.[0]?.id).toBe(leader.teamId);
  });

  it("?page= moves through the board; the own team's page shows it among its rows; out of range or not a number: the nearest page", async () => {
    const [me] = viewers;
    const first = await page(me.cookie);
    const second = await page(me.cookie, "?page=2");
    expect(second.teams[0].rank).toBe(BOARD_PAGE_SIZE + 1);
    const ownPage = await page(me.cookie, `?page=${first.window!.ownPage}`);
    expect(ownPage.teams.some((team) => team.id === me.teamId)).toBe(true);
    expect(ownPage.around).toEqual([]);
    expect((await page(me.cookie, "?page=9999")).window!.page).toBe(first.window!.pages);
    expect((await page(me.cookie, "?page=abc")).window!.page).toBe(1);
  });

  it("two viewers of different teams on the same page share its rows and each get their own team, never the other's", async () => {
    const [a, b] = await Promise.all(viewers.map((viewer) => page(viewer.cookie)));
    expect(a.teamsJson).toBe(b.teamsJson);
    expect([a.ownTeamId, b.ownTeamId]).toEqual([viewers[0].teamId, viewers[1].teamId]);
    expect(a.around.map((team) => team.id)).toContain(viewers[0].teamId);
    expect(b.around.map((team) => team.id)).toContain(viewers[1].teamId);
    // Frozen: each sees their own team's live points and the other's as at the freeze.
    await setScoreboardFrozen(testAdmin, true);
    try {
      await score(viewers[0].submission, viewers[0].teamId, "7");
      const [frozenA, frozenB] = await Promise.all(viewers.map((viewer) => page(viewer.cookie)));
      expect(frozenA.around.find((team) => team.id === viewers[0].teamId)?.totalScore).toBe(7);
      for (const team of [...frozenB.teams, ...frozenB.around]) if (team.id === viewers[0].teamId) expect(team.totalScore).toBe(0);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
      await score(viewers[0].submission, viewers[0].teamId, "0");
    }
  });

  it("a score that lifts the own team onto the first page is on the next request", async () => {
    const [me] = viewers;
    await score(me.submission, me.teamId, "99");
    try {
      const data = await page(me.cookie);
      expect(data.teams[0]).toMatchObject({ id: me.teamId, rank: 1, totalScore: 99 });
      expect(data.around).toEqual([]);
      expect(data.window!.ownPage).toBe(1);
    } finally {
      await score(me.submission, me.teamId, "0");
    }
  });
});

describe("/status above WHOLE_BOARD_MAX teams", () => {
  async function status(cookie: string) {
    const data = await statusPage({ request: new Request("http://localhost/status", { headers: { Cookie: cookie } }), params: {}, context: {} });
    return { ...data, teams: JSON.parse(data.teamsJson) as TeamStanding[] };
  }

  it("carries the own team's row only, at its place on the board, not the board", async () => {
    const [me, other] = viewers;
    const whole = ScoreboardSchema.parse(await (await feed("", judgeToken)).json());
    const mine = await status(me.cookie);
    expect(mine.teams).toHaveLength(1);
    expect(mine.teams[0]).toMatchObject({ id: me.teamId, rank: whole.teams.find((team) => team.id === me.teamId)!.rank });
    expect(mine.window).toEqual({ offset: whole.teams.findIndex((team) => team.id === me.teamId), limit: 1, ownRow: true });
    expect(mine.teamsJson.length).toBeLessThan(1000);
    expect((await status(other.cookie)).teams.map((team) => team.id)).toEqual([other.teamId]);
  });

  it("a score is on the next request; frozen, the own team's live points at its frozen rank, never another team's", async () => {
    const [me, other] = viewers;
    await score(me.submission, me.teamId, "99");
    try {
      expect((await status(me.cookie)).teams[0]).toMatchObject({ id: me.teamId, rank: 1, totalScore: 99 });
      await setScoreboardFrozen(testAdmin, true);
      await score(me.submission, me.teamId, "3");
      const frozen = await status(me.cookie);
      expect(frozen.frozen).toBe(true);
      expect(frozen.teams).toEqual([expect.objectContaining({ id: me.teamId, rank: 1, totalScore: 3 })]);
      expect((await status(other.cookie)).teams.map((team) => team.id)).toEqual([other.teamId]);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
      await score(me.submission, me.teamId, "0");
    }
  });
});
