/** A flag challenge made directly in the database (docs/domain.md "Flag challenges"), for the tests. */
import { eq } from "drizzle-orm";
import { challengeFlags, challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { newFlagSecret, type FlagAnswer } from "../../app/modules/flags/matching.server.ts";
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
