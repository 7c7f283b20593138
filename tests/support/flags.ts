/** A flag challenge made directly in the database (docs/domain.md "Flag challenges"), for the tests. */
import { eq, sql } from "drizzle-orm";
import { challengeFlags, challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { newFlagSecret, type FlagAnswer } from "../../app/modules/flags/matching.server.ts";
import { forgetFlagRefusals } from "../../app/modules/flags/guess.server.ts";
import { makeChallenge } from "./fixtures.ts";

export async function makeFlagChallenge(answers: FlagAnswer[], over: { wave?: number; points?: number; maxAttempts?: number; wrongPerMinute?: number } = {}) {
  const challenge = await makeChallenge({ wave: over.wave ?? 1, points: over.points ?? 200, category: "CS" });
  const secret = answers.some((answer) => answer.kind === "per_team") ? newFlagSecret() : null;
  await getDb()
    .update(challenges)
    .set({ checking: "flag", flagSecret: secret, maxAttempts: over.maxAttempts ?? null, wrongPerMinute: over.wrongPerMinute ?? null })
    .where(eq(challenges.id, challenge.id));
  await getDb()
    .insert(challengeFlags)
    .values(answers.map((answer, index) => ({ challengeId: challenge.id, position: index + 1, ...answer })));
  return { ...challenge, flagSecret: secret };
}

/**
 * The team's wrong answers moved back in time (as if `interval` had passed): their rows and the team's
 * rows of the rule (flag_tries); this process forgets the waits it remembered (as its clock would).
 */
export async function moveWrongAnswersBack(teamId: number, interval: string) {
  await getDb().execute(sql`update flag_attempts set at = at - ${interval}::interval where team_id = ${teamId}`);
  await getDb().execute(sql`update flag_tries set recent = array(select r - ${interval}::interval from unnest(recent) with ordinality u(r, i) order by i) where team_id = ${teamId}`);
  forgetFlagRefusals();
}
