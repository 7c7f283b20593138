/**
 * What a participant's pages show around flag challenges: a dynamic challenge's value now, its solves and its
 * first three solvers (on the gate's cards and the challenge page), and hints that cost points (unlocked on
 * the page without JavaScript; a locked hint's text in no page data).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { replaceHints } from "../../app/modules/flags/hints.server.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { getGateBoard, withFlagFigures } from "../../app/modules/participant/board.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import * as pageRoute from "../../app/routes/_app.submition.$id.tsx";
import { ORIGIN } from "../support/api.ts";
import { actorFor, ensureEventSettings, makeTeam, makeUser, openAllGates, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { makeFlagChallenge } from "../support/flags.ts";

beforeAll(async () => {
  await ensureEventSettings();
  await openAllGates();
});

async function member() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, user, actor: actorFor(user.id, user.name, "participant"), cookie: await sessionCookie(user.id) };
}

async function pageData(cookie: string, challengeId: number) {
  return (await pageRoute.loader({
    request: new Request(`${ORIGIN}/submition/${challengeId}`, { headers: { Cookie: cookie } }),
    params: { id: String(challengeId) },
    context: {},
  })) as Awaited<ReturnType<typeof pageRoute.loader>>;
}

describe("flag challenges on a participant's pages", () => {
  it("show a dynamic challenge's value now, its solves and first solvers; frozen, as of the freeze", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{figures}" }], { points: 500, wave: 2 });
    await getDb().update(challenges).set({ scoring: "dynamic", minimumPoints: 100, decay: 3 }).where(eq(challenges.id, challenge.id));
    const [a, b, viewer] = await Promise.all([member(), member(), member()]);
    for (const solver of [a, b]) await sendFlag({ actor: solver.actor, teamId: solver.team.id, challengeId: challenge.id, answer: "GK{figures}" });
    const card = async (role: "participant" | "admin") => {
      const board = await withFlagFigures((await getGateBoard(2, viewer.team.id))!, { role });
      return board.challenges?.find((c) => c.id === challenge.id)?.flag;
    };
    expect(await card("participant")).toEqual({ value: 456, solves: 2, firsts: [{ place: 1, team: a.team.name }, { place: 2, team: b.team.name }] });
    expect((await pageData(viewer.cookie, challenge.id)).figures).toEqual({ value: 456, solves: 2, firsts: [{ place: 1, team: a.team.name }, { place: 2, team: b.team.name }] });

    await setScoreboardFrozen(testAdmin, true);
    try {
      await sendFlag({ actor: viewer.actor, teamId: viewer.team.id, challengeId: challenge.id, answer: "GK{figures}" });
      expect(await card("participant")).toMatchObject({ value: 456, solves: 2 });
      expect(await card("admin")).toMatchObject({ value: 323, solves: 3 });
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
    expect(await card("participant")).toMatchObject({ value: 323, solves: 3 });
  });

  it("unlock a hint that costs points on the page without JavaScript; a locked hint's text is in no page data", async () => {
    const challenge = await makeFlagChallenge([{ kind: "exact", value: "GK{hinted}" }], { points: 200 });
    await getDb().transaction((tx) => replaceHints(tx, challenge.id, [{ text: "THE-SECRET-HINT-TEXT", costCenti: 5_000 }]));
    const { cookie } = await member();
    const before = await pageData(cookie, challenge.id);
    expect(JSON.stringify(before)).not.toContain("THE-SECRET-HINT-TEXT");
    expect(before.paidHints).toEqual([{ id: expect.any(Number), position: 1, cost: 50, unlocked: false, text: null }]);

    const request = new Request(`${ORIGIN}/submition/${challenge.id}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "hint", hintId: String(before.paidHints[0].id) }),
    });
    const result = (await pageRoute.action({ request, params: { id: String(challenge.id) }, context: { receivedAt: Date.now() } })) as unknown as {
      data: { hint: { ok: boolean; message: string } };
      init: { status: number };
    };
    expect(result.init.status).toBe(200);
    expect(result.data.hint).toEqual({ ok: true, status: 200, message: "Hint unlocked: 50 points taken from your team." });
    expect((await pageData(cookie, challenge.id)).paidHints[0]).toMatchObject({ unlocked: true, text: "THE-SECRET-HINT-TEXT" });

    const bad = new Request(`${ORIGIN}/submition/${challenge.id}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "hint", hintId: "99999999" }),
    });
    const refused = (await pageRoute.action({ request: bad, params: { id: String(challenge.id) }, context: { receivedAt: Date.now() } })) as unknown as { init: { status: number } };
    expect(refused.init.status).toBe(404);
  });
});
