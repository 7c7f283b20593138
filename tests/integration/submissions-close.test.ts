/**
 * Submissions close at an instant: the "submissions close" setting, else the final countdown's. The
 * upload endpoint, the page's own action and the API refuse a request begun after it with one sentence;
 * a request begun before it is accepted when its body completes; judges still score after it.
 */
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventSettings, gates, submissions } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { getSubmissionsWindow, updateSubmissionsCloseAt } from "../../app/modules/settings/settings.server.ts";
import { getGateBoard } from "../../app/modules/participant/board.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { objectExists } from "../../app/infrastructure/s3.server.ts";
import * as pageRoute from "../../app/routes/_app.submition.$id.tsx";
import * as uploadRoute from "../../app/routes/submition.$id.upload.tsx";
import * as apiRoute from "../../app/routes/api.v1.challenges.$id.submission.tsx";
import * as settingsRoute from "../../app/routes/dashboard.settings.tsx";
import { makeChallenge, makeTeam, makeUser, sessionCookie, actorFor, testAdmin } from "../support/fixtures.ts";
import { multipart, type MultipartPart } from "../support/multipart.ts";
import { createApiToken } from "../../app/modules/api-tokens/tokens.server.ts";


const HOUR = 3_600_000;
const ORIGIN = "http://localhost";

beforeAll(async () => {
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - HOUR) })));
  await getDb().insert(eventSettings).values({ id: 1, finalAt: new Date(Date.now() + HOUR) });
});

beforeEach(async () => {
  // Each test sets the instants it needs; the tests of this file run one after another.
  await getDb().update(eventSettings).set({ finalAt: new Date(Date.now() + HOUR), submissionsCloseAt: null }).where(eq(eventSettings.id, 1));
});

async function participant() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  const challenge = await makeChallenge({ wave: 1 });
  return { team, user, challenge, cookie: await sessionCookie(user.id) };
}

const textPart = (value: string): MultipartPart => ({ name: "text", value });

/** The enhanced form's post (XMLHttpRequest to /submition/:id/upload), as server.ts hands it to the route. */
async function upload(cookie: string, challengeId: number, parts: MultipartPart[], receivedAt = Date.now()) {
  const request = multipart(parts, `${ORIGIN}/submition/${challengeId}/upload`, { Cookie: cookie, Origin: ORIGIN });
  const response = await uploadRoute.action({ request, params: { id: String(challengeId) }, context: { receivedAt } });
  return { status: response.status, body: (await response.json()) as { ok: boolean; message: string } };
}

async function rowsOf(teamId: number) {
  return getDb().select().from(submissions).where(eq(submissions.teamId, teamId));
}

