/** Hints that cost points (docs/domain.md "Hints that cost points"), against real Postgres. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeHints, standings } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { HintError, hintsForTeam, replaceHints, unlockHint } from "../../app/modules/flags/hints.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { computeAllStandings } from "../../app/modules/standings/rebuild.server.ts";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
});

async function challengeWithHints(wave = 1) {
  const challenge = await makeChallenge({ wave, category: "PS", points: 300 });
  await getDb().transaction((tx) =>
    replaceHints(tx, challenge.id, [
      { text: "Look at the second column.", costCenti: 2_550 },
      { text: "Free: the answer is a number.", costCenti: 0 },
    ]),
  );
  const hints = await getDb().select().from(challengeHints).where(eq(challengeHints.challengeId, challenge.id));
  return { challenge, hints: hints.sort((a, b) => a.position - b.position) };
}

async function member() {
  const team = await makeTeam();
  const user = await makeUser("participant", team.id);
  return { team, actor: actorFor(user.id, user.name, "participant") };
}

describe("hints that cost points", () => {
  it("keep their text from a team until it unlocks them; the cost counts against the team once, at that moment", async () => {
    const { challenge, hints } = await challengeWithHints();
    const { team, actor } = await member();
    expect((await hintsForTeam(challenge.id, team.id)).map((hint) => [hint.cost, hint.unlocked, hint.text])).toEqual([
      [25.5, false, null],
      [0, false, null],
    ]);
    const unlockedAt = new Date();
    const [first, second] = await Promise.all([
      unlockHint({ actor, teamId: team.id, hintId: hints[0].id, now: unlockedAt }),
      unlockHint({ actor, teamId: team.id, hintId: hints[0].id, now: unlockedAt }),
    ]);
    expect([first.charged, second.charged].sort()).toEqual([false, true]);
    expect(first.text).toBe("Look at the second column.");
    expect((await hintsForTeam(challenge.id, team.id))[0]).toMatchObject({ unlocked: true, text: "Look at the second column." });
    // Another team still reads nothing.
    expect((await hintsForTeam(challenge.id, (await makeTeam()).id))[0].text).toBeNull();

    await recomputeTeamStanding(team.id);
    const [row] = await getDb().select().from(standings).where(eq(standings.teamId, team.id));
    expect([row.totalCenti, row.psCenti, row.totalReachedAt]).toEqual([-2_550, -2_550, unlockedAt]);
    const rebuilt = (await computeAllStandings(getDb())).standings.find((standing) => standing.teamId === team.id);
    expect(rebuilt?.totalCenti).toBe(-2_550);
    const records = await getDb().select().from(auditLog).where(eq(auditLog.kind, "hint.unlocked"));
    expect(records.filter((record) => record.teamId === team.id)).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain("second column");

    // A free hint moves nothing.
    await unlockHint({ actor, teamId: team.id, hintId: hints[1].id });
    await recomputeTeamStanding(team.id);
    const [after] = await getDb().select().from(standings).where(eq(standings.teamId, team.id));
    expect([after.totalCenti, after.totalReachedAt]).toEqual([-2_550, unlockedAt]);

    // An unlocked hint cannot be removed; its text can change.
    await expect(getDb().transaction((tx) => replaceHints(tx, challenge.id, []))).rejects.toBeInstanceOf(HintError);
  });

  it("are refused for a closed gate or a user without a team", async () => {
    const { hints } = await challengeWithHints(4);
    const { team, actor } = await member();
    await expect(unlockHint({ actor, teamId: team.id, hintId: hints[0].id })).rejects.toMatchObject({ status: 404 });
    await expect(unlockHint({ actor, teamId: null, hintId: hints[0].id })).rejects.toMatchObject({ status: 403 });
    await expect(unlockHint({ actor, teamId: team.id, hintId: 999_999 })).rejects.toMatchObject({ status: 404 });
  });
});
