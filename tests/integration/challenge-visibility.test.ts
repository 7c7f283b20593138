/**
 * "May this viewer see this challenge" (app/modules/challenges/visibility.server.ts): the function the
 * pages use and the SQL condition the queries use agree for every role, status and gate, at the
 * instant a gate opens too; and the screens built on them show and hide the same challenges.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { challenges, gates } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { challengeGateJoin, maySeeChallenge, visibleChallengeSql } from "../../app/modules/challenges/visibility.server.ts";
import { getChallengeForSubmission, getGateBoard } from "../../app/modules/participant/board.server.ts";
import { assertCanSubmit, findDownloadableAttachment } from "../../app/modules/submissions/submit.server.ts";
import * as gatesRoute from "../../app/routes/_app.gates.tsx";
import * as gateRoute from "../../app/routes/_app.gate.$wave.tsx";
import * as challengeRoute from "../../app/routes/_app.submition.$id.tsx";
import { ensureEventSettings, makeChallenge, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";

const NOW = new Date("2026-05-01T12:00:00.000Z");
const roles = ["admin", "judge", "participant"] as const;

describe("challenge visibility", () => {
  it("is the same rule in the function, in SQL and on every screen", async () => {
    await ensureEventSettings();
    const db = getDb();
    // Gate 1 opened an hour ago, gate 2 opens exactly now, gate 3 a millisecond later.
    const opens = [new Date(NOW.getTime() - 3_600_000), NOW, new Date(NOW.getTime() + 1)];
    await db.delete(gates);
    await db.insert(gates).values(opens.map((opensAt, index) => ({ number: index + 1, title: `Gate ${index + 1}`, description: "", opensAt })));
    for (const wave of [1, 2, 3, null]) {
      for (const status of ["active", "inactive"] as const) {
        await db.insert(challenges).values({ title: `c-${wave}-${status}`, description: "d", points: 100, category: "AI", wave, status, attachmentKey: "k", attachmentName: "a.txt" });
      }
    }
    // Gate 1 opened an hour ago: a challenge released 60 minutes after it opens now, one at 61 minutes later.
    for (const minutes of [60, 61]) {
      await db.insert(challenges).values({ title: `c-1-after-${minutes}`, description: "d", points: 100, category: "AI", wave: 1, releaseAfterMinutes: minutes, attachmentKey: "k", attachmentName: "a.txt" });
    }
    const team = await makeTeam();
    const all = await db
      .select({ id: challenges.id, wave: challenges.wave, status: challenges.status, opensAt: gates.opensAt, releaseAfterMinutes: challenges.releaseAfterMinutes, title: challenges.title })
      .from(challenges)
      .leftJoin(gates, challengeGateJoin);

    for (const role of roles) {
      const viewer = { id: 1, role, teamId: role === "participant" ? team.id : null };
      const byFunction = all.filter((row) => maySeeChallenge(viewer, row, NOW)).map((row) => row.id).sort();
      const bySql = (await db.select({ id: challenges.id }).from(challenges).leftJoin(gates, challengeGateJoin).where(visibleChallengeSql(viewer, NOW)))
        .map((row) => row.id)
        .sort();
      expect(bySql).toEqual(byFunction);
      for (const row of all) {
        const visible = byFunction.includes(row.id);
        // The challenge page: a challenge in no gate has no page for anyone.
        expect(Boolean(await getChallengeForSubmission(row.id, viewer, NOW))).toBe(visible && row.wave !== null);
        expect(Boolean(await findDownloadableAttachment(row.id, viewer, NOW))).toBe(visible);
      }
    }

    const participant = { role: "participant" as const };
    const seen = all.filter((row) => maySeeChallenge(participant, row, NOW));
    expect(seen.map((row) => row.wave).sort()).toEqual([1, 1, 2]);
    expect(seen.map((row) => row.title)).toContain("c-1-after-60");
    expect(seen.map((row) => row.title)).not.toContain("c-1-after-61");
    for (const wave of [1, 2, 3]) {
      const board = await getGateBoard(wave, team.id, NOW);
      expect(board?.challenges?.map((card) => card.id) ?? null).toEqual(wave === 3 ? null : seen.filter((row) => row.wave === wave).map((row) => row.id));
    }
    for (const row of all) {
      const refusal = await assertCanSubmit({ teamId: team.id, challengeId: row.id, now: NOW }).then(() => null, (error: { code: string }) => error.code);
      expect(refusal === null).toBe(seen.includes(row));
    }
    await db.update(gates).set({ opensAt: new Date(NOW.getTime() + 1) }).where(eq(gates.number, 2));
    expect(await getGateBoard(2, team.id, NOW)).toMatchObject({ gate: { open: false }, challenges: null });
  });

  it("the pages' loaders serve a gate as closed a few milliseconds before its instant, on the server's clock, and open from it", async () => {
    await ensureEventSettings();
    const db = getDb();
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const cookie = await sessionCookie(user.id);
    const opensAt = new Date(Date.now() + 60_000);
    await db.delete(gates);
    await db.insert(gates).values({ number: 4, title: "Gate 4", description: "d", opensAt });
    const challenge = await makeChallenge({ wave: 4 });
    const request = (path: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
    const load = async () => {
      const list = (await gatesRoute.loader({ request: request("/gates"), params: {}, context: {} })) as Awaited<ReturnType<typeof gatesRoute.loader>>;
      const board = (await gateRoute.loader({ request: request("/gate/4"), params: { wave: "4" }, context: {} })) as Awaited<ReturnType<typeof gateRoute.loader>>;
      const page = await challengeRoute.loader({ request: request(`/submition/${challenge.id}`), params: { id: String(challenge.id) }, context: {} }).then(
        () => 200,
        (response: Response) => response.status,
      );
      return { listed: list.gates[0].open, board: board.board.challenges?.map((card) => card.id) ?? null, page };
    };
    // Only Date is faked: the server's clock reads 5 ms before the instant, then the instant itself.
    vi.useFakeTimers({ toFake: ["Date"], now: opensAt.getTime() - 5 });
    try {
      expect(await load()).toEqual({ listed: false, board: null, page: 404 });
      vi.setSystemTime(opensAt);
      expect(await load()).toEqual({ listed: true, board: [challenge.id], page: 200 });
    } finally {
      vi.useRealTimers();
    }
  });
});