describe("submissions close", () => {
  it("follow the final countdown when no close instant is set", async () => {
    const { team, challenge, cookie } = await participant();
    expect(await upload(cookie, challenge.id, [textPart("before the final")])).toMatchObject({ status: 200, body: { ok: true } });

    await getDb().update(eventSettings).set({ finalAt: new Date(Date.now() - 1000) }).where(eq(eventSettings.id, 1));
    expect(await upload(cookie, challenge.id, [textPart("after the final")])).toEqual({
      status: 403,
      body: { ok: false, message: messages.participant.submissionsClosed },
    });
    const [row] = await rowsOf(team.id);
    expect(row.text).toBe("before the final");
  });

  it("the setting wins over the final countdown, both ways", async () => {
    const { challenge, cookie } = await participant();
    expect(await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 1000))).toBe(true);
    expect((await upload(cookie, challenge.id, [textPart("late")])).status).toBe(403);

    // Closing after the final countdown keeps submissions open past it.
    await getDb().update(eventSettings).set({ finalAt: new Date(Date.now() - HOUR), submissionsCloseAt: new Date(Date.now() + HOUR) }).where(eq(eventSettings.id, 1));
    expect(await upload(cookie, challenge.id, [textPart("extra time")])).toMatchObject({ status: 200, body: { ok: true } });
  });

  it("the page's own form (no JavaScript) answers 403 on the page, with the typed text kept", async () => {
    const { team, challenge, cookie } = await participant();
    await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 1000));
    const request = multipart([textPart("my late answer")], `${ORIGIN}/submition/${challenge.id}`, { Cookie: cookie, Origin: ORIGIN });
    const result = (await pageRoute.action({ request, params: { id: String(challenge.id) }, context: { receivedAt: Date.now() } })) as unknown as {
      data: { error: string; text: string };
      init: { status: number };
    };
    expect(result.init.status).toBe(403);
    expect(result.data).toEqual({ error: messages.participant.submissionsClosed, text: "my late answer" });
    expect(await rowsOf(team.id)).toHaveLength(0);
  });

  it("the API answers 403 forbidden with the sentence", async () => {
    const { user, challenge } = await participant();
    const { token } = await createApiToken(testAdmin, user.id, "bot");
    await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 1000));
    const request = multipart([textPart("api answer")], `${ORIGIN}/api/v1/challenges/${challenge.id}/submission`, { Authorization: `Bearer ${token}` });
    const response = await apiRoute.action({ request, params: { id: String(challenge.id) }, context: { receivedAt: Date.now() } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "forbidden", message: messages.participant.submissionsClosed });
  });

  it("an upload begun before the close is accepted when it completes after it; one begun after is refused and stores nothing", async () => {
    const { team, challenge, cookie } = await participant();
    const closeAt = new Date(Date.now() + 60_000);
    await updateSubmissionsCloseAt(testAdmin, closeAt);

    // The file is still on its way when the close instant passes (moved to "now" mid-body).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sentFirstHalf!: () => void;
    const firstHalfSent = new Promise<void>((resolve) => (sentFirstHalf = resolve));
    async function* slowFile() {
      yield new Uint8Array(64 * 1024).fill(65);
      sentFirstHalf();
      await released;
      yield new Uint8Array(64 * 1024).fill(66);
    }
    const begunAt = Date.now();
    const pending = upload(cookie, challenge.id, [textPart("long upload"), { name: "file", value: { filename: "big.bin", body: slowFile() } }], begunAt);
    await firstHalfSent;
    await updateSubmissionsCloseAt(testAdmin, new Date());
    expect((await getSubmissionsWindow()).open).toBe(false);
    release();
    expect(await pending).toMatchObject({ status: 200, body: { ok: true } });
    const [row] = await rowsOf(team.id);
    expect(row).toMatchObject({ text: "long upload", fileName: "big.bin", fileSize: 128 * 1024 });

    // The same upload begun after the close: refused before its body is read, no object kept.
    const other = await participant();
    const refused = await upload(other.cookie, other.challenge.id, [textPart("too late"), { name: "file", value: { filename: "late.bin", body: new Uint8Array(1024) } }]);
    expect(refused).toEqual({ status: 403, body: { ok: false, message: messages.participant.submissionsClosed } });
    expect(await rowsOf(other.team.id)).toHaveLength(0);
    expect(await objectExists(row.fileKey!)).toBe(true);
  });

  it("a request opened before the close cannot be held open to send its answer after it", async () => {
    const { team, challenge, cookie } = await participant();
    // The close was 6 s ago; the request's headers came 20 s ago, its parts only now (past the 5 s grace).
    await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 6_000));
    const held = await upload(cookie, challenge.id, [textPart("written after the close")], Date.now() - 20_000);
    expect(held).toEqual({ status: 403, body: { ok: false, message: messages.participant.submissionsClosed } });
    expect(await rowsOf(team.id)).toHaveLength(0);
  });

  it("judges still score after the close", async () => {
    const { team, user, challenge, cookie } = await participant();
    expect((await upload(cookie, challenge.id, [textPart("answer")])).status).toBe(200);
    await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 1000));
    const judge = await makeUser("judge");
    const [row] = await rowsOf(team.id);
    await scoreSubmission({ submissionId: row.id, judge: actorFor(judge.id), score: "80" });
    const [scored] = await rowsOf(team.id);
    expect(scored).toMatchObject({ status: "reviewed", scoreCenti: 8000 });
    expect(scored.userId).toBe(user.id);
  });

  it("the gate board and the submission page say when submissions close, and that they have", async () => {
    const { team, challenge, cookie } = await participant();
    const closeAt = new Date(Date.now() + HOUR);
    await updateSubmissionsCloseAt(testAdmin, closeAt);
    expect((await getGateBoard(1, team.id))?.submissions).toMatchObject({ closesAt: closeAt.toISOString(), open: true });
    await updateSubmissionsCloseAt(testAdmin, new Date(Date.now() - 1000));
    expect((await getGateBoard(1, team.id))?.submissions).toMatchObject({ open: false });
    const page = (await pageRoute.loader({
      request: new Request(`${ORIGIN}/submition/${challenge.id}`, { headers: { Cookie: cookie } }),
      params: { id: String(challenge.id) },
      context: {},
    })) as Awaited<ReturnType<typeof pageRoute.loader>>;
    expect(page.submissions.open).toBe(false);
  });

  it("the settings page sets the instant, refuses an impossible one, and empties it back to the final countdown", async () => {
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    const post = (fields: Record<string, string>) =>
      settingsRoute.action({
        request: new Request(`${ORIGIN}/dashboard/settings`, { method: "POST", headers: { Cookie: cookie, Origin: ORIGIN }, body: new URLSearchParams(fields) }),
        params: {},
        context: {},
      });
    const saved = (await post({ intent: "submissions-close", submissionsCloseAt: "2031-04-25T18:00" })) as Response;
    expect(saved.status).toBe(302);
    const [row] = await getDb().select().from(eventSettings);
    // Africa/Algiers is UTC+1.
    expect(row.submissionsCloseAt?.toISOString()).toBe("2031-04-25T17:00:00.000Z");

    const refused = (await post({ intent: "submissions-close", submissionsCloseAt: "2031-02-30T18:00" })) as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.result.error.submissionsCloseAt).toEqual([messages.dashboard.instantImpossible]);

    expect(((await post({ intent: "submissions-close", submissionsCloseAt: "" })) as Response).status).toBe(302);
    const window = await getSubmissionsWindow();
    expect(window).toMatchObject({ fromFinal: true, closesAt: row.finalAt.toISOString() });
  });
});
