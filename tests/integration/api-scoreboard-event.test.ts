/** The scoreboard feed (ETag/304, freeze per role) and the event calls: announcements, notifications, videos, requests. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AnnouncementOutSchema, NotificationOutSchema, RequestOutSchema, ScoreboardSchema, VideosOutSchema } from "../../app/modules/api/schemas.ts";
import { createApiToken, revokeApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { watchCallerChanges } from "../../app/modules/auth/caller-changes.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { rebuildStandings } from "../../app/modules/standings/rebuild.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { users } from "../../db/schema.ts";
import * as scoreboard from "../../app/routes/api.v1.scoreboard.tsx";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { scoreboardFeedListener } from "../../app/glue/scoreboard-feed.server.ts";
import * as announcements from "../../app/routes/api.v1.announcements.tsx";
import * as notifications from "../../app/routes/api.v1.notifications.tsx";
import * as videos from "../../app/routes/api.v1.videos.tsx";
import * as mentors from "../../app/routes/api.v1.mentors.tsx";
import * as needs from "../../app/routes/api.v1.needs.tsx";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, actorFor, testAdmin } from "../support/fixtures.ts";
import { apiRequest, call, makeCallers, send } from "../support/api.ts";


let callers: Awaited<ReturnType<typeof makeCallers>>;
beforeAll(async () => {
  await ensureEventSettings();
  callers = await makeCallers();
});

async function board(token: string, headers: Record<string, string> = {}) {
  return call(scoreboard, apiRequest("GET", "/scoreboard", { token, headers }));
}

async function score(submissionId: number, teamId: number, value: string) {
  await scoreSubmission({ submissionId, judge: actorFor(callers.users.judge.id), score: value });
  // What the standings worker does after the score's transaction.
  await recomputeTeamStanding(teamId);
}

describe("GET /api/v1/scoreboard", () => {
  it("answers the snapshot with a strong ETag, 304 while it is unchanged, a new ETag once a score moves it", async () => {
    const rival = await makeTeam();
    const challenge = await makeChallenge({ points: 100 });
    const rivalSubmission = await makeSubmission(rival.id, challenge.id, null);
    await rebuildStandings();

    const first = await board(callers.tokens.admin);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(first.headers.get("Vary")).toMatch(/Authorization/);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const parsed = ScoreboardSchema.parse(await first.json());
    expect(parsed.teams.map((team) => team.id)).toEqual(expect.arrayContaining([callers.team.id, rival.id]));

    for (const validator of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const unchanged = await board(callers.tokens.admin, { "If-None-Match": validator });
      expect(unchanged.status, validator).toBe(304);
      expect(await unchanged.text()).toBe("");
      expect(unchanged.headers.get("ETag")).toBe(etag);
    }

    await score(rivalSubmission.id, rival.id, "70");
    const moved = await board(callers.tokens.admin, { "If-None-Match": etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("ETag")).not.toBe(etag);
    const after = ScoreboardSchema.parse(await moved.json());
    expect(after.teams[0]).toMatchObject({ id: rival.id, rank: 1, totalScore: 70 });
  });

  it("while frozen, participants see the frozen board with their own points live; admins and judges see live standings", async () => {
    const rival = await makeTeam();
    const [a, b] = [await makeChallenge({ points: 100 }), await makeChallenge({ points: 100 })];
    const mine = await makeSubmission(callers.team.id, a.id, callers.users.participant.id);
    const theirs = await makeSubmission(rival.id, b.id, null);
    await rebuildStandings();
    await setScoreboardFrozen(testAdmin, true);
    try {
      await score(theirs.id, rival.id, "90");
      await score(mine.id, callers.team.id, "20");

      const participant = ScoreboardSchema.parse(await (await board(callers.tokens.participant)).json());
      expect(participant.frozen).toBe(true);
      expect(participant.ownTeamId).toBe(callers.team.id);
      expect(participant.teams.find((team) => team.id === rival.id)?.totalScore).not.toBe(90);
      expect(participant.teams.find((team) => team.id === callers.team.id)?.totalScore).toBe(20);

      for (const role of ["admin", "judge"] as const) {
        const live = ScoreboardSchema.parse(await (await board(callers.tokens[role])).json());
        expect(live.teams.find((team) => team.id === rival.id)?.totalScore, role).toBe(90);
      }
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
  });
});

describe("the scoreboard feed in front of Remix (server.ts)", () => {
  /** The listener server.ts puts ahead of Express, on a port of its own. */
  async function feedServer() {
    const listener = scoreboardFeedListener({ "X-Content-Type-Options": "nosniff" });
    const server = await new Promise<Server>((resolve) => {
      const listening = createServer((req, res) => void listener(req, res)).listen(0, "127.0.0.1", () => resolve(listening));
    });
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/api/v1/scoreboard`, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("answers what the route answers: the board with its ETag, 304, HEAD, a cookie, 401 for a visitor", async () => {
    await rebuildStandings();
    const feed = await feedServer();
    try {
      const viaRoute = await board(callers.tokens.judge);
      const direct = await fetch(feed.url, { headers: { Authorization: `Bearer ${callers.tokens.judge}`, "Accept-Encoding": "identity" } });
      expect(direct.status).toBe(200);
      expect(direct.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(direct.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      expect(direct.headers.get("ETag")).toBe(viaRoute.headers.get("ETag"));
      expect(await direct.text()).toBe(await viaRoute.text());

      const etag = direct.headers.get("ETag")!;
      const unchanged = await fetch(feed.url, { headers: { Authorization: `Bearer ${callers.tokens.judge}`, "Accept-Encoding": "identity", "If-None-Match": etag } });
      expect([unchanged.status, await unchanged.text()]).toEqual([304, ""]);
      const head = await fetch(feed.url, { method: "HEAD", headers: { Authorization: `Bearer ${callers.tokens.judge}`, "Accept-Encoding": "identity" } });
      expect([head.status, head.headers.get("ETag"), await head.text()]).toEqual([200, etag, ""]);

      // gzip for a client that asks (fetch does, and unpacks it): the same board, an ETag of its own.
      const zipped = await fetch(feed.url, { headers: { Authorization: `Bearer ${callers.tokens.judge}` } });
      expect(zipped.headers.get("Content-Encoding")).toBe("gzip");
      expect(zipped.headers.get("Vary")).toMatch(/Accept-Encoding/);
      expect(zipped.headers.get("ETag")).not.toBe(etag);
      expect(await zipped.text()).toBe(await (await board(callers.tokens.judge)).text());
      const zippedAgain = await fetch(feed.url, { headers: { Authorization: `Bearer ${callers.tokens.judge}`, "If-None-Match": zipped.headers.get("ETag")! } });
      expect(zippedAgain.status).toBe(304);

      const mine = ScoreboardSchema.parse(await (await fetch(feed.url, { headers: { Cookie: await callers.cookie("participant") } })).json());
      expect(mine.ownTeamId).toBe(callers.team.id);

      const visitor = await fetch(feed.url);
      expect(visitor.status).toBe(401);
      expect(visitor.headers.get("WWW-Authenticate")).toBe("Bearer");
      expect(await visitor.json()).toEqual({ code: "unauthenticated", message: messages.api.unauthenticated });
      const forged = await fetch(feed.url, { headers: { Authorization: "Bearer gk_not-a-token" } });
      expect(forged.status).toBe(401);
    } finally {
      await feed.close();
    }
  });

  it("remembers its callers, yet a revoked token or a user moved to another team counts at once (Postgres tells the process)", async () => {
    await watchCallerChanges();
    const { id, token } = await createApiToken(testAdmin, callers.users.judge.id, "big screen");
    expect((await board(token)).status).toBe(200);
    const mover = await makeUser("participant", callers.team.id);
    const moverToken = (await createApiToken(testAdmin, mover.id, "phone")).token;
    expect(ScoreboardSchema.parse(await (await board(moverToken)).json()).ownTeamId).toBe(callers.team.id);

    // The clock stands still: only the notice of the change can make the process forget.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await revokeApiToken(testAdmin, id);
      await expect.poll(async () => (await board(token)).status, { timeout: 5_000 }).toBe(401);
      const elsewhere = await makeTeam();
      await getDb().update(users).set({ teamId: elsewhere.id }).where(eq(users.id, mover.id));
      await expect.poll(async () => ScoreboardSchema.parse(await (await board(moverToken)).json()).ownTeamId, { timeout: 5_000 }).toBe(elsewhere.id);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("announcements, notifications and videos", () => {
  it("an admin posts an announcement (201) that every role then reads, newest first", async () => {
    const posted = await send(announcements, "POST", "/announcements", { token: callers.tokens.admin, json: { title: "Lunch", content: "At noon" } });
    expect(posted.status).toBe(201);
    expect(AnnouncementOutSchema.parse(posted.body)).toMatchObject({ title: "Lunch", content: "At noon" });
    const read = z.array(AnnouncementOutSchema).parse((await send(announcements, "GET", "/announcements", { token: callers.tokens.participant })).body);
    expect(read[0]).toMatchObject({ title: "Lunch" });

    const invalid = await send(announcements, "POST", "/announcements", { token: callers.tokens.admin, json: { title: "x" } });
    expect(invalid).toMatchObject({ status: 400, body: { fieldErrors: { content: ["Content is required"] } } });
  });

  it("an admin sends a notification (201)", async () => {
    const sent = await send(notifications, "POST", "/notifications", { token: callers.tokens.admin, json: { message: "Gate 3 opens in 10 minutes" } });
    expect(sent.status).toBe(201);
    expect(NotificationOutSchema.parse(sent.body).message).toBe("Gate 3 opens in 10 minutes");
  });

  it("carries the Arabic beside the English, both ways (docs/domain.md \"Event content in two languages\")", async () => {
    const json = { title: "Dinner", content: "Hall B at eight.", titleAr: "العشاء", contentAr: "القاعة ب عند الثامنة." };
    const posted = await send(announcements, "POST", "/announcements", { token: callers.tokens.admin, json });
    expect(AnnouncementOutSchema.parse(posted.body)).toMatchObject(json);
    // Every caller reads both, whatever their language: the API picks nothing.
    const read = z.array(AnnouncementOutSchema).parse((await send(announcements, "GET", "/announcements", { token: callers.tokens.participant })).body);
    expect(read.find((announcement) => announcement.id === AnnouncementOutSchema.parse(posted.body).id)).toMatchObject(json);
    // No Arabic, or an empty one: none.
    const english = await send(announcements, "POST", "/announcements", { token: callers.tokens.admin, json: { title: "Tea", content: "Now.", contentAr: "  " } });
    expect(english.body).toMatchObject({ titleAr: null, contentAr: null });

    const sent = await send(notifications, "POST", "/notifications", { token: callers.tokens.admin, json: { message: "Doors close at ten.", messageAr: "تُغلق الأبواب في العاشرة." } });
    expect(NotificationOutSchema.parse(sent.body)).toMatchObject({ message: "Doors close at ten.", messageAr: "تُغلق الأبواب في العاشرة." });
    const long = await send(notifications, "POST", "/notifications", { token: callers.tokens.admin, json: { message: "x", messageAr: "ب".repeat(1001) } });
    expect(long).toMatchObject({ status: 400, body: { code: "validation_failed", fieldErrors: { messageAr: [expect.any(String)] } } });
  });

  it("reads and saves the home videos; an empty save is refused with the original platform's message", async () => {
    const saved = await send(videos, "PUT", "/videos", { token: callers.tokens.admin, json: { video1: "https://youtu.be/abc" } });
    expect(saved.status).toBe(200);
    expect(VideosOutSchema.parse(saved.body).video1).toBe("https://youtu.be/abc");
    expect((await send(videos, "GET", "/videos", { token: callers.tokens.judge })).body).toMatchObject({ video1: "https://youtu.be/abc" });
    const empty = await send(videos, "PUT", "/videos", { token: callers.tokens.admin, json: { video1: "", video2: null } });
    expect(empty).toMatchObject({ status: 400, body: { code: "validation_failed", message: "Please fill at least one video URL to update." } });
  });
});

describe("mentor calls and needs", () => {
  it("any signed-in user posts them (201, from their team); admins list them newest first", async () => {
    const participant = callers.tokens.participant;
    const call1 = await send(mentors, "POST", "/mentors", { token: participant, json: { message: "Stuck on the cipher" } });
    expect(call1.status).toBe(201);
    expect(RequestOutSchema.parse(call1.body)).toMatchObject({ kind: "mentor", team: callers.team.name, user: callers.users.participant.name });
    await send(needs, "POST", "/needs", { token: participant, json: { message: "Two HDMI cables" } });

    const calls = z.array(RequestOutSchema).parse((await send(mentors, "GET", "/mentors", { token: callers.tokens.admin })).body);
    expect(calls.map((row) => row.kind)).toEqual(calls.map(() => "mentor"));
    const wanted = z.array(RequestOutSchema).parse((await send(needs, "GET", "/needs", { token: callers.tokens.admin })).body);
    expect(wanted[0]).toMatchObject({ kind: "needs", message: "Two HDMI cables" });

    const empty = await send(needs, "POST", "/needs", { token: participant, json: { message: " " } });
    expect(empty).toMatchObject({ status: 400, body: { message: messages.participant.required } });
  });
});
